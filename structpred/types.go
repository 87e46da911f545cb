package structpred

// Segment is a labelled span of tokens [Start, End) (End exclusive).
type Segment struct {
	Start, End int
	Label      int
}

// Len returns the number of tokens the segment covers.
func (s Segment) Len() int { return s.End - s.Start }

// Sequence is one labelled token sequence as read from a dataset: the raw
// tokens, one label index per token, and the field segments in order. For
// sequence labelling the segments are redundant; for segmentation they are the
// truth.
type Sequence struct {
	ID       string
	Line     int // 1-based line of the source file the sequence came from (0 if generated)
	Tokens   []string
	Labels   []int
	Segments []Segment
	// Columns holds the extra per-token columns of a column file (CoNLL's
	// POS and chunk tags): Columns[c][t] is column c of token t. nil for
	// datasets without extra columns.
	Columns [][]string
	// Doc counts the document-start markers (CoNLL's -DOCSTART- lines) read
	// before the sequence: sequences with equal Doc share a document, and 0
	// means the file marks no document before it.
	Doc int
}

// SegmentsFromLabels returns the maximal runs of equal labels as segments.
// These are the "spans" of the span F1 metric.
func SegmentsFromLabels(labels []int) []Segment {
	var out []Segment
	for t := 0; t < len(labels); {
		u := t + 1
		for u < len(labels) && labels[u] == labels[t] {
			u++
		}
		out = append(out, Segment{Start: t, End: u, Label: labels[t]})
		t = u
	}
	return out
}

// Constraint is one cutting plane: w·A ≥ B − ξ_Group. Every cutting-plane
// formulation (margin, slack, PosLearn) expresses its constraints this way;
// see docs in package trainers for the table of A and B per formulation.
type Constraint struct {
	Group int       // slack group (instance, or instance×position)
	A     SparseVec // left-hand side direction
	B     float64   // required margin
	Loss  float64   // L(y) of the labeling that produced it (for reporting)
}

// Violation returns B − w·A, the slack this constraint demands at w.
func (c *Constraint) Violation(w []float64) float64 { return c.B - c.A.Dot(w) }

// PositionViolator is the best labeling that is wrong at one position c of a
// decomposable loss, with its score and the position's loss L_ic(y_c): what
// a model's PositionViolators returns for PosLearn (see
// trainers.PositionDecoder). It lives here, not in trainers, so that models
// implement the trainers' capability interfaces without importing trainers.
type PositionViolator[Y any] struct {
	Position int
	Y        Y
	Score    float64
	Loss     float64
}

// Model is what every trainer needs of a structured model over its training
// instances 0..Len()-1 (trainers.Model is this type). It lives here, not in
// trainers, for the same reason as PositionViolator: a model's Fork returns
// one (see trainers.Forker), and a method's result type must be spelt the
// same in the model and in the interface it meets.
type Model[Y any] interface {
	Len() int
	Dim() int
	// Truth returns the correct labeling y_i of instance i.
	Truth(i int) Y
	// DeltaFeatures returns δf_i(y) = f(x_i, y_i) − f(x_i, y), in storage
	// of its own that the caller keeps and may change (the cutting-plane
	// working sets hold it; slack scaling scales it in place).
	DeltaFeatures(i int, y Y) SparseVec
	// Loss returns L_i(y) ≥ 0, zero for the truth.
	Loss(i int, y Y) float64
	// Score returns s_i(y) = w·f(x_i, y).
	Score(i int, w []float64, y Y) float64
}
