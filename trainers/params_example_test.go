package trainers_test

import (
	"fmt"

	"github.com/maxmargin/repro/trainers"
)

// A command line's --param epochs=ten and a config's epochs: 0 are refused
// by the same declaration: the param's kind, range and default.
func ExampleParam_Parse() {
	spec, _ := trainers.SpecOf(trainers.PerceptronName)
	epochs, _ := spec.Param("epochs")
	_, err := epochs.Parse("ten")
	fmt.Println(err)
	fmt.Println(epochs.Range, trainers.Validate(trainers.PerceptronName, trainers.Values{"epochs": 0}))
	// Output:
	// epochs: takes an integer, got "ten"
	// [1, ∞) trainer "perceptron": epochs: must not be 0 (omit it for the default, 10)
}
