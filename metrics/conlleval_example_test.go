package metrics_test

import (
	"log"
	"os"
	"strings"

	"github.com/maxmargin/repro/metrics"
)

func ExampleChunkCounts() {
	var c metrics.ChunkCounts
	sentences := [][2]string{
		{"B-PER I-PER O B-LOC", "B-PER I-PER O B-ORG"},
		{"O B-ORG I-ORG", "O B-ORG I-ORG"},
	}
	for _, s := range sentences {
		if err := c.AddTags(strings.Fields(s[0]), strings.Fields(s[1])); err != nil {
			log.Fatal(err)
		}
	}
	if err := c.WriteReport(os.Stdout); err != nil {
		log.Fatal(err)
	}
	// Output:
	// processed 7 tokens with 3 phrases; found: 3 phrases; correct: 2.
	// accuracy:  85.71%; precision:  66.67%; recall:  66.67%; FB1:  66.67
	//               LOC: precision:   0.00%; recall:   0.00%; FB1:   0.00  0
	//               ORG: precision:  50.00%; recall: 100.00%; FB1:  66.67  2
	//               PER: precision: 100.00%; recall: 100.00%; FB1: 100.00  1
}
