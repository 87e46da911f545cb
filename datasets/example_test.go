package datasets_test

import (
	"fmt"
	"log"
	"os"
	"strings"

	"github.com/maxmargin/repro/datasets"
)

func ExampleParseCora() {
	const text = "<NEWREFERENCE>\n" +
		"<author> A. Cau, </author> <title> Formalising Dijkstra's strategy. </title> <date> 1992. </date>\n"
	c, err := datasets.ParseCora(strings.NewReader(text), "example.txt")
	if err != nil {
		log.Fatal(err)
	}
	s := c.Sequences[0]
	for _, g := range s.Segments {
		fmt.Printf("%-6s %q\n", c.Labels[g.Label], s.Tokens[g.Start:g.End])
	}
	// Output:
	// author ["A." "Cau,"]
	// title  ["Formalising" "Dijkstra's" "strategy."]
	// date   ["1992."]
}

func ExampleParseCora_error() {
	const text = "<NEWREFERENCE>\n<author> A. Cau, </author> <title> On X.\n"
	_, err := datasets.ParseCora(strings.NewReader(text), "cora.txt")
	fmt.Println(err)
	// Output:
	// cora.txt:2: field "title": unclosed tag <title>
}

func ExampleRandomSplits() {
	splits, err := datasets.RandomSplits(500, 10, 0.25, 1)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(splits), len(splits[3].Train), len(splits[3].Test))
	// Output:
	// 10 125 375
}

func ExampleSynthetic() {
	c, err := datasets.Synthetic(datasets.DefaultSynthetic())
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(c.Name, len(c.Sequences), c.Labels)
	// Output:
	// synthetic 200 [L0 L1 L2 L3 L4]
}

func ExampleParseCoNLL() {
	const text = "-DOCSTART- -X- O O\n\n" +
		"EU NNP I-NP I-ORG\nrejects VBZ I-VP O\nGerman JJ I-NP I-MISC\ncall NN I-NP O\n\n"
	f := datasets.CoNLLFormat{
		Columns: []string{"word", "pos", "chunk", "label"},
		Scheme:  datasets.IOB1,
	}
	c, _, err := datasets.ParseCoNLL(strings.NewReader(text), "eng.train", f)
	if err != nil {
		log.Fatal(err)
	}
	s := c.Sequences[0]
	fmt.Println(c.Labels, s.Line, s.Doc, f.ExtraColumns(), s.Columns[0])
	for _, g := range s.Segments {
		fmt.Println(c.Labels[g.Label], s.Tokens[g.Start:g.End])
	}
	f.Scheme = datasets.IOBES
	if err := datasets.WriteCoNLL(os.Stdout, c, f); err != nil {
		log.Fatal(err)
	}
	// Output:
	// [O B-MISC I-MISC B-ORG I-ORG] 3 1 [pos chunk] [NNP VBZ JJ NN]
	// B-ORG [EU]
	// B-MISC [German]
	// -DOCSTART- -X- -X- O
	//
	// EU NNP I-NP S-ORG
	// rejects VBZ I-VP O
	// German JJ I-NP S-MISC
	// call NN I-NP O
}

func ExampleParseCoNLL_error() {
	const text = "Confidence NN B-NP\nin IN B-PP\nthe DT I-NP\n"
	f := datasets.CoNLLFormat{Scheme: datasets.IOB2}
	_, _, err := datasets.ParseCoNLL(strings.NewReader(text), "train.txt", f)
	fmt.Println(err)
	// Output:
	// train.txt:3: field "label": I-NP after B-PP: IOB2 starts every chunk with B- (is the file IOB1?)
}

func ExampleConvertTags() {
	iob1 := strings.Fields("I-PER I-PER B-PER O I-LOC")
	bio, err := datasets.ConvertTags(iob1, datasets.IOB1, datasets.IOB2)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(bio)
	// Output:
	// [B-PER I-PER B-PER O B-LOC]
}
