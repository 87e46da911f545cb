package experiments

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// The progress total covers both phases from the first line on.
func TestRunProgressCoversTheWholeRun(t *testing.T) {
	t.Parallel()
	var log bytes.Buffer
	if _, err := Run(context.Background(), mustConfig(t, smallConfig), Options{OutDir: t.TempDir(), Workers: 1, Progress: &log}); err != nil {
		t.Fatal(err)
	}
	first, _, _ := strings.Cut(log.String(), "\n")
	if !strings.Contains(first, "validation: units 1/12 ") { // 8 validation + 4 test units
		t.Errorf("first progress line %q, want units 1/12", first)
	}
	if !strings.Contains(log.String(), "test: units 12/12 ") || !strings.Contains(log.String(), "ETA done") {
		t.Errorf("last progress line missing:\n%s", log.String())
	}
}
