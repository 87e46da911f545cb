package experiments

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/maxmargin/repro/experiments/config"
	"github.com/maxmargin/repro/experiments/progress"
	"github.com/maxmargin/repro/experiments/store"
	"github.com/maxmargin/repro/internal/atomicfile"
	"github.com/maxmargin/repro/internal/readlimit"
	"github.com/maxmargin/repro/trainers"
)

// PlanFile is the plan's file name in an output directory; the store its
// units go to is the units/ directory beside it.
const PlanFile = "plan.jsonl"

// PlannedUnit is one line of plan.jsonl: a unit, where its result goes, and
// which units must be done before it can run.
type PlannedUnit struct {
	// Index is the unit's line number in the plan, from 0: validation units
	// first, then one test unit per selection group.
	Index int    `json:"index"`
	Phase string `json:"phase"` // "validate" or "test"
	// Key names the unit's result, units/<key>.json. It is empty for a test
	// unit whose C its validation units choose: its key is known only then.
	Key string `json:"key,omitempty"`
	// Group is the selection group (dataset|task|trainer|fraction|split):
	// a test unit's C is chosen among its group's validation units.
	Group string `json:"group"`
	// Label is the config entry's label, when it has one.
	Label string `json:"label,omitempty"`
	// Threads is the entry's threads when more than one: how the unit
	// runs, not what it computes, so it is not in Spec (whose hash is Key).
	Threads int `json:"threads,omitempty"`
	// CFromValidation marks a test unit whose C validation chooses; its
	// spec's C is 0 until then.
	CFromValidation bool `json:"C_from_validation,omitempty"`
	// DependsOn lists the indices of the units that must be in the store
	// before this one runs (a test unit's validation units).
	DependsOn []int `json:"depends_on,omitempty"`
	// Config is the config file, relative to the plan's directory (or
	// absolute), and ConfigSHA256 its content's hash when planned.
	Config       string `json:"config"`
	ConfigSHA256 string `json:"config_sha256"`
	// Spec is everything the unit's result depends on; its hash is Key.
	Spec unitSpec `json:"spec"`
}

// Plan lists every unit of cfg as plan.jsonl describes them, loading the
// data (the unit keys hold a hash of it). The list is what Run computes,
// in Run's order, except for grid extensions (GridSpec): those depend on
// validation results, so a plan lists the base grids, and `repro unit` on
// a test unit validates its group's extensions itself (see RunUnit).
// dir is the directory the plan is written to (Options.OutDir, default
// results/<name>); config paths in the plan are relative to it.
func Plan(ctx context.Context, cfg *config.Config, opt Options) ([]PlannedUnit, error) {
	opt = opt.WithDefaults(cfg)
	r, err := openRunner(ctx, cfg, opt, dispatchUnit)
	if err != nil {
		return nil, err
	}
	return r.planAll(ctx)
}

// WithDefaults fills in the options Run defaults.
func (opt Options) WithDefaults(cfg *config.Config) Options {
	if opt.Workers <= 0 {
		opt.Workers = runtime.NumCPU()
	}
	if opt.OutDir == "" {
		opt.OutDir = filepath.Join("results", cfg.Name)
	}
	return opt
}

// openRunner returns a runner of cfg with its data loaded, for planning or
// running single units: it takes no directory lock (unit locks suffice).
// Features are extracted only for the datasets whose units run (letter
// images' at load, where they are checked).
func openRunner(ctx context.Context, cfg *config.Config, opt Options, train unitFunc) (*runner, error) {
	unsupported, err := cfg.UnsupportedPairs(nil)
	if err != nil {
		return nil, err
	}
	r := newRunner(cfg, opt, store.Cache{Dir: filepath.Join(opt.OutDir, "units")}, train, unsupported)
	r.prog = progress.Warnings(opt.Progress) // warnings only: no status line
	if r.data, err = load(ctx, cfg, opt, false); err != nil {
		return nil, err
	}
	return r, nil
}

