package metrics

import (
	"fmt"
	"slices"
)

// Direction says which way a metric improves.
type Direction int

// The two directions.
const (
	LowerBetter  Direction = iota // an error: 0 is perfect
	HigherBetter                  // a score such as F1
)

// Aggregation says how a metric combines the items (sentences, trees) of a
// test set.
type Aggregation int

// The aggregations.
const (
	// Micro pools the counts of every item before dividing (token error
	// over all tokens, F1 over all spans), as conlleval does.
	Micro Aggregation = iota
	// Macro averages the items' own values.
	Macro
)

// Test is a set of paired significance tests that apply to a metric.
type Test uint8

// The paired tests. TTest compares two trainers over the splits both have
// run; McNemar and Bootstrap compare them on one fixed split from the
// per-item outcomes a run keeps (report.Outcomes): McNemar on the token
// decisions, the paired bootstrap over sentences on the span counts.
//
// Sign compares them item by item over the test items of every split
// both have run, pooled, where the splits' test parts are disjoint
// (cross-validation folds: each item is tested once), as McNemar's test
// on one test set does: an item counts for the trainer whose value of the
// metric on that item alone is better, ties are dropped, and the exact
// two-sided binomial test asks whether the two counts differ. The item's
// value comes from the outcomes the metric's other per-item test reads,
// so a metric with Sign has McNemar or Bootstrap too: the share of the
// item's tokens that are right (McNemar; a tree or class is one token,
// right or not), or the item's span F1 (Bootstrap; a sentence's bracket
// F1).
const (
	TTest Test = 1 << iota
	McNemar
	Bootstrap
	Sign
)

// Def declares one metric: everything tables, figures, the paper
// comparison, the golden check and diffs need to know of it.
type Def struct {
	Name  string // key in run records and configs, e.g. "token_error"
	Label string // in prose, legends and test lines, e.g. "token error"
	// Short heads its columns in the paper comparison, e.g. "error".
	Short string
	// Line names a results-table line that starts with it, in the error
	// column a table has when its rows start with different metrics.
	Line string
	// Unit is "%", "s" or "" (a count or a plain number): tables label
	// values with it, and a difference of percentages is in points.
	Unit string
	// Better is the direction in which it improves.
	Better Direction
	// Decimals a table prints; 0 means the table's own setting.
	Decimals    int
	Aggregation Aggregation
	Tests       Test
	// Source, if set, says where the metric is defined, for the legend of
	// the paper comparison: it must hold for every paper table the metric
	// is compared with (the working set's size is a column of three of
	// Tsochantaridis et al.'s tables, so it cites them all).
	Source string
	// Doc defines it, for legends and docs/metrics.md: a noun phrase.
	Doc string
	// ByTrainer says that only some trainers report it (a statistic of the
	// training, e.g. the cutting-plane solvers' constraints): a row shows
	// it when any of its runs has it, and a cell without it reads "-".
	ByTrainer bool
	// Measured says that it measures the machine, not the model (a time):
	// two runs of one unit differ in it by nature, as in train_seconds and
	// cpu_seconds, so repro diff, repro verify and repro check leave it
	// out, and no cell of its line is marked best. It has no paired test.
	Measured bool
}

// Lower reports whether lower values are better.
func (d Def) Lower() bool { return d.Better == LowerBetter }

// Has reports whether test t applies to the metric.
func (d Def) Has(t Test) bool { return d.Tests&t != 0 }

// Metric names.
const (
	TokenError      = "token_error"
	TokenErrorFile  = "token_error_file"
	SpanF1          = "span_f1"
	SegmentError    = "segment_error"
	AttachmentError = "attachment_error"
	ErrorRate       = "error_rate"
	AverageCost     = "average_cost"
	CostError       = "cost_error"
	BagAccuracy     = "bag_accuracy"
	// TrainError is the task's first metric on the training part.
	TrainError = "train_error"
	// Constraints and SupportLoss are statistics of a cutting-plane
	// training (trainers.Stats), Tsochantaridis et al.'s Table 3 columns.
	Constraints    = "constraints"
	SupportLoss    = "support_loss"
	BracketF1      = "bracket_f1"
	TreeAccuracy   = "tree_accuracy"
	TrainBracketF1 = "train_bracket_f1"
	TrainTreeAcc   = "train_tree_accuracy"
	Coverage       = "coverage"
	TrainErrorRate = "train_error_rate"
	// QPSeconds and QPShare are the time a cutting-plane training spent
	// in its working-set QP (trainers.Stats.QPTime) and its share of the
	// training's time: Tsochantaridis et al.'s Table 5 "CPU (%QP)".
	QPSeconds = "qp_seconds"
	QPShare   = "qp_share"
)

