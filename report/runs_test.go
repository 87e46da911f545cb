package report

import (
	"bytes"
	"errors"
	"io/fs"
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