// planAll lists the validation units of the base grids, then one test unit
// per selection group, each test unit depending on its group's validation
// units.
func (r *runner) planAll(ctx context.Context) ([]PlannedUnit, error) {
	validation, err := r.plan(ctx, store.PhaseValidate, nil)
	if err != nil {
		return nil, err
	}
	tests, err := r.plan(ctx, store.PhaseTest, anyChoice(validation))
	if err != nil {
		return nil, err
	}
	if err := r.checkParts(validation, tests); err != nil {
		return nil, err
	}
	cfgPath, sum, err := r.configRef()
	if err != nil {
		return nil, err
	}
	byGroup := map[string][]int{}
	var out []PlannedUnit
	add := func(u unitSpec, deps []int) {
		p := PlannedUnit{Index: len(out), Phase: u.Phase, Key: u.Key(), Group: groupOf(u), Config: cfgPath, ConfigSHA256: sum, Spec: u, DependsOn: deps}
		if u.Label != u.Trainer {
			p.Label = u.Label
		}
		if n := u.Threads(); n > 1 {
			p.Threads = n
		}
		if len(deps) > 0 {
			p.CFromValidation, p.Spec.C, p.Key = true, 0, ""
		}
		out = append(out, p)
	}
	for _, u := range validation {
		byGroup[groupOf(u)] = append(byGroup[groupOf(u)], len(out))
		add(u, nil)
	}
	for _, u := range tests {
		add(u, byGroup[groupOf(u)])
	}
	return out, nil
}

// configRef names the config file relative to the output directory (as
// .owner.json does) and hashes its content.
func (r *runner) configRef() (path, sum string, err error) {
	src, err := readlimit.ReadFile(context.Background(), r.cfg.File(), readlimit.ConfigBytes, "config")
	if err != nil {
		return "", "", fmt.Errorf("a plan needs its config file: %w", err)
	}
	o, err := store.OwnerOf(r.opt.OutDir, r.cfg, src)
	if err != nil {
		return "", "", err
	}
	return o.Config, o.SHA256, nil
}

// WritePlan writes units as JSON lines to path, atomically.
func WritePlan(path string, units []PlannedUnit) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	for _, u := range units {
		if err := enc.Encode(u); err != nil {
			return err
		}
	}
	return atomicfile.WriteFile(path, buf.Bytes())
}

// ReadPlan reads a plan written by WritePlan, checking that line i has
// index i (a truncated or hand-merged plan would otherwise run the wrong
// units).
func ReadPlan(path string) ([]PlannedUnit, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("reading plan: %w", err)
	}
	defer f.Close()
	var out []PlannedUnit
	sc := bufio.NewScanner(readlimit.LimitReader(f, readlimit.PlanBytes, path, "plan"))
	sc.Buffer(make([]byte, 64<<10), PlanLineBytes)
	for sc.Scan() {
		var p PlannedUnit
		dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&p); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, len(out)+1, err)
		}
		if p.Index != len(out) {
			return nil, fmt.Errorf("%s:%d: index %d, want %d (the plan was edited or truncated; write it again with repro plan)", path, len(out)+1, p.Index, len(out))
		}
		p.Spec.Label = cmp.Or(p.Label, p.Spec.Trainer)
		if p.Threads > 0 {
			p.Spec.Execution = trainers.Values{trainers.ParamThreads: p.Threads}
		}
		out = append(out, p)
	}
	if err := sc.Err(); errors.Is(err, bufio.ErrTooLong) {
		return nil, fmt.Errorf("%s:%d: a line longer than %s (not a plan repro wrote)", path, len(out)+1, readlimit.Size(PlanLineBytes))
	} else if err != nil {
		return nil, fmt.Errorf("reading plan %s: %w", path, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("plan %s lists no units", path)
	}
	return out, nil
}

// PlanLineBytes bounds one line of a plan (a unit's spec: a few KiB).
const PlanLineBytes = 16 << 20

// LoadPlanConfig loads the config a plan was made from and checks that
// its content is unchanged since.
func LoadPlanConfig(planPath string, p PlannedUnit) (*config.Config, error) {
	path := filepath.FromSlash(p.Config)
	if !filepath.IsAbs(path) {
		path = filepath.Join(filepath.Dir(planPath), path)
	}
	src, err := readlimit.ReadFile(context.Background(), path, readlimit.ConfigBytes, "config")
	if err != nil {
		return nil, fmt.Errorf("the config of plan %s: %w", planPath, err)
	}
	if sum := sha256.Sum256(src); hex.EncodeToString(sum[:]) != p.ConfigSHA256 {
		return nil, fmt.Errorf("config %s changed since plan %s was written; write the plan again (repro plan %s)", path, planPath, path)
	}
	return config.Parse(src, path)
}

// UnitOutcome says what RunUnit did.
type UnitOutcome struct {
	Key, Name string
	// How the result came to be in the store: computed here, found there
	// already, or saved by another worker while this one waited for it.
	Computed, Cached, Reused bool
	// Extensions counts the grid-extension validation units a test unit
	// computed first (see RunUnit).
	Extensions int
}

