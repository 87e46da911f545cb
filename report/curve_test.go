package report

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg/recorder"
)

// learningRuns returns runs with learning curves on ocr/sequence: each
// trainer on splits 0..splits-1, split s's checkpoints at times
// (1+s)·base·2^j whose token error falls from 50 towards 10, plus a
// conll run the ocr figures must ignore.
func learningRuns(splits int, trainers ...string) []Run {
	var runs []Run
	for ti, tr := range trainers {
		base := math.Pow(10, float64(ti)) // each trainer a decade slower
		for s := range splits {
			r := Run{Key: fmt.Sprintf("%s-%d", tr, s), Dataset: "ocr", Task: "sequence", Trainer: tr, Split: s}
			for j := range 4 + s {
				r.Curve = append(r.Curve, CurvePoint{
					Iteration: j + 1, CPUSeconds: float64(1+s) * base * math.Pow(2, float64(j)),
					Metrics: map[string]float64{"token_error": 10 + 40/float64(j+1) + float64(s), "span_f1": 50 + 10*float64(j)},
				})
			}
			last := r.Curve[len(r.Curve)-1]
			r.Metrics, r.CPUSeconds = map[string]float64{"token_error": last.Metrics["token_error"], "span_f1": last.Metrics["span_f1"]}, last.CPUSeconds
			runs = append(runs, r)
		}
	}
	return append(runs, Run{Key: "conll", Dataset: "conll", Task: "sequence", Trainer: "crf",
		Curve: []CurvePoint{{Iteration: 1, CPUSeconds: 1, Metrics: map[string]float64{"token_error": 99}}}})
}

func learningFigure(y string, logX bool) FigureSpec {
	return FigureSpec{Name: "curves", Dataset: "ocr", Task: "sequence", X: XCPUSeconds, Y: y, LogX: logX}
}

// Curves of several splits are aligned on time: at each checkpoint time,
// from the first at which every split has one, each split's last value at
// or before it.
func TestAlignCurves(t *testing.T) {
	pts := func(tv ...float64) []CurvePoint {
		var out []CurvePoint
		for i := 0; i < len(tv); i += 2 {
			out = append(out, CurvePoint{Iteration: i/2 + 1, CPUSeconds: tv[i], Metrics: map[string]float64{"token_error": tv[i+1]}})
		}
		return out
	}
	tokenError := func(p CurvePoint) float64 { return p.Metrics["token_error"] }
	for _, tc := range []struct {
		name           string
		curves         [][]CurvePoint
		wantT, wantM   []float64
		wantStd0, std1 float64 // std at the first and second time
	}{
		{"one split", [][]CurvePoint{pts(1, 30, 2, 20, 4, 10)},
			[]float64{1, 2, 4}, []float64{30, 20, 10}, 0, 0},
		{"same times", [][]CurvePoint{pts(1, 30, 2, 20), pts(1, 40, 2, 10)},
			[]float64{1, 2}, []float64{35, 15}, math.Sqrt(50), math.Sqrt(50)},
		// Split 1 starts at 2: the line starts there; split 0 stops at 3,
		// and holds its final value after.
		{"staggered", [][]CurvePoint{pts(1, 30, 3, 10), pts(2, 40, 5, 20)},
			[]float64{2, 3, 5}, []float64{35, 25, 15}, math.Sqrt(50), math.Sqrt(450)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := alignCurves("x", tc.curves, tokenError)
			if !slices.Equal(s.t, tc.wantT) || !slices.Equal(s.mean, tc.wantM) || s.splits != len(tc.curves) {
				t.Fatalf("times %v means %v (%d splits), want %v %v", s.t, s.mean, s.splits, tc.wantT, tc.wantM)
			}
			if math.Abs(s.std[0]-tc.wantStd0) > 1e-12 || math.Abs(s.std[1]-tc.std1) > 1e-12 {
				t.Errorf("std %v, want %v then %v", s.std, tc.wantStd0, tc.std1)
			}
		})
	}
}

