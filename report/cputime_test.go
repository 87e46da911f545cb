package report

import (
	"bytes"
	"encoding/csv"
	"math"
	"slices"
	"strings"
	"testing"
)

// withCPU returns curveRuns with CPU times (twice the wall-clock time,
// as with two busy threads) on the runs for which keep is true.
func withCPU(keep func(i int) bool) []Run {
	runs := curveRuns()
	for i := range runs {
		if keep(i) {
			runs[i].CPUSeconds = 2 * runs[i].TrainSeconds
		}
	}
	return runs
}

func TestFigureTime(t *testing.T) {
	all := func(int) bool { return true }
	some := func(i int) bool { return i%2 == 0 }
	none := func(int) bool { return false }
	for _, tc := range []struct {
		name     string
		runs     []Run
		y        string
		baseline string
		label    string
		factor   float64 // plotted mean / mean wall-clock time
		err      string
	}{
		{"CPU times", withCPU(all), YTrainSeconds, "", "CPU time (s)", 2, ""},
		{"some CPU times", withCPU(some), YTrainSeconds, "", "wall-clock time (s)", 1, ""},
		{"old runs", withCPU(none), YTrainSeconds, "", "training time (s)", 1, ""},
		{"cpu_seconds", withCPU(all), YCPUSeconds, "", "CPU time (s)", 2, ""},
		{"cpu_seconds, some missing", withCPU(some), YCPUSeconds, "", "", 0, "have no CPU time"},
		{"CPU difference", withCPU(all), YTrainSeconds, "margin", "CPU time − margin (s)", 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := curveFigure(tc.y)
			f.Baseline = tc.baseline
			fig, err := buildFigure(tc.runs, f, curveTrainers())
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one containing %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := fig.plot.Y.Label.Text; got != tc.label {
				t.Errorf("Y label %q, want %q", got, tc.label)
			}
			if fig.plot.Y.Min > 0 {
				t.Errorf("time axis starts at %v, want 0 or below", fig.plot.Y.Min)
			}
			if tc.factor == 0 {
				return
			}
			s := fig.series[0] // margin
			var wall []float64
			for _, r := range tc.runs {
				if r.Dataset == "cora" && r.Trainer == s.trainer && r.TrainFraction == 0.1 {
					wall = append(wall, r.TrainSeconds)
				}
			}
			mean, _ := naiveMeanStd(wall)
			if got := s.data.XYs[0].Y; math.Abs(got-tc.factor*mean) > 1e-9 {
				t.Errorf("margin at 10%% = %v, want %v × wall-clock mean %v", got, tc.factor, mean)
			}
		})
	}
}

func TestTableTime(t *testing.T) {
	for _, tc := range []struct {
		name     string
		keep     func(int) bool
		header   []string // time columns of the cost table
		csv      bool     // a cpu_seconds column
		cpuValue float64  // margin at 0.1, first row
	}{
		{"CPU times", func(int) bool { return true }, []string{"CPU s", "wall s"}, true, 2},
		{"some CPU times", func(i int) bool { return i > 0 }, []string{"wall s"}, false, 0},
		{"old runs", func(int) bool { return false }, []string{"train seconds"}, false, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tab, err := Summarize(withCPU(tc.keep), Options{Trainers: curveTrainers()})
			if err != nil {
				t.Fatal(err)
			}
			head, body := tab.costGrid(identity)
			nKey := len(tab.keyHeader()) + 2 // key, trainer, n
			if got := head[nKey : len(head)-2]; !slices.Equal(got, tc.header) {
				t.Errorf("time columns %q, want %q", got, tc.header)
			}
			var row []string
			for _, line := range body {
				if line[0] == "sequence" && line[1] == "cora" && line[2] == "0.1" && line[3] == "margin" {
					row = line
				}
			}
			c := tab.Rows[slices.IndexFunc(tab.Rows, func(r Row) bool { return r.Dataset == "cora" && r.TrainFraction == 0.1 })].Cells[0]
			if len(tc.header) == 2 {
				if want := []string{formatSeconds(c.CPUSeconds), formatSeconds(c.TrainSeconds)}; !slices.Equal(row[nKey:nKey+2], want) {
					t.Errorf("margin times %q, want %q", row[nKey:nKey+2], want)
				}
			}
			if got, want := c.CPUSeconds, tc.cpuValue*c.TrainSeconds; math.Abs(got-want) > 1e-9 {
				t.Errorf("margin CPU seconds %v, want %v", got, want)
			}
			var buf bytes.Buffer
			if err := tab.WriteCSV(&buf); err != nil {
				t.Fatal(err)
			}
			recs, err := csv.NewReader(&buf).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			if got := slices.Contains(recs[0], "cpu_seconds"); got != tc.csv {
				t.Errorf("CSV header %q: cpu_seconds column %v, want %v", recs[0], got, tc.csv)
			}
		})
	}
}

// A runs.jsonl line from before CPU times reads and writes back byte for
// byte: the field is omitted when zero.
func TestRunWithoutCPUSecondsRoundTrip(t *testing.T) {
	line := `{"key":"k","dataset":"cora","task":"sequence","trainer":"margin","params":{"C":1},"selection":null,"split":0,"train_fraction":0.25,"train_size":1,"test_size":1,"metrics":{"span_f1":2,"token_error":1},"train_seconds":3,"iterations":4,"constraints":5,"primal":6,"dual":7,"gap":8}` + "\n"
	runs, _, err := ReadRuns(strings.NewReader(line), "old.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteRuns(&buf, runs); err != nil {
		t.Fatal(err)
	}
	if buf.String() != line {
		t.Errorf("wrote\n%s\nwant\n%s", buf.String(), line)
	}
	runs[0].CPUSeconds = 2.5
	buf.Reset()
	if err := WriteRuns(&buf, runs); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `"train_seconds":3,"cpu_seconds":2.5,`) {
		t.Errorf("CPU time not written after train_seconds: %s", buf.String())
	}
}

// The cost table shows each cell's largest peak memory when every run has
// one, and no memory column otherwise (old runs render as before).
func TestCostTablePeakMemory(t *testing.T) {
	runs := curveRuns()
	for i := range runs {
		runs[i].PeakMiB = float64(100 + i)
	}
	tab, err := Summarize(runs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := tab.WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "peak MiB") {
		t.Fatalf("no peak memory column:\n%s", buf.String())
	}
	for _, row := range tab.Rows {
		for _, c := range row.Cells {
			most := 0.0
			for _, r := range runs {
				if r.Trainer == c.Trainer && r.Task == row.Task && r.Dataset == row.Dataset && r.TrainFraction == row.TrainFraction {
					most = math.Max(most, r.PeakMiB)
				}
			}
			if c.N > 0 && c.PeakMiB != most {
				t.Errorf("%s %s: peak %v, want the largest %v", row.Label, c.Trainer, c.PeakMiB, most)
			}
		}
	}
	runs[0].PeakMiB = 0
	if tab, err = Summarize(runs, Options{}); err != nil {
		t.Fatal(err)
	}
	buf.Reset()
	if err := tab.WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "peak MiB") {
		t.Error("a memory column although one run has no peak memory")
	}
}