// RunUnit runs the plan's unit at index into the store beside the plan
// (Options.OutDir is the plan's directory), unless it is there already
// (Options.Force recomputes it). It takes the unit's lock, never the
// directory lock, so any number of RunUnit calls, on any hosts sharing
// the directory, can run beside each other and beside `repro run`.
//
// A test unit whose C validation chooses first reads its group's
// validation units from the store (an error names the missing ones) and
// chooses C as Run does (selectParams). If its trainer extends its grid
// and validation chose an end of it, the extension units (a decade
// further, as Run would try) are validated here first, one after the
// other, and stored, so that Run later finds every unit it needs.
func RunUnit(ctx context.Context, cfg *config.Config, plan []PlannedUnit, index int, opt Options) (UnitOutcome, error) {
	return runPlanned(ctx, cfg, plan, index, opt, func(r *runner, p PlannedUnit) (unitSpec, int, error) {
		u := p.Spec
		if !p.CFromValidation {
			return u, 0, nil
		}
		var err error
		var extensions int
		u.C, extensions, err = r.chooseC(ctx, plan, p)
		return u, extensions, err
	})
}

// RunGridExtension runs one grid-extension validation unit into the store
// beside the plan, as RunUnit runs a planned unit: the unit with trade-off
// c that Run tries next for the selection group of the test unit at index,
// given that group's validation units (and earlier extensions) in the
// store. Extensions are in no plan line, since which ones run depends on
// validation results; naming the group's test line and c lets another
// process (ProcessExecutor's children) compute one, and the check that c
// is the group's next extension keeps units no run asks for out of the
// store.
func RunGridExtension(ctx context.Context, cfg *config.Config, plan []PlannedUnit, index int, c float64, opt Options) (UnitOutcome, error) {
	return runPlanned(ctx, cfg, plan, index, opt, func(r *runner, p PlannedUnit) (unitSpec, int, error) {
		if p.Phase != store.PhaseTest || !p.CFromValidation {
			return unitSpec{}, 0, fmt.Errorf("unit %d is not a test unit whose C validation chooses, so it has no grid extensions", index)
		}
		return r.nextExtension(plan, p, c)
	})
}

// runPlanned checks the plan against the config, picks the unit to run
// from the plan's line index, and runs it (see RunUnit).
func runPlanned(ctx context.Context, cfg *config.Config, plan []PlannedUnit, index int, opt Options, pick func(*runner, PlannedUnit) (unitSpec, int, error)) (UnitOutcome, error) {
	if index < 0 || index >= len(plan) {
		return UnitOutcome{}, fmt.Errorf("unit index %d is outside the plan (0..%d)", index, len(plan)-1)
	}
	opt = opt.WithDefaults(cfg)
	r, err := openRunner(ctx, cfg, opt, dispatchUnit)
	if err != nil {
		return UnitOutcome{}, err
	}
	if err := r.cache.Preflight(); err != nil {
		return UnitOutcome{}, err
	}
	if err := r.checkPlan(ctx, plan, index); err != nil {
		return UnitOutcome{}, err
	}
	r.releaseOthers(plan[index].Spec.Dataset)
	var out UnitOutcome
	u, extensions, err := pick(r, plan[index])
	if err != nil {
		return UnitOutcome{}, err
	}
	out.Extensions = extensions
	out.Key, out.Name = u.Key(), describe(u)
	if _, _, err := r.cache.Load(out.Key); err == nil && !opt.Force {
		out.Cached = true
		return out, nil
	}
	out.Reused, err = r.claimAndRun(ctx, u)
	out.Computed = !out.Reused && err == nil
	return out, err
}

// nextExtension returns the grid-extension unit with trade-off c of p's
// group when it is the next one Run would try: the group's validation
// units and the extensions before it are in the store, and validation
// among them chose the end of the grid that c extends.
func (r *runner) nextExtension(plan []PlannedUnit, p PlannedUnit, c float64) (unitSpec, int, error) {
	units, results, err := r.loadValidation(plan, p)
	if err != nil {
		return unitSpec{}, 0, err
	}
	for {
		extra := r.gridExtensions(units, results)
		if len(extra) == 0 {
			return unitSpec{}, 0, fmt.Errorf("validation of %s chooses a C inside its grid: no grid extension (C = %g) to run", p.Group, c)
		}
		next := extra[0]
		res, _, err := r.cache.Load(next.Key())
		switch {
		case err == nil && next.C != c:
			results[len(units)] = res
			units = append(units, next)
		case next.C == c:
			return next, 0, nil
		default:
			return unitSpec{}, 0, fmt.Errorf("the next grid extension of %s is C = %g, not %g", p.Group, next.C, c)
		}
	}
}

