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

// params is an open set of keys, each with its type, read inline.
type params map[string]any

func (params) InlineKeys() map[string]any { return map[string]any{"epochs": 0, "epsilon": 0.0} }

func ExampleInline() {
	var entry struct {
		Name   string `yaml:"name"`
		Params params `yaml:",inline"`
	}
	doc := strictyaml.Doc{File: "c.yaml"}
	root, _ := strictyaml.Parse([]byte("name: perceptron\nepochs: 20\n"), doc)
	fmt.Println(strictyaml.Decode(root, &entry, doc), entry.Params["epochs"])
	root, _ = strictyaml.Parse([]byte("name: perceptron\nepochs: 2.5\n"), doc)
	fmt.Println(strictyaml.Decode(root, &entry, doc))
	// Output:
	// <nil> 20
	// c.yaml:2: epochs: cannot use 2.5 as an integer
}
