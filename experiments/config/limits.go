package config

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/maxmargin/repro/datasets"
	"github.com/maxmargin/repro/features"
)

// MaxUnits bounds the units one config may plan. The runner holds every
// planned unit in memory before the first one trains, so a typo such as
// `count: 100000000` must be refused up front; the bound is about 100 times
// the largest committed config (configs/cora.yaml: about 900 units).
const MaxUnits = 100_000

// Estimate is the size of a config's run, computed from the config alone
// (before any data is loaded) from the dominant terms: labels², sequence
// length and attributes. It is an estimate, not a measurement: it errs
// high on memory and low on time.
type Estimate struct {
	Units int // validation and test units
	// DataBytes is the memory of the prepared data (tokens and their
	// attribute strings), shared by all units.
	DataBytes float64
	// UnitBytes is the peak memory of the largest unit: its weight vectors
	// (attributes × labels + labels², kept in up to weightVectors copies by
	// L-BFGS), its label-pair tables (max length × labels²) and its encoded
	// training data.
	UnitBytes float64
	// MinTime is a lower bound on the run's CPU time: one Viterbi pass
	// (labels² per token) over every unit's training data. Real trainers
	// make tens to hundreds of passes.
	MinTime time.Duration
	// Dataset is the config index of the dataset with the largest unit.
	Dataset int
	// LabelBound is true when labels² terms dominate that unit's memory.
	LabelBound bool
	// Unestimated names the datasets whose size is known only once they
	// load (corpora and treebanks a config declares itself): UnitBytes and
	// DataBytes leave them out; MinTime counts them as Cora-sized. A parsing unit on Talbanken's 4,300 training
	// sentences held 3–7 GB, where a Cora-sized guess said 101 MiB.
	Unestimated []string
}

// weightVectors is how many weight-sized vectors a unit keeps at its peak:
// gonum's L-BFGS (the CRF and entropy-margin trainers) stores 15 pairs of
// history vectors by default, plus the iterate, gradient and direction; the
// other trainers keep fewer.
const weightVectors = 2*15 + 6

// nsPerLabelPair is the cost of one label pair of a Viterbi pass, from the
// decoder benchmark in docs/performance.md (6.0 µs for N = 30 tokens, K = 13 labels:
// 6.0 µs / (30·13²) ≈ 1.2 ns).
const nsPerLabelPair = 1.2

// dataShape is what the estimate needs to know of a dataset.
type dataShape struct {
	unknown                   bool // a corpus of one's own: not estimated
	sequences, labels, maxLen int
	tokens                    float64 // all tokens
	attrs, attrsPerToken      float64 // distinct attributes, attributes per token
}

// shape returns dataset i's shape. The real datasets' sizes are measured on
// the published files (Cora: 500 references, 11,609 tokens, at most 64;
// 27,907 distinct attributes, at most 32 per token with the default
// window; OCR: 6,877 words, 52,152 letters, at most 14; degree-2 pixels: at
// most 2,279 attributes per letter); a synthetic dataset's follow from its
// generator settings.
func (c *Config) shape(i int) dataShape {
	widen := 1.0 // attribute counts scale with the window's width
	if w := c.Features.Window; w != nil {
		widen = float64(2**w+1) / float64(2*features.DefaultOptions().Window+1)
	}
	d := c.Datasets[i]
	switch {
	case d.Name == "ocr":
		s := dataShape{sequences: 6877, labels: len(datasets.OCRLabels()), maxLen: 14, tokens: 52152,
			attrs: datasets.OCRPixels, attrsPerToken: datasets.OCRPixels}
		if c.Features.Degree == 2 {
			s.attrs = datasets.OCRPixels * (datasets.OCRPixels + 1) / 2
			s.attrsPerToken = 2279
		}
		return s
	case d.Name == datasetSynthetic && d.Synthetic != nil:
		g := d.Synthetic
		perToken := float64(syntheticAttrsPerToken(c))
		words := float64(g.Labels+1) * float64(g.Vocab)
		tokens := float64(g.Sequences) * (float64(g.MinLen) + float64(g.MaxLen)) / 2
		return dataShape{sequences: g.Sequences, labels: g.Labels, maxLen: g.MaxLen, tokens: tokens,
			attrs: math.Min(words, tokens) * perToken, attrsPerToken: perToken}
	case d.Name == "conll2003" && !d.declares():
		// Measured: 20,744 sentences, 301,418 tokens in train + testa +
		// testb, at most 124; NER features: 447,300 distinct attributes
		// in eng.train (177,952 seen twice), about 45 per token.
		return dataShape{sequences: 20744, labels: 9, maxLen: 124, tokens: 301418, attrs: 447300, attrsPerToken: 45}
	default: // cora; corpora of one's own are unknown before they load
		return dataShape{unknown: d.declares() || d.Name != "cora", sequences: 500, labels: len(datasets.CoraLabels()), maxLen: 64, tokens: 11609,
			attrs: 27907 * widen, attrsPerToken: 32 * widen}
	}
}

// syntheticAttrsPerToken counts the citation attributes of a synthetic word
// with both neighbours, under the config's feature settings.
func syntheticAttrsPerToken(c *Config) int {
	if c.Features.Kind == FeaturesPixels {
		return 0 // pixel features reject synthetic tokens when the data loads
	}
	opt := features.DefaultOptions()
	if w := c.Features.Window; w != nil {
		opt.Window = *w
	}
	if a := c.Features.Affixes; a != nil {
		opt.Affixes = *a
	}
	attrs := features.Extract([]string{"w101", "W102", "1103."}, opt)
	return len(attrs[1])
}