// releaseOthers drops the sequences and features of every dataset but the
// named one: planning needed every dataset's sequences, the unit needs one
// dataset, and a config
// with several large datasets (the CoNLL'03 ablation's two feature sets,
// three treebanks) would otherwise hold them all while it trains.
func (r *runner) releaseOthers(name string) {
	for _, d := range r.data {
		if d.name != name {
			d.release()
		}
	}
}

// checkPlan replans the config and checks that the unit at index is the
// same: a plan from other data or code would otherwise fill the store
// with units no run asks for.
func (r *runner) checkPlan(ctx context.Context, plan []PlannedUnit, index int) error {
	now, err := r.planAll(ctx)
	if err != nil {
		return err
	}
	if len(now) != len(plan) || !samePlanned(now[index], plan[index]) {
		return fmt.Errorf("the plan does not match its config any more (the data or the code changed: it now has %d units, not %d, or unit %d differs); write the plan again with repro plan",
			len(now), len(plan), index)
	}
	return nil
}

// samePlanned reports whether two plan lines describe the same unit.
func samePlanned(a, b PlannedUnit) bool {
	ja, erra := json.Marshal(a.Spec)
	jb, errb := json.Marshal(b.Spec)
	return erra == nil && errb == nil && bytes.Equal(ja, jb) && a.Key == b.Key && a.Label == b.Label && a.Threads == b.Threads && slices.Equal(a.DependsOn, b.DependsOn)
}

// chooseC returns the C that the validation units of p's group choose,
// reading them from the store and validating grid extensions where the
// trainer asks for them.
func (r *runner) chooseC(ctx context.Context, plan []PlannedUnit, p PlannedUnit) (c float64, extensions int, err error) {
	units, results, err := r.loadValidation(plan, p)
	if err != nil {
		return 0, 0, err
	}
	for {
		extra := r.gridExtensions(units, results)
		if len(extra) == 0 {
			break
		}
		for _, u := range extra {
			computed, err := r.ensure(ctx, u)
			if err != nil {
				return 0, extensions, fmt.Errorf("grid extension %s: %w", describe(u), err)
			}
			if computed {
				extensions++
			}
			res, _, err := r.cache.Load(u.Key())
			if err != nil {
				return 0, extensions, err
			}
			results[len(units)] = res
			units = append(units, u)
		}
	}
	chosen, _ := selectParams(units, results, r.cfg.SelectionMetric)
	c, ok := chosen[p.Group]
	if !ok {
		return 0, extensions, errors.New("no validation result chose a C") // unreachable: every dependency loaded
	}
	return c, extensions, nil
}

// loadValidation reads the validation units the test unit p depends on
// from the store; an error names those that are missing.
func (r *runner) loadValidation(plan []PlannedUnit, p PlannedUnit) ([]unitSpec, map[int]unitResult, error) {
	var units []unitSpec
	results := map[int]unitResult{}
	var missing []string
	for _, i := range p.DependsOn {
		d := plan[i]
		res, _, err := r.cache.Load(d.Key)
		if err != nil {
			missing = append(missing, fmt.Sprintf("%d (%s: %v)", i, r.cache.Path(d.Key), err))
			continue
		}
		results[len(units)] = res
		units = append(units, d.Spec)
	}
	if len(missing) > 0 {
		return nil, nil, fmt.Errorf("test unit %d needs its validation units in the store first; not usable: %s (run them with repro unit --index)", p.Index, strings.Join(missing, ", "))
	}
	return units, results, nil
}

// ensure puts u in the store unless it is there, and reports whether it
// computed u (rather than found it, or reused another worker's result).
func (r *runner) ensure(ctx context.Context, u unitSpec) (computed bool, err error) {
	if _, _, err := r.cache.Load(u.Key()); err == nil {
		return false, nil
	}
	reused, err := r.claimAndRun(ctx, u)
	return err == nil && !reused, err
}

// DescribePlan summarises a plan for people: units per phase.
func DescribePlan(plan []PlannedUnit) string {
	n := map[string]int{}
	for _, p := range plan {
		n[p.Phase]++
	}
	return fmt.Sprintf("%d units (%d validation, %d test)", len(plan), n[store.PhaseValidate], n[store.PhaseTest])
}

// IndexOf returns the index of the plan's unit with key.
func IndexOf(plan []PlannedUnit, key string) (int, error) {
	for _, p := range plan {
		if p.Key == key {
			return p.Index, nil
		}
	}
	return 0, fmt.Errorf("no unit of the plan has key %q (test units whose C validation chooses have no key in the plan; use --index)", key)
}