// All returns every metric, in registry order: the order of CSV columns
// and of the paper comparison's columns (errors first there).
func All() []Def {
	return []Def{
		{Name: TokenError, Label: "token error", Short: "error", Line: "token", Unit: "%", Better: LowerBetter,
			Aggregation: Micro, Tests: TTest | McNemar,
			Doc: "the percentage of tokens whose predicted label differs from the true one, counted on the labels the model predicts " +
				"(for chunk-tagged corpora the IOB2 tags every label encoding is read into)"},
		{Name: SpanF1, Label: "span F1", Short: "F1", Line: "F1", Unit: "%", Better: HigherBetter,
			Aggregation: Micro, Tests: TTest | Bootstrap,
			Doc: "the harmonic mean of span precision and recall in percent: spans are maximal runs of one label, " +
				"conlleval's typed chunks on chunk-tagged corpora, the segments of a segmentation"},
		{Name: SegmentError, Label: "segment error", Short: "seg-err", Line: "segment", Unit: "%", Better: LowerBetter,
			Aggregation: Micro, Tests: TTest, Source: "section 4.3.2 of Sarawagi & Gupta",
			Doc: "Sarawagi & Gupta's section 4.3.2 segment error (the segment loss summed over the test set, over the number of true plus predicted segments)"},
		{Name: AttachmentError, Label: "attachment error", Short: "att-err", Line: "attachment", Unit: "%", Better: LowerBetter,
			Aggregation: Micro, Tests: TTest | McNemar,
			Doc: "the unlabelled attachment error: the percentage of words whose predicted head is not the true head (100 − UAS)"},
		{Name: TokenErrorFile, Label: "token error (file tags)", Short: "error (file)", Line: "token (file)", Unit: "%", Better: LowerBetter,
			Aggregation: Micro, Tests: TTest,
			Doc: "the token error with predicted and true labels both written in the corpus file's own label encoding (e.g. IOB1 for CoNLL-2003), " +
				"as a script comparing the file's tag column with a tagger's output counts it"},
		{Name: ErrorRate, Label: "error rate", Short: "error", Line: "error", Unit: "%", Better: LowerBetter,
			Aggregation: Micro, Tests: TTest | McNemar,
			Doc: "the percentage of items whose predicted class is not the true one (100 − accuracy)"},
		{Name: AverageCost, Label: "average cost Δ", Short: "avg Δ", Line: "cost", Better: LowerBetter, Decimals: 3,
			Aggregation: Micro, Tests: TTest,
			Doc: "the mean over the test items of the cost Δ(y, ŷ) of the predicted class ŷ against the true one y (the cost matrix of the dataset; 0/1 by default, where it is the error rate as a fraction)"},
		{Name: CostError, Label: "cost-weighted error", Short: "cost err", Line: "cost error", Unit: "%", Better: LowerBetter,
			Aggregation: Micro, Tests: TTest,
			Doc: "the average cost Δ as a percentage (100 × average_cost): the error rate with each mistake counted at its cost, as Pletscher et al. (2010, Table 1) report Synth2 and Synth3"},
		{Name: BagAccuracy, Label: "bag accuracy", Short: "acc", Line: "accuracy", Unit: "%", Better: HigherBetter,
			Aggregation: Micro, Tests: TTest,
			Doc: "the percentage of test bags of a multiple-instance problem whose label (positive or negative) is predicted right, with the prediction rule of the trained β"},
		{Name: TrainError, Label: "training error", Short: "train err", Line: "train", Unit: "%", Better: LowerBetter,
			Aggregation: Micro, Tests: TTest,
			Doc: "the task's first metric (token error for sequence labelling) on the training part, predicted by the trained model"},
		{Name: Constraints, Label: "constraints", Short: "constr", Line: "constraints", Better: LowerBetter, Decimals: 0,
			Aggregation: Macro, Tests: TTest, ByTrainer: true, Source: "Tsochantaridis et al., Tables 3–5",
			Doc: "the size of the cutting-plane solver's final working set (n-slack: constraints; one-slack: joint constraints), as the trainers report it"},
		{Name: SupportLoss, Label: "average support loss", Short: "avg loss", Line: "support loss", Better: LowerBetter, Decimals: 2,
			Aggregation: Macro, Tests: TTest, ByTrainer: true, Source: "Tsochantaridis et al., Table 3 (average loss)",
			Doc: "the mean task loss L_i(y) (Hamming on chains, whatever loss trained) of the labelings behind the working set's constraints with nonzero dual weight"},
		{Name: TreeAccuracy, Label: "exact-tree accuracy", Short: "exact", Line: "exact", Unit: "%", Better: HigherBetter,
			Aggregation: Micro, Tests: TTest | McNemar | Sign,
			Doc: "the percentage of test sentences whose parse is the gold tree exactly (Table 5's test accuracy)"},
		{Name: BracketF1, Label: "bracket F1", Short: "br-F1", Line: "bracket F1", Unit: "%", Better: HigherBetter,
			Aggregation: Micro, Tests: TTest | Bootstrap | Sign,
			Doc: "the labelled-bracket F1 of the test parses in percent, bracket counts summed over sentences (evalb's totals, punctuation kept)"},
		{Name: TrainTreeAcc, Label: "train exact-tree accuracy", Short: "train exact", Line: "train exact", Unit: "%", Better: HigherBetter,
			Aggregation: Micro, Tests: TTest,
			Doc: "the exact-tree accuracy of the trained model on its own training sentences (Table 5's training accuracy)"},
		{Name: TrainBracketF1, Label: "train bracket F1", Short: "train br-F1", Line: "train bracket F1", Unit: "%", Better: HigherBetter,
			Aggregation: Micro, Tests: TTest,
			Doc: "the bracket F1 of the trained model on its own training sentences (Table 5's training F1)"},
		{Name: Coverage, Label: "coverage", Short: "cover", Line: "coverage", Unit: "%", Better: HigherBetter,
			Aggregation: Micro, Tests: TTest,
			Doc: "the percentage of test sentences the grammar of the training trees parses at all (the others get the fallback: a flat tree)"},
		{Name: TrainErrorRate, Label: "train error rate", Short: "train error", Line: "train error", Unit: "%", Better: LowerBetter,
			Aggregation: Micro, Tests: TTest,
			Doc: "the error rate of the trained model on its own training items (Table 4's training error)"},
		{Name: QPSeconds, Label: "QP time", Short: "QP s", Line: "QP time", Unit: "s", Better: LowerBetter, Decimals: 3,
			Aggregation: Macro, ByTrainer: true, Measured: true, Source: "Tsochantaridis et al., Table 5",
			Doc: "the time a cutting-plane training spent on its working-set QP (adding constraints, the dual solves, dropping idle constraints): " +
				"CPU seconds of the training's thread where the platform has a thread clock, else wall-clock seconds"},
		{Name: QPShare, Label: "QP share of training time", Short: "%QP", Line: "QP share", Unit: "%", Better: LowerBetter, Decimals: 1,
			Aggregation: Macro, ByTrainer: true, Measured: true, Source: "Tsochantaridis et al., Table 5",
			Doc: "qp_seconds as a percentage of the training's time (its CPU seconds, the separation threads' included; wall-clock where there is no CPU time)"},
	}
}

