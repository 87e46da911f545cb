package features_test

import (
	"fmt"

	"github.com/maxmargin/repro/features"
)

func ExampleCheckSetting() {
	fmt.Println(features.CheckSetting("window", 2))
	fmt.Println(features.CheckSetting("window", 1000000))
	// Output:
	// <nil>
	// must be in [0, 5], got 1000000
}
