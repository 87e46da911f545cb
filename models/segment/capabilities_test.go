package segment_test

import (
	"github.com/maxmargin/repro/models/segment"
	"github.com/maxmargin/repro/structpred"
	"github.com/maxmargin/repro/trainers"
)

// The segmentation model implements the trainers' capability interfaces
// structurally; these assertions, kept in a test so that the package itself
// need not import trainers, fail to compile if a signature drifts. (It has no slack-rescaled
// partition function: no trainers.SlackLogLinear.)
var (
	_ trainers.Model[[]structpred.Segment]                 = (*segment.Model)(nil)
	_ trainers.LossAugmentedDecoder[[]structpred.Segment]  = (*segment.Model)(nil)
	_ trainers.TruthExcludingDecoder[[]structpred.Segment] = (*segment.Model)(nil)
	_ trainers.LossCountDecoder[[]structpred.Segment]      = (*segment.Model)(nil)
	_ trainers.PositionDecoder[[]structpred.Segment]       = (*segment.Model)(nil)
	_ trainers.KBestDecoder[[]structpred.Segment]          = (*segment.Model)(nil)
	_ trainers.LogLinear[[]structpred.Segment]             = (*segment.Model)(nil)
	_ trainers.Forker[[]structpred.Segment]                = (*segment.Model)(nil)
)
