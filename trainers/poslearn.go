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
	// Scratch of separateLazy (directions by outputKey) and Separate.
	dirOf map[string]int32
	key   []byte
	props []lazyProposal
	dirs  []lazyDir
}

func (s *posLearnSeparator[Y]) Groups() int { return s.offset[len(s.offset)-1] }

// fork is the same oracle over a fork of the model (see forkable), sharing
// the read-only group offsets; its scratch is its own.
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

// Separate builds the vectors of separateLazy's proposals: positions whose
// violator is the same labeling with the same loss (every position the MAP
// labels wrongly has it as its violator) share one L·δf_i(y) instead of a
// copy each. The constraints are equal either way, and the copies were
// most of what one-slack's per-instance caches held before they kept
// labelings (a wrong labeling of a CoNLL'03 sentence differs from the
// truth at many positions); n-slack keeps them in its working set.
func (s *posLearnSeparator[Y]) Separate(i int, w []float64, slack func(int) float64, dst []structpred.Constraint) ([]structpred.Constraint, error) {
	props, dirs, err := s.separateLazy(i, w, slack, s.props[:0], s.dirs[:0])
	s.props, s.dirs = props, dirs
	if err != nil {
		return dst, err
	}
	vecs := make([]structpred.SparseVec, len(dirs))
	for k, d := range dirs {
		vecs[k] = slackConstraint(s.m, 0, i, d.y.(Y), d.scale).A
	}
	clear(dirs) // release the labelings
	for _, p := range props {
		dst = append(dst, structpred.Constraint{Group: p.group, A: vecs[p.dir], B: p.b, Loss: p.b})
	}
	return dst, nil
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
