package chain_test

import (
	"github.com/maxmargin/repro/models/chain"
	"github.com/maxmargin/repro/trainers"
)

// The chain model implements the trainers' capability interfaces
// structurally; these assertions, kept in a test so that the package itself
// need not import trainers, fail to compile if a signature drifts.
var (
	_ trainers.Model[[]int]                 = (*chain.Model)(nil)
	_ trainers.LossAugmentedDecoder[[]int]  = (*chain.Model)(nil)
	_ trainers.TruthExcludingDecoder[[]int] = (*chain.Model)(nil)
	_ trainers.LossCountDecoder[[]int]      = (*chain.Model)(nil)
	_ trainers.EmissionCounter              = (*chain.Model)(nil)
	_ trainers.PositionDecoder[[]int]       = (*chain.Model)(nil)
	_ trainers.KBestDecoder[[]int]          = (*chain.Model)(nil)
	_ trainers.LogLinear[[]int]             = (*chain.Model)(nil)
	_ trainers.LogLossSummer                = (*chain.Model)(nil)
	_ trainers.SlackLogLinear[[]int]        = (*chain.Model)(nil)
	_ trainers.PosteriorModer[[]int]        = (*chain.Model)(nil)
	_ trainers.Forker[[]int]                = (*chain.Model)(nil)
)
