package features_test

import (
	"fmt"

	"github.com/maxmargin/repro/features"
)

// The vocabulary and idf come from the training documents (0 and 1);
// document 2 is only transformed.
func ExampleFitBagOfWords() {
	docs := [][]string{{"The", "jury", "said"}, {"the", "tax", "."}, {"The", "jury", "smiled"}}
	b, err := features.FitBagOfWords(docs, []int{0, 1}, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	v := b.Transform(docs[2])
	for e, j := range v.Idx {
		fmt.Printf("%s %.3f\n", b.Word(int(j)), v.Val[e])
	}
	// Output:
	// jury 0.815
	// the 0.580
}
