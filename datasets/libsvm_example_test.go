package datasets_test

import (
	"fmt"
	"strings"

	"github.com/maxmargin/repro/datasets"
)

// Read three examples in the libsvm format and number their classes.
func ExampleParseLibSVM() {
	const file = `# label index:value ...
3 1:0.5 4:1
1 2:-1   # a comment
3 1:0.25 2:2 3:1
`
	v, err := datasets.ParseLibSVM(strings.NewReader(file), "tiny.svm")
	if err != nil {
		panic(err)
	}
	classes := v.Classes()
	ids, err := v.ClassIDs(classes)
	if err != nil {
		panic(err)
	}
	fmt.Println("features:", v.Dim, "classes:", classes, "class ids:", ids)
	fmt.Println("line", v.Items[1].Line, "indices", v.Items[1].X.Idx, "values", v.Items[1].X.Val)
	_, err = datasets.ParseLibSVM(strings.NewReader("1 2:1 1:1\n"), "bad.svm")
	fmt.Println(err)
	// Output:
	// features: 4 classes: [1 3] class ids: [1 0 1]
	// line 3 indices [1] values [-1]
	// bad.svm:1: field 3 "1:1": index 1 after 2: indices must increase along the line
}
