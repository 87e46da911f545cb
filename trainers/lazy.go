package trainers

import (
	"fmt"
	"math"
)

// A lazyDir is a cached constraint's direction kept as the labeling that
// produced it: a = scale·δf_i(y), for the instance i whose cache holds it.
type lazyDir struct {
	y     any
	scale float64
}

// A lazyProposal is a proposal whose direction is dirs[dir] of the same
// Separate call.
type lazyProposal struct {
	group int
	dir   int32
	b     float64
}

// lazySeparator is a Separator whose every proposal is scale·δf_i(y) for a
// labeling y it can hand over instead of the vector. One-slack's caches
// then keep labelings, a few bytes a token, instead of vectors, a few bytes
// per attribute of every position labelled differently: PosLearn proposes
// one labeling per position, and their vectors were most of a CoNLL'03 or
// parsing unit's memory. Dot products come from the model without building
// δf (DeltaScorer), and a vector is built only when a joint constraint
// takes its constraint.
type lazySeparator interface {
	Separator
	// separateLazy is Separate, but appends each proposal's direction to
	// dirs (once for proposals of the same labeling) instead of building it.
	separateLazy(i int, w []float64, slack func(g int) float64, props []lazyProposal, dirs []lazyDir) ([]lazyProposal, []lazyDir, error)
	// pin pins instance i's scores at w for the dirDots calls that follow
	// (see ScorePinner), and returns what ends it.
	pin(i int, w []float64) (unpin func())
	// dirDots appends w·a of each direction of instance i to dst.
	dirDots(i int, w []float64, dirs []lazyDir, dst []float64) []float64
	// addDir adds scale·δf_i(y) of a direction of instance i (its own
	// scale not applied) to b.
	addDir(i int, d lazyDir, scale float64, b *jointBuilder)
}

// asLazy returns seps as lazy separators if every one of them is; nil
// otherwise.
func asLazy(seps []Separator) []lazySeparator {
	out := make([]lazySeparator, len(seps))
	for k, s := range seps {
		l, ok := s.(lazySeparator)
		if !ok {
			return nil
		}
		out[k] = l
	}
	return out
}

// checkLazy is checkConstraint for a lazy proposal.
func checkLazy(p lazyProposal, dirs []lazyDir, groups int) error {
	if p.dir < 0 || int(p.dir) >= len(dirs) {
		return fmt.Errorf("constraint's direction %d outside the %d proposed", p.dir, len(dirs))
	}
	if s := dirs[p.dir].scale; math.IsNaN(p.b) || math.IsInf(p.b, 0) || math.IsNaN(s) || math.IsInf(s, 0) {
		return fmt.Errorf("constraint: %w", ErrNotFinite)
	}
	if p.group < 0 || p.group >= groups {
		return fmt.Errorf("constraint of group %d outside the separator's %d groups", p.group, groups)
	}
	return nil
}

func (s *posLearnSeparator[Y]) separateLazy(i int, w []float64, slack func(int) float64, props []lazyProposal, dirs []lazyDir) ([]lazyProposal, []lazyDir, error) {
	defer pinScores(s.m, i, w)()
	truth := s.m.Score(i, w, s.m.Truth(i))
	s.buf = s.d.PositionViolators(i, w, s.buf[:0])
	if s.dirOf == nil {
		s.dirOf = make(map[string]int32)
	}
	clear(s.dirOf)
	for _, v := range s.buf {
		g := s.offset[i] + v.Position
		if !(v.Loss > 0 && v.Loss*(1-truth+v.Score) > slack(g)) {
			continue
		}
		key, ok := outputKey(v.Y, v.Loss, s.key[:0])
		s.key = key
		d, found := int32(0), false
		if ok {
			d, found = s.dirOf[string(key)]
		}
		if !found {
			d = int32(len(dirs))
			dirs = append(dirs, lazyDir{y: v.Y, scale: v.Loss})
			if ok {
				s.dirOf[string(key)] = d
			}
		}
		props = append(props, lazyProposal{group: g, dir: d, b: v.Loss})
	}
	clear(s.buf) // the cache keeps the labelings it wants
	return props, dirs, nil
}

func (s *posLearnSeparator[Y]) pin(i int, w []float64) (unpin func()) { return pinScores(s.m, i, w) }

func (s *posLearnSeparator[Y]) dirDots(i int, w []float64, dirs []lazyDir, dst []float64) []float64 {
	if ds, ok := s.m.(DeltaScorer[Y]); ok {
		for _, d := range dirs {
			dst = append(dst, d.scale*ds.DeltaScore(i, w, d.y.(Y)))
		}
		return dst
	}
	if len(dirs) == 0 {
		return dst
	}
	truth := s.m.Score(i, w, s.m.Truth(i))
	for _, d := range dirs {
		dst = append(dst, d.scale*(truth-s.m.Score(i, w, d.y.(Y))))
	}
	return dst
}

func (s *posLearnSeparator[Y]) addDir(i int, d lazyDir, scale float64, b *jointBuilder) {
	if da, ok := s.m.(DeltaAdder[Y]); ok {
		da.AddDelta(i, d.y.(Y), scale, b.addAt)
		return
	}
	v := s.m.DeltaFeatures(i, d.y.(Y))
	for e, x := range v.Idx {
		b.addAt(x, scale*v.Val[e])
	}
}