func TestCurveFigure(t *testing.T) {
	trainers := []string{"perceptron", "mira", "crf"}
	for _, tc := range []struct {
		name   string
		splits int
		y      string
		logX   bool
	}{
		{"one split, F1, linear", 1, "span_f1", false},
		{"three splits, accuracy, log", 3, YAccuracy, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			runs := learningRuns(tc.splits, trainers...)
			// The spec lists crf first: the line order follows it.
			order := []string{"crf", "perceptron", "mira"}
			fig, err := buildFigure(runs, learningFigure(tc.y, tc.logX), order)
			if err != nil {
				t.Fatal(err)
			}
			if fig.series != nil || len(fig.curves) != 3 {
				t.Fatalf("%d bar series, %d curves; want 0 and 3", len(fig.series), len(fig.curves))
			}
			for i, s := range fig.curves {
				if s.trainer != order[i] || s.splits != tc.splits {
					t.Errorf("curve %d is %s of %d splits, want %s of %d", i, s.trainer, s.splits, order[i], tc.splits)
				}
				if (s.band != nil) != (tc.splits > 1) || (s.points != nil) != (tc.splits == 1) {
					t.Errorf("%s: band %v, markers %v with %d splits", s.trainer, s.band != nil, s.points != nil, tc.splits)
				}
				for j := range s.t {
					x, y := s.line.XY(j)
					if x != s.t[j] || y != s.mean[j] {
						t.Errorf("%s point %d drawn at (%v, %v), want (%v, %v)", s.trainer, j, x, y, s.t[j], s.mean[j])
					}
				}
			}
			if tc.splits == 1 {
				// One split: the checkpoints themselves.
				crf := fig.curves[0]
				want := runs[2*tc.splits].Curve // crf is the third trainer
				if len(crf.t) != len(want) {
					t.Fatalf("%d points, want the %d checkpoints", len(crf.t), len(want))
				}
				for j, p := range want {
					if crf.t[j] != p.CPUSeconds || crf.mean[j] != p.Metrics["span_f1"] {
						t.Errorf("point %d (%v, %v), want checkpoint (%v, %v)", j, crf.t[j], crf.mean[j], p.CPUSeconds, p.Metrics["span_f1"])
					}
				}
			}
			_, isLog := fig.plot.X.Scale.(plot.LogScale)
			if isLog != tc.logX || (!tc.logX && fig.plot.X.Min != 0) {
				t.Errorf("log x %v (min %v), want %v", isLog, fig.plot.X.Min, tc.logX)
			}
			texts, _ := drawn(t, fig)
			for _, want := range []string{"crf", "mira", "perceptron", "ocr/sequence: " + map[string]string{"span_f1": "span F1", YAccuracy: "accuracy"}[tc.y] + " against training time"} {
				if !slices.ContainsFunc(texts, func(fs *recorder.FillString) bool { return fs.String == want }) {
					t.Errorf("no text %q drawn", want)
				}
			}
			band := slices.ContainsFunc(texts, func(fs *recorder.FillString) bool { return strings.HasPrefix(fs.String, "±1 std") })
			if band != (tc.splits > 1) {
				t.Errorf("band note drawn: %v, with %d splits", band, tc.splits)
			}
			if got := fig.caption(); strings.HasPrefix(got, "One split") != (tc.splits == 1) {
				t.Errorf("caption %q", got)
			}
		})
	}
}

