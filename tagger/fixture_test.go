package tagger

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/maxmargin/repro/datasets"
)

// fixtureChunk is a typed chunk of a fixture sentence.
type fixtureChunk struct {
	words []string
	typ   string
}

// nerFixture writes n sentences of a small named-entity corpus in the
// column layout "word pos label" with labels in scheme sc. The words decide
// the labels (a first name starts a person, a surname continues one;
// cities are locations, firms organisations, all one token), so a trainer
// can fit the data exactly; chunks of one type often follow each other
// directly, which IOB1 and IOE1 mark with B- and E-.
func nerFixture(seed uint64, n int, sc datasets.Scheme) string {
	rng := rand.New(rand.NewPCG(seed, 17))
	first := []string{"John", "Mary", "Ada", "Alan"}
	last := []string{"Smith", "Jones", "Turing", "Lovelace"}
	cities := []string{"Paris", "Berlin", "Lima", "Oslo"}
	firms := []string{"Acme", "Globex", "Initech"}
	filler := []string{"the", "met", "in", "and", "visited", "for", "said", "today"}
	pick := func(xs []string) string { return xs[rng.IntN(len(xs))] }
	var b strings.Builder
	for range n {
		var words, pos []string
		var chunks []datasets.Chunk
		for k := 2 + rng.IntN(5); k > 0; k-- {
			var c fixtureChunk
			switch rng.IntN(5) {
			case 0:
				c = fixtureChunk{[]string{pick(first)}, "PER"}
				if rng.IntN(2) == 0 {
					c.words = append(c.words, pick(last))
				}
			case 1:
				c = fixtureChunk{[]string{pick(cities)}, "LOC"}
			case 2:
				c = fixtureChunk{[]string{pick(firms)}, "ORG"}
			default:
				words = append(words, pick(filler))
				pos = append(pos, "X")
				continue
			}
			chunks = append(chunks, datasets.Chunk{Start: len(words), End: len(words) + len(c.words), Type: c.typ})
			words = append(words, c.words...)
			for range c.words {
				pos = append(pos, "NNP")
			}
		}
		tags, err := sc.Encode(chunks, len(words))
		if err != nil {
			panic(err) // chunks are in order by construction
		}
		for t, w := range words {
			fmt.Fprintf(&b, "%s %s %s\n", w, pos[t], tags[t])
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// columnOf returns column c of every token line of a column file, and ""
// for blank lines.
func columnOf(text string, c int) []string {
	var out []string
	for line := range strings.Lines(text) {
		f := strings.Fields(line)
		if len(f) == 0 {
			out = append(out, "")
			continue
		}
		out = append(out, f[(c+len(f))%len(f)])
	}
	return out
}
