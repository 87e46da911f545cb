package datasets_test

import (
	"fmt"
	"log"
	"os"
	"strings"

	"github.com/maxmargin/repro/datasets"
	"github.com/maxmargin/repro/structpred"
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

func ExampleParseCRFsuite() {
	const text = "B-NP\tw[0]=An\tlen:2\t__BOS__\n" +
		"I-NP\tw[0]=A.P.\tlen:4\n" +
		"\n"
	c, a, err := datasets.ParseCRFsuite(strings.NewReader(text), "train.txt")
	if err != nil {
		log.Fatal(err)
	}
	for t, y := range c.Sequences[0].Labels {
		fmt.Print(c.Labels[y])
		for j, name := range a.Names[0][t] {
			fmt.Printf(" %s=%g", name, a.Value(0, t, j))
		}
		fmt.Println()
	}
	// Output:
	// B-NP w[0]=An=1 len=2 __BOS__=1
	// I-NP w[0]=A.P.=1 len=4
}

func ExampleParseCRFsuite_error() {
	_, _, err := datasets.ParseCRFsuite(strings.NewReader("O\tw=a\nO\tw=b:x\n"), "train.txt")
	fmt.Println(err)
	// Output:
	// train.txt:2: attribute "w=b": value "x" is not a finite number
}

func ExampleWriteCRFsuite() {
	c := &datasets.Corpus{Labels: []string{"O"}, Sequences: []structpred.Sequence{{Tokens: []string{""}, Labels: []int{0}}}}
	a := &datasets.Attributes{Names: [][][]string{{{"w=a:b", "len"}}}, Values: [][][]float64{{{1, 0.5}}}}
	if err := datasets.WriteCRFsuite(os.Stdout, c, a); err != nil {
		log.Fatal(err)
	}
	// Output:
	// O	w=a\:b	len:0.5
}

func ExampleParseSplitFile() {
	const text = `{"n_sequences": 6, "splits": [
  {"train": [0, 2, 4], "test": [1, 3, 5]},
  {"train": [1, 3], "dev": [5], "test": [0, 2, 4]}]}`
	sf, err := datasets.ParseSplitFile([]byte(text), "splits.json")
	if err != nil {
		log.Fatal(err)
	}
	for k, s := range sf.Splits {
		split, dev := s.Split(k)
		fmt.Println(k, split.Train, split.Test, dev)
	}
	fmt.Println(sf.Check(5, "mine"))
	// Output:
	// 0 [0 2 4] [1 3 5] []
	// 1 [1 3] [0 2 4] [5]
	// splits.json:1: field "n_sequences": the file is for 6 sequences; dataset "mine" has 5
}

// A generated dataset with instantiations holds each one's training and
// test draw; InstanceSplit picks instantiation k's.
func ExampleInstanceSplit() {
	d, _ := datasets.Builtin("synth2")
	l, err := datasets.Load("", "", d)
	if err != nil {
		panic(err)
	}
	s, dev, err := datasets.InstanceSplit(l.Parts, l.Instances, 2)
	if err != nil {
		panic(err)
	}
	fmt.Println(d.Instances(), "instantiations; the third trains on", len(s.Train), "and tests on", len(s.Test), "points; dev:", len(dev))
	fmt.Println("cost of confusing classes 1 and 2:", l.Cost[1][2])
	// Output:
	// 5 instantiations; the third trains on 6000 and tests on 30000 points; dev: 0
	// cost of confusing classes 1 and 2: 0.1
}
