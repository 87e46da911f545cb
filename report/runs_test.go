package report

import (
	"bytes"
	"errors"
	"io/fs"
	"maps"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestWriteReadRunsRoundTrip(t *testing.T) {
	t.Parallel()
	runs := fixtureRuns()
	var buf bytes.Buffer
	if err := WriteRuns(&buf, runs); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != len(runs) {
		t.Fatalf("wrote %d lines for %d runs", len(lines), len(runs))
	}
	if !strings.HasPrefix(lines[0], `{"key":"cora-sequence-margin-3","dataset":"cora",`) {
		t.Errorf("first line = %s; want compact JSON of the first run", lines[0])
	}
	got, warnings, err := ReadRuns(&buf, "runs.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(warnings) != 0 {
		t.Errorf("warnings = %v", warnings)
	}
	if !reflect.DeepEqual(got, runs) {
		t.Errorf("round trip changed the runs:\ngot  %+v\nwant %+v", got, runs)
	}
}

func TestReadRuns(t *testing.T) {
	t.Parallel()
	const (
		good1 = `{"key":"a","dataset":"cora","task":"sequence","trainer":"margin","split":0,"token_error":12.5}`
		good2 = `{"key":"b","dataset":"cora","task":"sequence","trainer":"margin","split":1,"token_error":11}`
		torn  = `{"key":"c","dataset":"cora","task":"seq`
	)
	for _, tc := range []struct {
		name         string
		input        string
		wantKeys     []string
		wantWarnLine int    // 0: no warning
		wantErrLine  int    // 0: no error
		wantErr      string // substring of the error
	}{
		{name: "two lines", input: good1 + "\n" + good2 + "\n", wantKeys: []string{"a", "b"}},
		{name: "unterminated but complete last line", input: good1 + "\n" + good2, wantKeys: []string{"a", "b"}},
		{name: "blank lines ignored", input: "\n" + good1 + "\n\n  \n" + good2 + "\n\n", wantKeys: []string{"a", "b"}},
		{name: "empty", input: "", wantKeys: nil},
		{name: "torn last line", input: good1 + "\n" + good2 + "\n" + torn, wantKeys: []string{"a", "b"}, wantWarnLine: 3},
		{name: "bad middle line", input: good1 + "\n" + torn + "\n" + good2 + "\n", wantErrLine: 2, wantErr: "runs.jsonl:2: decoding run"},
		{name: "bad terminated last line", input: good1 + "\n" + torn + "\n", wantErrLine: 2, wantErr: "runs.jsonl:2:"},
		{name: "unknown field", input: good1 + "\n" + `{"key":"x","accuracy":0.9}` + "\n", wantErrLine: 2, wantErr: `unknown field "accuracy"`},
		{name: "two objects on a line", input: good1 + good2 + "\n", wantErrLine: 1, wantErr: "trailing data"},
		{name: "wrong type", input: `{"split":"zero"}` + "\n", wantErrLine: 1, wantErr: "runs.jsonl:1:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			runs, warnings, err := ReadRuns(strings.NewReader(tc.input), "runs.jsonl")
			if tc.wantErrLine != 0 {
				var le *LineError
				if !errors.As(err, &le) || le.Line != tc.wantErrLine || le.Name != "runs.jsonl" {
					t.Fatalf("err = %v; want a LineError at runs.jsonl:%d", err, tc.wantErrLine)
				}
				if !strings.Contains(err.Error(), tc.wantErr) {
					t.Errorf("err = %v; want it to contain %q", err, tc.wantErr)
				}
				if runs != nil {
					t.Errorf("runs = %v; want none on error", runs)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var keys []string
			for _, r := range runs {
				keys = append(keys, r.Key)
			}
			if !reflect.DeepEqual(keys, tc.wantKeys) {
				t.Errorf("keys = %q; want %q", keys, tc.wantKeys)
			}
			if tc.wantWarnLine == 0 {
				if len(warnings) != 0 {
					t.Errorf("warnings = %v; want none", warnings)
				}
				return
			}
			var le *LineError
			if len(warnings) != 1 || !errors.As(warnings[0], &le) || le.Line != tc.wantWarnLine {
				t.Fatalf("warnings = %v; want one LineError at line %d", warnings, tc.wantWarnLine)
			}
			if want := "runs.jsonl:3: skipping torn last line"; !strings.HasPrefix(warnings[0].Error(), want) {
				t.Errorf("warning = %q; want prefix %q", warnings[0], want)
			}
		})
	}
}

func TestReadRunsFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "runs.jsonl")
	var buf bytes.Buffer
	if err := WriteRuns(&buf, fixtureRuns()[:2]); err != nil {
		t.Fatal(err)
	}
	buf.WriteString(`{"key":"torn`)
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	runs, warnings, err := ReadRunsFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 2 || len(warnings) != 1 || !strings.HasPrefix(warnings[0].Error(), path+":3:") {
		t.Errorf("got %d runs, warnings %v; want 2 runs and a warning at %s:3", len(runs), warnings, path)
	}

	_, _, err = ReadRunsFile(filepath.Join(dir, "missing.jsonl"))
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("err = %v; want one wrapping fs.ErrNotExist", err)
	}
}

