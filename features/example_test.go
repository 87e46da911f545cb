package features_test

import (
	"fmt"
	"strings"

	"github.com/maxmargin/repro/features"
)

func ExampleExtract() {
	tokens := strings.Fields("In Proc. 1992.")
	attrs := features.Extract(tokens, features.Options{Window: 1, Affixes: 0})
	fmt.Println(strings.Join(attrs[2], " "))
	// Output:
	// bias w=1992 raw=1992. shape=dddd. cshape=d. hasdigit alldigits year endperiod pos=q2 EOS -1:w=proc -1:raw=proc. -1:shape=Xxxx. -1:cshape=Xx. -1:initcap -1:endperiod -1:lex=proc +1:EOS
}

func ExampleIndex_Encode() {
	opt := features.DefaultOptions()
	train := [][][]string{features.Extract(strings.Fields("Proc. 1992."), opt)}
	idx := features.BuildIndex(train)

	// "1993." shares its shape and flags with "1992." but not its word, so
	// its word-specific attributes are unknown and Encode drops them.
	test := features.Extract(strings.Fields("Proc. 1993."), opt)
	var dropped []string
	for _, a := range test[1] {
		if _, ok := idx.Lookup(a); !ok {
			dropped = append(dropped, a)
		}
	}
	ids := idx.Encode(test)
	fmt.Println(len(test[1]), "attributes,", len(ids[1]), "ids")
	fmt.Println("dropped:", dropped)
	// Output:
	// 25 attributes, 20 ids
	// dropped: [w=1993 raw=1993. suf=3 suf=93 suf=993]
}

func ExampleNER() {
	tokens := []string{"EU", "rejects", "German", "call"}
	pos := []string{"NNP", "VBZ", "JJ", "NN"}
	attrs := features.NER(tokens, [][]string{pos}, []string{"pos"}, features.NEROptions{Window: 1})
	fmt.Println(attrs[0])
	// Output:
	// [bias w=EU lw=eu shape=XX pos=NNP cshape=X initcap allcaps first -1:BOS +1:w=rejects +1:lw=rejects +1:shape=xxxxxxx +1:pos=VBZ bi-1=<s>|eu bi+1=eu|rejects]
}
