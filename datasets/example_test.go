package datasets_test

import (
	"fmt"
	"log"
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