func TestWriteRunsError(t *testing.T) {
	t.Parallel()
	err := WriteRuns(failingWriter{}, fixtureRuns())
	if !errors.Is(err, errWriteFailed) {
		t.Errorf("err = %v; want one wrapping errWriteFailed", err)
	}
	// JSON has no NaN: the run is named and nothing is written.
	var buf bytes.Buffer
	err = WriteRuns(&buf, []Run{{Key: "ok"}, {Key: "bad", Gap: math.NaN()}})
	if err == nil || !strings.Contains(err.Error(), `run 1 (key "bad")`) {
		t.Errorf("err = %v; want one naming run 1", err)
	}
}

// failingWriter fails every write with errWriteFailed.
type failingWriter struct{}

var errWriteFailed = errors.New("write failed")

func (failingWriter) Write([]byte) (int, error) { return 0, errWriteFailed }

// Records from before metrics were data hold token_error, span_f1 and
// segment_error as fields of the run, its candidates and its curve points;
// they read into the metrics map under the names the task gives them.
func TestReadRunsLegacyMetrics(t *testing.T) {
	t.Parallel()
	lines := `{"key":"a","dataset":"cora","task":"segmentation","trainer":"margin","params":{"C":1},"selection":[{"params":{"C":1},"token_error":6,"span_f1":88,"train_seconds":1}],"split":0,"train_fraction":0.25,"train_size":1,"test_size":1,"token_error":6.5,"span_f1":88.5,"segment_error":10.25,"train_seconds":3,"iterations":4,"constraints":5,"primal":6,"dual":7,"gap":8,"curve":[{"iteration":1,"cpu_seconds":0.5,"token_error":9,"span_f1":80,"segment_error":12}]}
{"key":"b","dataset":"swedish","task":"parsing","trainer":"margin","params":{"C":1},"selection":[{"params":{"C":1},"token_error":22.5,"span_f1":68,"train_seconds":1}],"split":0,"train_fraction":1,"train_size":1,"test_size":1,"token_error":21.5,"span_f1":69.5,"train_seconds":3,"iterations":4,"constraints":5,"primal":6,"dual":7,"gap":8}
`
	runs, _, err := ReadRuns(strings.NewReader(lines), "old.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	want := []struct{ run, candidate, point map[string]float64 }{
		{map[string]float64{"token_error": 6.5, "span_f1": 88.5, "segment_error": 10.25},
			map[string]float64{"token_error": 6, "span_f1": 88},
			map[string]float64{"token_error": 9, "span_f1": 80, "segment_error": 12}},
		// Parsing's token_error was its attachment error; its span F1
		// meant nothing and is dropped.
		{map[string]float64{"attachment_error": 21.5}, map[string]float64{"attachment_error": 22.5}, nil},
	}
	for i, w := range want {
		r := runs[i]
		if !maps.Equal(r.Metrics, w.run) || !maps.Equal(r.Selection[0].Metrics, w.candidate) {
			t.Errorf("run %s: metrics %v, candidate %v; want %v, %v", r.Key, r.Metrics, r.Selection[0].Metrics, w.run, w.candidate)
		}
		if w.point != nil && !maps.Equal(r.Curve[0].Metrics, w.point) {
			t.Errorf("run %s: curve point %v, want %v", r.Key, r.Curve[0].Metrics, w.point)
		}
	}
	// Written back, they are in this code's form and read back equal.
	var buf bytes.Buffer
	if err := WriteRuns(&buf, runs); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), `"token_error":`) && !strings.Contains(buf.String(), `"metrics":{`) {
		t.Errorf("written in the old form: %s", buf.String())
	}
	back, _, err := ReadRuns(&buf, "new.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	for i := range runs {
		if d, err := Diff(runs[i], back[i]); err != nil || len(d) > 0 {
			t.Errorf("run %s changed on a round trip: %v %v", runs[i].Key, d, err)
		}
	}
	// An unknown field is still an error, old or new.
	if _, _, err := ReadRuns(strings.NewReader(`{"key":"c","task":"sequence","token_eror":1}`+"\n"), "bad.jsonl"); err == nil {
		t.Error("a misspelt field was accepted")
	}
}
