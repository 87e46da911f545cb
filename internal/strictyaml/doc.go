// Package strictyaml reads hand-written YAML settings files strictly and
// explains every mistake by file, line and field, so that a typo never
// silently becomes a default. It wraps gopkg.in/yaml.v3:
//
//   - [Parse] reads exactly one document, with syntax errors at 1-based
//     lines (an unclosed '[' or '{' at the line that opened it) and a clear
//     message for an empty file or a second document;
//   - [Decode] fills a struct from the tree: an unknown key (with a "did
//     you mean" suggestion, see [Suggest]), a repeated key, a key with no
//     value, a value of the wrong kind, and a non-integer for an integer
//     field are errors naming the field path, e.g. trainers[0].epochs; an
//     alias bomb is refused ([Doc.MaxNodes]);
//   - a struct field tagged `yaml:",inline"` whose map type implements
//     [Inline] takes the keys no other field takes, each decoded strictly
//     as the type Inline declares for it (an open set of keys, such as a
//     trainer's params, read by the same rules);
//   - [Find] locates a setting's node and line, so that checks made after
//     decoding (ranges, relations between settings) can point at it too.
//
// Every error is an [*Error]. Struct fields are matched by their yaml tag
// (or lower-cased name); pointer fields stay nil when their key is absent,
// which is how callers tell "absent" (take the default) from an explicit
// zero. What the settings mean, and their defaults, are the caller's.
package strictyaml