// Estimate computes the size of the run the config declares (see
// [Estimate]). Parse refuses a config whose single unit does not fit;
// `repro run` warns when UnitBytes times its workers does not.
func (c *Config) Estimate() Estimate {
	var e Estimate
	var work float64
	for i := range c.Datasets {
		s := c.shape(i)
		if s.unknown {
			e.Unestimated = append(e.Unestimated, c.Datasets[i].Name)
		}
		k := float64(s.labels)
		pairs := k * k
		// In float64s: the cost matrix and pairwise tables per position,
		// and for segmentation the semi-Markov tables (length × segment
		// length × labels); the weights; the encoded data (int32 ids).
		labelTerms := pairs*(1+2*float64(s.maxLen)) + weightVectors*pairs
		if slices.Contains(c.Tasks, TaskSegmentation) {
			labelTerms += float64(s.maxLen) * float64(s.maxLen) * k
		}
		dataTerms := weightVectors*s.attrs*k + s.tokens*s.attrsPerToken/2
		if unit := 8 * (labelTerms + dataTerms); unit > e.UnitBytes && !s.unknown {
			e.UnitBytes, e.Dataset, e.LabelBound = unit, i, labelTerms > dataTerms
		}
		if !s.unknown {
			e.DataBytes += s.tokens * (16 + s.attrsPerToken*32) // token strings, attribute strings
		}
		for range c.Tasks {
			for _, t := range c.Trainers {
				for _, frac := range c.Splits.TrainFractions {
					per := 1 // the test unit
					if len(t.C) > 1 {
						per += len(t.C)
					}
					n := float64(c.Splits.Count) * float64(per)
					e.Units += int(math.Min(n, MaxUnits+1))
					train := frac
					if c.Splits.Kind == SplitFold {
						train = 1 / float64(datasets.OCRFoldCount)
					}
					work += n * s.tokens * train * pairs
				}
			}
		}
		e.Units = min(e.Units, MaxUnits+1)
	}
	e.MinTime = time.Duration(math.Min(work*nsPerLabelPair, math.MaxInt64/2))
	return e
}

// checkSize refuses a config whose run cannot fit: more than [MaxUnits]
// units, or a unit (with the shared data) needing more memory than
// [MemoryLimit].
func (c *Config) checkSize() error {
	e := c.Estimate()
	if e.Units > MaxUnits {
		return c.fail(at{"splits", "count"}, "the run would plan more than %d units (splits × trainers × C grids × tasks × datasets), and take at least %s; reduce splits.count, the grids or the trainers",
			MaxUnits, roundDuration(e.MinTime))
	}
	limit, source := MemoryLimit()
	if need := e.DataBytes + e.UnitBytes; need > float64(limit) {
		// Point at the setting behind the dominant term.
		p, what := at{"datasets", e.Dataset}, "attributes × labels and the data"
		if e.LabelBound {
			what = "labels² tables"
		}
		if c.Datasets[e.Dataset].Name == datasetSynthetic {
			p = append(p, "synthetic", "sequences")
			if e.LabelBound {
				p[len(p)-1] = "labels"
			}
		}
		s := c.shape(e.Dataset)
		return c.fail(p, "a unit on %s would need about %s of memory (mostly %s: %d labels, sequences of up to %d tokens, about %.3g attributes), over the %s limit of %s; the run would take at least %s",
			c.Datasets[e.Dataset].Name, formatBytes(need), what, s.labels, s.maxLen, s.attrs,
			source, formatBytes(float64(limit)), roundDuration(e.MinTime))
	}
	return nil
}

// fallbackMemory is the limit used when neither GOMEMLIMIT nor the
// machine's memory is known.
const fallbackMemory = 16 << 30

// MemoryLimit returns the memory a run may use and where the figure comes
// from: GOMEMLIMIT if set, else the machine's physical memory (Linux
// /proc/meminfo), else 16 GiB.
func MemoryLimit() (int64, string) {
	if l := debug.SetMemoryLimit(-1); l != math.MaxInt64 {
		return l, "GOMEMLIMIT"
	}
	if m, ok := physicalMemory(); ok {
		return m, "machine's"
	}
	return fallbackMemory, "default"
}

// physicalMemory reads MemTotal from /proc/meminfo.
func physicalMemory() (int64, bool) {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 2 && fields[0] == "MemTotal:" {
			kb, err := strconv.ParseInt(fields[1], 10, 64)
			return kb << 10, err == nil && kb > 0
		}
	}
	return 0, false
}

func formatBytes(b float64) string {
	switch {
	case b >= 1<<40:
		return fmt.Sprintf("%.3g TiB", b/(1<<40))
	case b >= 1<<30:
		return fmt.Sprintf("%.3g GiB", b/(1<<30))
	default:
		return fmt.Sprintf("%.3g MiB", b/(1<<20))
	}
}

// roundDuration prints a duration to about two significant figures, in
// days beyond two days.
func roundDuration(d time.Duration) string {
	switch {
	case d >= 48*time.Hour:
		return fmt.Sprintf("%.2g days", d.Hours()/24)
	case d >= time.Hour:
		return d.Round(time.Minute).String()
	case d >= time.Second:
		return d.Round(time.Second).String()
	}
	return "under a second"
}
