package config

import (
	"gopkg.in/yaml.v3"

	"github.com/maxmargin/repro/internal/strictyaml"
)

// configDoc describes a config file to package strictyaml, which does the
// strict decoding (file:line: field: message errors, did-you-mean); the
// meaning of the settings is config.go's.
func configDoc(file string) strictyaml.Doc {
	return strictyaml.Doc{
		File:  file,
		Noun:  "config",
		Empty: "the config is empty (it needs at least datasets: and trainers:)",
	}
}

// parseYAML parses a config's text into one YAML document.
func parseYAML(data []byte, file string) (*yaml.Node, error) {
	return strictyaml.Parse(data, configDoc(file))
}

// decodeConfig decodes the YAML tree root into cfg, strictly.
func decodeConfig(root *yaml.Node, cfg *Config) error {
	return strictyaml.Decode(root, cfg, configDoc(cfg.file))
}

// nodeKindName describes a node for messages (see strictyaml.KindName).
func nodeKindName(n *yaml.Node) string { return strictyaml.KindName(n) }

// suggest returns ` (did you mean "x"?)` for a close candidate, or "".
func suggest(got string, candidates []string) string { return strictyaml.Suggest(got, candidates) }

// editDistance is the Levenshtein distance (see strictyaml.EditDistance).
func editDistance(a, b string) int { return strictyaml.EditDistance(a, b) }
