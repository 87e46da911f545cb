package experiments

import (
	"fmt"
	"path/filepath"

	"github.com/maxmargin/repro/experiments/config"
	"github.com/maxmargin/repro/experiments/store"
)

// Stored reports, for each unit of plan (cfg's plan, written to
// opt.OutDir), whether its result is in the store, as Run would find it:
// a valid file under units/ (from any code version). A test unit whose C
// validation chooses counts as stored when its group's validation units
// and any grid extensions they call for are stored, and so is the test
// unit with the C they choose. Nothing is computed and no lock is taken,
// so it can run while units are being computed elsewhere; a unit that is
// being computed counts as missing.
//
// This is what a cluster submission resubmits (the missing units) and
// what tells a collecting run that it will compute nothing.
func Stored(cfg *config.Config, plan []PlannedUnit, opt Options) ([]bool, error) {
	opt = opt.WithDefaults(cfg)
	r := &runner{cfg: cfg, opt: opt, cache: store.Cache{Dir: filepath.Join(opt.OutDir, "units")}}
	// An invalid file counts as missing: Run would recompute it (and
	// say why when it does).
	have := func(key string) (unitResult, bool) {
		res, _, err := r.cache.Load(key)
		return res, err == nil
	}
	out := make([]bool, len(plan))
	for i, p := range plan {
		if p.Index != i {
			return nil, fmt.Errorf("plan line %d has index %d", i+1, p.Index)
		}
		if !p.CFromValidation {
			_, out[i] = have(p.Key)
			continue
		}
		ok, err := r.testStored(plan, p, have)
		if err != nil {
			return nil, err
		}
		out[i] = ok
	}
	return out, nil
}

// testStored reports whether the test unit p, whose C validation chooses,
// is in the store, choosing C from the stored validation units as chooseC
// does (grid extensions included) without computing any.
func (r *runner) testStored(plan []PlannedUnit, p PlannedUnit, have func(string) (unitResult, bool)) (bool, error) {
	var units []unitSpec
	results := map[int]unitResult{}
	add := func(u unitSpec, key string) (bool, error) {
		res, ok := have(key)
		if !ok {
			return false, nil
		}
		results[len(units)] = res
		units = append(units, u)
		return true, nil
	}
	for _, i := range p.DependsOn {
		if i < 0 || i >= len(plan) {
			return false, fmt.Errorf("plan unit %d depends on unit %d, outside the plan", p.Index, i)
		}
		if ok, err := add(plan[i].Spec, plan[i].Key); !ok {
			return false, err
		}
	}
	for {
		extra := r.gridExtensions(units, results)
		if len(extra) == 0 {
			break
		}
		for _, u := range extra {
			if ok, err := add(u, u.Key()); !ok {
				return false, err
			}
		}
	}
	chosen, _ := selectParams(units, results, r.cfg.SelectionMetric)
	c, ok := chosen[p.Group]
	if !ok {
		return false, nil
	}
	u := p.Spec
	u.C = c
	_, ok = have(u.Key())
	return ok, nil
}