// Lookup returns the metric named name.
func Lookup(name string) (Def, bool) {
	i := slices.IndexFunc(All(), func(d Def) bool { return d.Name == name })
	if i < 0 {
		return Def{}, false
	}
	return All()[i], true
}

// Rank is the metric's position in registry order, len(All()) if unknown.
func Rank(name string) int {
	all := All()
	if i := slices.IndexFunc(all, func(d Def) bool { return d.Name == name }); i >= 0 {
		return i
	}
	return len(all)
}

// Names returns the names of every metric, in registry order.
func Names() []string {
	var out []string
	for _, d := range All() {
		out = append(out, d.Name)
	}
	return out
}

// TaskMetrics is what a task reports: its metrics in table order, the one
// that chooses C unless a config says otherwise, and how records written
// before metrics were data name them.
//
// A results table shows a row's first two metrics on the row's line
// (error/F1, as Sarawagi & Gupta's Table 1), and each further one on a
// line of its own below it.
type TaskMetrics struct {
	Task    string
	Metrics []string
	// Of says, per metric, what it counts in this task where its
	// definition leaves that open (legends), e.g. "of the labels its
	// segments induce".
	Of map[string]string
	// SelectBy is the metric whose validation value chooses C by default.
	SelectBy string
	// Legacy maps the fields of old run records (token_error, span_f1,
	// segment_error at top level, in candidates and in curve points) to
	// metric names; a field mapped to "" is dropped.
	Legacy map[string]string
}

