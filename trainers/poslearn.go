package trainers

import (
	"encoding/binary"
	"math"

	"github.com/maxmargin/repro/structpred"
)

// PosLearn is Sarawagi & Gupta's (ICML 2008) position-wise slack scaling
// for decomposable losses: one slack per (instance i, position c) and
// constraints L_ic(y_c)·w·δf_i(y) ≥ L_ic(y_c) − ξ_ic for labelings wrong at
// c, separated from max-marginals (PositionDecoder). Params:
// CuttingPlaneParams.
const PosLearn = "poslearn"

func posLearnTrainer[Y any]() Trainer[Y] {
	return cuttingPlaneTrainer(PosLearn,
		"Sarawagi & Gupta's position-wise slack scaling, cutting plane over max-marginals",
		"weighs every (instance, position) slack: min ½‖w‖² + C Σ_i Σ_c ξ_ic (C/n with C_per_example, n instances)",
		newPosLearnSeparator[Y], false)
}

func newPosLearnSeparator[Y any](m Model[Y], _ float64) (Separator, error) {
	if err := needs[PositionDecoder[Y]](PosLearn, "per-position violators (max-marginals)", m); err != nil {
		return nil, err
	}
	d := m.(PositionDecoder[Y])
	s := &posLearnSeparator[Y]{m: m, d: d, offset: make([]int, m.Len()+1)}
	for i := range m.Len() {
		s.offset[i+1] = s.offset[i] + d.Positions(i)
	}
	return s, nil
}

// posLearnSeparator gives every (instance, position) its own slack group and
// proposes, per position c, the labeling wrong at c that maximises
// L_ic(y_c)·(1 − w·δf_i(y)).
type posLearnSeparator[Y any] struct {
	m      Model[Y]
	d      PositionDecoder[Y]
	offset []int // group of (i, c) is offset[i] + c
	buf    []PositionViolator[Y]
	shared sharedDeltas
	dirOf  map[string]int32 // separateLazy's directions by outputKey
}

func (s *posLearnSeparator[Y]) Groups() int { return s.offset[len(s.offset)-1] }

// fork is the same oracle over a fork of the model (see forkable), sharing
// the read-only group offsets; buf is the fork's own.
func (s *posLearnSeparator[Y]) fork() (Separator, error) {
	m, err := forkModel(s.m)
	if err != nil {
		return nil, err
	}
	if err := needs[PositionDecoder[Y]](PosLearn, "per-position violators (max-marginals)", m); err != nil {
		return nil, err
	}
	return &posLearnSeparator[Y]{m: m, d: m.(PositionDecoder[Y]), offset: s.offset}, nil
}

func (s *posLearnSeparator[Y]) Separate(i int, w []float64, slack func(int) float64, dst []structpred.Constraint) ([]structpred.Constraint, error) {
	defer pinScores(s.m, i, w)()
	truth := s.m.Score(i, w, s.m.Truth(i))
	s.buf = s.d.PositionViolators(i, w, s.buf[:0])
	s.shared.reset()
	for _, v := range s.buf {
		g := s.offset[i] + v.Position
		// Building δf is the costly part: only do it for proposals the solver
		// will keep (violation above the group's slack).
		if v.Loss > 0 && v.Loss*(1-truth+v.Score) > slack(g) {
			dst = append(dst, s.constraint(g, i, v.Y, v.Loss))
		}
	}
	return dst, nil
}

// constraint is slackConstraint(m, g, i, y, loss), but positions whose
// violator is the same labeling with the same loss (every position the
// MAP labels wrongly has it as its violator) share one L·δf_i(y) instead
// of a copy each: the constraints are equal either way, and the copies were
// most of what one-slack's per-instance caches held (a wrong labeling of a
// CoNLL'03 sentence differs from the truth at many positions).
func (s *posLearnSeparator[Y]) constraint(g, i int, y Y, loss float64) structpred.Constraint {
	key, ok := outputKey(y, loss, s.shared.key[:0])
	s.shared.key = key
	if ok {
		if a, found := s.shared.deltas[string(key)]; found {
			return structpred.Constraint{Group: g, A: a, B: loss, Loss: loss}
		}
	}
	c := slackConstraint(s.m, g, i, y, loss)
	if ok {
		s.shared.deltas[string(key)] = c.A
	}
	return c
}

// sharedDeltas holds the L·δf of the labelings one Separate call has
// proposed, by outputKey; constraints share the vectors, which nothing
// writes once built.
type sharedDeltas struct {
	deltas map[string]structpred.SparseVec
	key    []byte
}

func (d *sharedDeltas) reset() {
	if d.deltas == nil {
		d.deltas = make(map[string]structpred.SparseVec)
	}
	clear(d.deltas)
}

// outputKey appends to dst a byte key that is equal for two outputs
// exactly when they are the same labeling (label sequences, head arrays
// and segmentations) with the same loss; false for output types it does
// not know, which are then never shared.
func outputKey[Y any](y Y, loss float64, dst []byte) ([]byte, bool) {
	dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(loss))
	switch y := any(y).(type) {
	case []int:
		for _, v := range y {
			dst = binary.AppendVarint(dst, int64(v))
		}
	case []structpred.Segment:
		for _, sg := range y {
			dst = binary.AppendVarint(dst, int64(sg.Start))
			dst = binary.AppendVarint(dst, int64(sg.End))
			dst = binary.AppendVarint(dst, int64(sg.Label))
		}
	default:
		return dst, false
	}
	return dst, true
}
