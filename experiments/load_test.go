package experiments

import (
	"context"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/maxmargin/repro/experiments/config"
)

// twoDataLoaded loads twoDataConfig's datasets twice: with their features
// (prepare) and without (load, lazily), and returns the config and options
// too.
func twoDataLoaded(t *testing.T) (cfg *config.Config, opt Options, eager, lazy []*preparedData) {
	t.Helper()
	cfg = configFile(t, twoDataConfig)
	opt = Options{OutDir: t.TempDir(), DataDir: twoDataFile(t)}
	var err error
	if eager, err = prepare(context.Background(), cfg, opt); err != nil {
		t.Fatal(err)
	}
	if lazy, err = load(context.Background(), cfg, opt, false); err != nil {
		t.Fatal(err)
	}
	return cfg, opt, eager, lazy
}

// A process that runs single units (openRunner: repro unit, repro plan)
// extracts no dataset's features until a unit asks for them, then exactly
// the features an eager prepare extracts; a dataset released for another's
// unit refuses to extract rather than hand out empty features.
func TestFeaturesExtractedOnDemand(t *testing.T) {
	t.Parallel()
	cfg, opt, eager, _ := twoDataLoaded(t)
	r, err := openRunner(context.Background(), cfg, opt, dispatchUnit)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.data) != len(eager) || len(r.data) != 2 {
		t.Fatalf("openRunner loaded %d datasets, prepare %d; want 2", len(r.data), len(eager))
	}
	for i, d := range r.data {
		if d.attrs != nil || d.pending == nil {
			t.Errorf("dataset %s: features extracted before any unit asked (%d sequences' attributes)", d.name, len(d.attrs))
		}
		if d.hash != eager[i].hash || len(d.seqs) != len(eager[i].seqs) {
			t.Errorf("dataset %s: loaded lazily, hash %s and %d sequences; eagerly %s and %d", d.name, d.hash, len(d.seqs), eager[i].hash, len(eager[i].seqs))
		}
	}
	lazy := r.data[1]
	for range 2 { // the second call finds them extracted
		if err := lazy.ensureFeatures(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if len(lazy.attrs) == 0 || !reflect.DeepEqual(lazy.attrs, eager[1].attrs) {
		t.Errorf("dataset %s: features extracted on demand differ from prepare's (%d and %d sequences)", lazy.name, len(lazy.attrs), len(eager[1].attrs))
	}
	if r.data[0].attrs != nil {
		t.Errorf("extracting dataset %s extracted %s's too", lazy.name, r.data[0].name)
	}

	r.releaseOthers(lazy.name)
	err = r.data[0].ensureFeatures(context.Background())
	if err == nil || !strings.Contains(err.Error(), "released") {
		t.Errorf("a released dataset's features: error %v, want one saying it was released", err)
	}
	if err := lazy.ensureFeatures(context.Background()); err != nil || lazy.attrs == nil {
		t.Errorf("the kept dataset after releaseOthers: error %v, %d sequences' attributes", err, len(lazy.attrs))
	}
}

// cancelledAfter is a context that reports itself cancelled from its n-th
// Err call on: extract checks it once a sequence, so it stops part way.
type cancelledAfter struct {
	context.Context
	n int
}

func (c *cancelledAfter) Err() error {
	if c.n--; c.n < 0 {
		return context.Canceled
	}
	return nil
}

// An extraction cancelled part way is not taken as done, and what it left
// is not kept: the next call extracts the features in full.
func TestFeaturesExtractionCancelledThenResumed(t *testing.T) {
	t.Parallel()
	_, _, eager, data := twoDataLoaded(t)
	d := data[1]
	if err := d.ensureFeatures(&cancelledAfter{Context: context.Background(), n: 5}); err == nil {
		t.Fatal("extraction under a context cancelled part way succeeded")
	}
	if len(d.attrs) == 0 || len(d.attrs) >= len(eager[1].attrs) {
		t.Fatalf("the cancelled extraction left %d of %d sequences' attributes; the test wants it stopped part way", len(d.attrs), len(eager[1].attrs))
	}
	if err := d.ensureFeatures(context.Background()); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(d.attrs, eager[1].attrs) {
		t.Errorf("features after a cancelled extraction differ from prepare's (%d and %d sequences)", len(d.attrs), len(eager[1].attrs))
	}
}

// Units of one dataset that start together (the local executor's workers)
// extract its features once and all see them whole (go test -race checks
// the locking).
func TestFeaturesExtractedOnceUnderConcurrency(t *testing.T) {
	t.Parallel()
	_, _, _, data := twoDataLoaded(t)
	d := data[1]
	extractions := 0
	extract := d.pending
	d.pending = func(ctx context.Context) error { extractions++; return extract(ctx) }
	var wg sync.WaitGroup
	sizes := make([]int, 8)
	for i := range sizes {
		wg.Go(func() {
			if err := d.ensureFeatures(context.Background()); err != nil {
				t.Error(err)
				return
			}
			sizes[i] = len(d.attrs)
		})
	}
	wg.Wait()
	if extractions != 1 {
		t.Errorf("%d extractions, want 1", extractions)
	}
	for i, n := range sizes {
		if n != len(d.seqs) {
			t.Errorf("worker %d saw %d sequences' attributes of %d", i, n, len(d.seqs))
		}
	}
}