// legacyNames returns the metric fields of run records from before metrics
// were data.
func legacyNames() []string { return []string{TokenError, SpanF1, SegmentError} }

// Tasks returns the metric declarations of every task that has one.
func Tasks() []TaskMetrics {
	return []TaskMetrics{
		{Task: "sequence", Metrics: []string{TokenError, SpanF1, TokenErrorFile, TrainError, Constraints, SupportLoss}, SelectBy: TokenError,
			Legacy: map[string]string{TokenError: TokenError, SpanF1: SpanF1, SegmentError: ""}},
		{Task: "segmentation", Metrics: []string{SegmentError, SpanF1, TokenError}, SelectBy: TokenError,
			Legacy: map[string]string{TokenError: TokenError, SpanF1: SpanF1, SegmentError: SegmentError},
			Of:     map[string]string{TokenError: "of the labels its segments induce"}},
		// Parsing's records before metrics were data held its attachment
		// error as token_error, beside a span F1 that meant nothing.
		{Task: "parsing", Metrics: []string{AttachmentError}, SelectBy: AttachmentError,
			Legacy: map[string]string{TokenError: AttachmentError, SpanF1: "", SegmentError: ""}},
		// Multiclass classification had no records before metrics were
		// data: no old field is its.
		{Task: "multiclass", Metrics: []string{ErrorRate, AverageCost, CostError}, SelectBy: ErrorRate,
			Legacy: map[string]string{TokenError: "", SpanF1: "", SegmentError: ""}},
		{Task: "mil", Metrics: []string{BagAccuracy}, SelectBy: BagAccuracy,
			Legacy: map[string]string{TokenError: "", SpanF1: "", SegmentError: ""}},
		// The multiclass task over a class tree reports what the flat one
		// does (Table 1 of Tsochantaridis et al. 2004 compares the two on
		// accuracy, 100 − error_rate, and the tree loss, the dataset's cost;
		// no cost error: the tree loss exceeds 1).
		{Task: "taxonomy", Metrics: []string{ErrorRate, AverageCost}, SelectBy: ErrorRate,
			Legacy: map[string]string{TokenError: "", SpanF1: "", SegmentError: ""}},
		// Table 4 of Tsochantaridis et al. (2004): the error rate (the
		// homologue not selected) on the test and the training examples.
		{Task: "alignment", Metrics: []string{ErrorRate, TrainErrorRate}, SelectBy: ErrorRate,
			Legacy: map[string]string{TokenError: "", SpanF1: "", SegmentError: ""}},
		// Table 5: test accuracy and F1, their training-set values, the
		// grammar's coverage, and the efficiency columns: the working set's
		// size and the QP's time and share of the training time, of the
		// cutting-plane trainers.
		{Task: "cfg", Metrics: []string{TreeAccuracy, BracketF1, TrainTreeAcc, TrainBracketF1, Coverage, Constraints, QPSeconds, QPShare}, SelectBy: BracketF1,
			Legacy: map[string]string{TokenError: "", SpanF1: "", SegmentError: ""}},
	}
}

// ForTask returns the declaration of task; a task without one reports the
// metrics its records hold, in registry order, and reads old records as
// they are.
func ForTask(task string) TaskMetrics {
	for _, t := range Tasks() {
		if t.Task == task {
			return t
		}
	}
	legacy := map[string]string{}
	for _, n := range legacyNames() {
		legacy[n] = n
	}
	return TaskMetrics{Task: task, Metrics: Names(), SelectBy: TokenError, Legacy: legacy}
}

// Check reports whether every metric a declaration names is registered.
func (t TaskMetrics) Check() error {
	for _, n := range append(slices.Clone(t.Metrics), t.SelectBy) {
		if _, ok := Lookup(n); !ok {
			return fmt.Errorf("metrics: task %q: unknown metric %q", t.Task, n)
		}
	}
	if !slices.Contains(t.Metrics, t.SelectBy) {
		return fmt.Errorf("metrics: task %q selects by %q, which it does not report", t.Task, t.SelectBy)
	}
	return nil
}
