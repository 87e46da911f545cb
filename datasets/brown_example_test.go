package datasets_test

import (
	"fmt"

	"github.com/maxmargin/repro/datasets"
)

func ExampleReadBrown() {
	texts, err := datasets.ReadBrown("testdata/brown")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, x := range texts {
		fmt.Println(x.File, x.Category, len(x.Tokens), x.Tokens[:3])
	}
	// Output:
	// ca01 news 11 [The Fulton jury]
	// cb01 editorial 8 [Our view :]
	// ck01 fiction 8 [She smiled ,]
}
