package strictyaml_test

import (
	"fmt"

	"github.com/maxmargin/repro/internal/strictyaml"
)

func Example() {
	var s struct {
		Epochs *int `yaml:"epochs"`
	}
	doc := strictyaml.Doc{File: "model.yaml", Noun: "model file"}
	root, err := strictyaml.Parse([]byte("epoch: 5\n"), doc)
	if err == nil {
		err = strictyaml.Decode(root, &s, doc)
	}
	fmt.Println(err)
	// Output: model.yaml:1: epoch: unknown key (did you mean "epochs"?) (valid keys here: epochs)
}