func TestCurveFigureErrors(t *testing.T) {
	without := learningRuns(2, "crf")
	without[1].Curve = nil
	zero := learningRuns(1, "crf")
	zero[0].Curve[0].CPUSeconds = 0
	fractions := learningRuns(2, "crf")
	fractions[1].TrainFraction = 0.5
	dup := learningRuns(1, "crf")
	dup = append(dup, dup[0])
	for _, tc := range []struct {
		name string
		runs []Run
		f    FigureSpec
		want string
	}{
		{"no curve", without, learningFigure("token_error", false), "has no learning curve"},
		{"no CPU time", zero, learningFigure("token_error", true), "CPU time must be positive"},
		{"two fractions", fractions, learningFigure("token_error", false), "one training fraction"},
		{"duplicate split", dup, learningFigure("token_error", false), "are both crf split 0"},
		{"no runs", learningRuns(1, "crf"), FigureSpec{Name: "c", Dataset: "cora", Task: "sequence", X: XCPUSeconds, Y: "span_f1"}, "no runs"},
		{"a time on y", learningRuns(1, "crf"), learningFigure(YCPUSeconds, false), "not a time"},
		{"baseline", learningRuns(1, "crf"), FigureSpec{Name: "c", Dataset: "ocr", Task: "sequence", X: XCPUSeconds, Y: "span_f1", Baseline: "crf"}, "no baseline"},
		{"log x elsewhere", learningRuns(1, "crf"), FigureSpec{Name: "c", Dataset: "ocr", Task: "sequence", X: XTrainFraction, Y: "span_f1", LogX: true}, "log_x is for x"},
		{"segment error of a sequence task", learningRuns(1, "crf"), learningFigure("segment_error", false), "a checkpoint (iteration 1) without it"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := buildFigure(tc.runs, tc.f, nil)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

// A report with a learning-curve figure writes its files and shows it in
// index.html with its caption; runs.jsonl keeps the curves, and runs
// written before curves existed still load.
func TestWriteAllCurveFigure(t *testing.T) {
	dir := t.TempDir()
	runs := learningRuns(3, "perceptron", "crf")
	spec := Spec{Title: "curves", Trainers: []string{"perceptron", "crf"}, Figures: []FigureSpec{learningFigure(YAccuracy, true)}}
	if err := WriteAll(dir, runs[:len(runs)-1], spec); err != nil {
		t.Fatal(err)
	}
	checkFigureFiles(t, dir, "curves")
	index, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"curves.png", "Lines are means over 3 splits", "data:image/png;base64,"} {
		if !strings.Contains(string(index), want) {
			t.Errorf("index.html lacks %q", want)
		}
	}

	var buf strings.Builder
	if err := WriteRuns(&buf, runs); err != nil {
		t.Fatal(err)
	}
	back, _, err := ReadRuns(strings.NewReader(buf.String()+`{"key":"old","dataset":"ocr","task":"sequence","trainer":"crf","params":{},"selection":null,"split":9,"train_fraction":0,"train_size":1,"test_size":1,"token_error":1,"span_f1":1,"train_seconds":1,"iterations":1,"constraints":0,"primal":0,"dual":0,"gap":0}`+"\n"), "runs.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(back) != len(runs)+1 || !reflect.DeepEqual(back[0].Curve, runs[0].Curve) || back[len(back)-1].Curve != nil {
		t.Errorf("curves did not survive runs.jsonl: %v", back[0].Curve)
	}
}

func TestTimeTicks(t *testing.T) {
	for _, tc := range []struct {
		lo, hi float64
		want   []string // the labelled ticks
	}{
		{0.15, 1.2, []string{"0.2", "0.5", "1"}},
		{0.9, 300, []string{"1", "2", "5", "10", "20", "50", "100", "200"}},
		{0.05, 400, []string{"0.1", "1", "10", "100"}},
		{3, 4, nil},
		{0, 10, nil},
	} {
		var got []string
		for _, tick := range (timeTicks{}).Ticks(tc.lo, tc.hi) {
			if tick.Value < tc.lo || tick.Value > tc.hi {
				t.Errorf("[%v, %v]: tick at %v", tc.lo, tc.hi, tick.Value)
			}
			if tick.Label != "" {
				got = append(got, tick.Label)
			}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("[%v, %v]: labels %q, want %q", tc.lo, tc.hi, got, tc.want)
		}
	}
}
