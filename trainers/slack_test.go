package trainers

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
)

// slackTable is a tableModel of one instance with truth [0 0 0] and one
// labeling of each Hamming loss 1, 2 and 3, scored by w (the truth scores 0).
func slackTable(s1, s2, s3 float64) (*tableModel, []float64) {
	m := &tableModel{truth: []int{0, 0, 0}, ys: [][]int{{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {1, 1, 1}}}
	return m, []float64{0, s1, s2, s3}
}

// The two criteria on hand-made tables where they pick different labelings
// (the loss identifies the labeling). With H(y) = L(y)(1 + s(y)) and ξ the
// slack, eq. (1) takes argmax s(y) − ξ/L(y) over the labelings violated
// beyond ξ + ε, Tsochantaridis' criterion argmax H(y). Catches an eq. (1)
// oracle that ranks by H, by the score alone, or over labelings that are
// not violated (or violated by no more than ε, which the solver rejects).
func TestSlackCriteriaPickDifferentLabelings(t *testing.T) {
	tests := []struct {
		name       string
		s          [3]float64 // scores of the labelings of loss 1, 2, 3
		xi, eps    float64
		sg, tsoch  float64 // the loss of the labeling each picks; 0: none
		sgAmongAll float64 // loss of the unrestricted argmax of s − ξ/L
	}{
		// H = 0.95, 1.4, 1.5; s − ξ/L = −1.05, −0.8, −0.833. The labeling
		// of loss 1 scores highest but is no violator.
		{name: "violators", s: [3]float64{-0.05, -0.3, -0.5}, xi: 1, eps: 1e-9, sg: 2, tsoch: 3, sgAmongAll: 2},
		// H = 1.2, 1.35, 1.45; violations beyond ξ 0.2, 0.35, 0.45, over L
		// 0.2, 0.175, 0.15: the unrestricted argmax (loss 1) is violated by
		// less than ε, so eq. (1) over the violators beyond ε takes loss 2.
		{name: "violators beyond epsilon", s: [3]float64{0.2, -0.325, -0.5 - 1.0/60}, xi: 1, eps: 0.3, sg: 2, tsoch: 3, sgAmongAll: 1},
		// Every violation is within ε: eq. (1) has no candidate and
		// proposes the largest violation, which measures the true slack.
		{name: "within epsilon", s: [3]float64{-0.05, -0.3, -0.5}, xi: 1, eps: 0.6, sg: 3, tsoch: 3, sgAmongAll: 2},
		// No labeling is violated: eq. (1) proposes nothing, H its largest.
		{name: "no violator", s: [3]float64{-0.05, -0.3, -0.5}, xi: 2, eps: 1e-9, sg: 0, tsoch: 3, sgAmongAll: 3},
		// At ξ = 0 eq. (1) is the best score among the violators.
		{name: "zero slack", s: [3]float64{-0.05, -0.3, -0.5}, xi: 0, eps: 1e-9, sg: 1, tsoch: 3, sgAmongAll: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, w := slackTable(tt.s[0], tt.s[1], tt.s[2])
			picked := func(criterion string) float64 {
				sep, err := newSlackSeparatorFor(Model[[]int](m), tt.eps, criterion)
				if err != nil {
					t.Fatal(err)
				}
				props, err := sep.Separate(0, w, func(int) float64 { return tt.xi }, nil)
				if err != nil || len(props) > 1 {
					t.Fatalf("%s: %d proposals, error %v", criterion, len(props), err)
				}
				if len(props) == 0 {
					return 0
				}
				return props[0].Loss
			}
			if got := picked(CriterionSarawagiGupta); got != tt.sg {
				t.Errorf("sarawagi-gupta picks loss %v, want %v", got, tt.sg)
			}
			if got := picked(CriterionTsochantaridis); got != tt.tsoch {
				t.Errorf("tsochantaridis picks loss %v, want %v", got, tt.tsoch)
			}
			// The table's own premise, by enumeration.
			best, _, _ := m.argmax(func(y []int) float64 { return m.Score(0, w, y) - tt.xi/m.Loss(0, y) }, m.notTruth)
			if got := m.Loss(0, best); got != tt.sgAmongAll {
				t.Errorf("unrestricted argmax of s − ξ/L has loss %v, want %v", got, tt.sgAmongAll)
			}
		})
	}
}

// The criterion param: the default is Tsochantaridis' H and resolves to
// unset whether or not it is spelled out (so unit keys do not change), an
// unknown value and eq. (1) with the one-slack solver are refused by Check
// and Train with a *ParamError naming the key, and the help names both.
func TestSlackCriterionParam(t *testing.T) {
	tr, err := Lookup[[]int](Slack)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []Values{nil, {"criterion": CriterionTsochantaridis}} {
		got, err := tr.Resolve(v)
		if err != nil || got["criterion"] != "" {
			t.Errorf("Resolve(%v) criterion = %q, error %v; want unset", v, got["criterion"], err)
		}
	}
	got, err := tr.Resolve(Values{"criterion": CriterionSarawagiGupta})
	if err != nil || got["criterion"] != CriterionSarawagiGupta {
		t.Errorf("Resolve(sarawagi-gupta) criterion = %q, error %v", got["criterion"], err)
	}
	m, _ := slackTable(-0.05, -0.3, -0.5)
	for _, v := range []Values{
		{"C": 1.0, "criterion": "sarawagi"},
		{"C": 1.0, "criterion": CriterionSarawagiGupta, "solver": OneSlack},
	} {
		var pe *ParamError
		if err := tr.Check(m, v); !errors.As(err, &pe) || pe.Key != "criterion" {
			t.Errorf("Check(%v) = %v, want a criterion ParamError", v, err)
		}
		if _, err := tr.Train(context.Background(), m, v); !errors.As(err, &pe) || pe.Key != "criterion" {
			t.Errorf("Train(%v) = %v, want a criterion ParamError", v, err)
		}
	}
	for _, v := range []Values{{"C": 1.0}, {"C": 1.0, "criterion": CriterionSarawagiGupta}, {"C": 1.0, "criterion": CriterionTsochantaridis, "solver": OneSlack}} {
		if err := tr.Check(m, v); err != nil {
			t.Errorf("Check(%v) = %v", v, err)
		}
	}
	p, ok := tr.Spec().Param("criterion")
	if !ok || p.Kind != "string" {
		t.Fatalf("slack's spec has no string criterion param: %+v", p)
	}
	for _, c := range SlackCriteria() {
		if !strings.Contains(p.Help, c) {
			t.Errorf("criterion help %q does not name %q", p.Help, c)
		}
	}
	if _, ok := mustSpec(t, Margin).Param("criterion"); ok {
		t.Error("margin accepts criterion; it is slack's")
	}
}

// Training with eq. (1) on the hand-made table certifies its primal with the
// exact H oracle even when stopped after one pass (its own proposals are not
// the largest violations).
func TestSarawagiGuptaTrainingIsCertified(t *testing.T) {
	m, _ := slackTable(-0.05, -0.3, -0.5)
	for _, iters := range []int{1, 0} { // 0: the default
		v := Values{"C": 1.0, "criterion": CriterionSarawagiGupta}
		if iters > 0 {
			v["max_iterations"] = iters
		}
		res, err := Train[[]int](context.Background(), Slack, m, v)
		if err != nil {
			t.Fatal(err)
		}
		want := 0.5 * dot(res.W, res.W)
		xi := 0.0
		for _, y := range m.ys {
			if l := m.Loss(0, y); l > 0 {
				xi = math.Max(xi, l*(1-m.DeltaFeatures(0, y).Dot(res.W)))
			}
		}
		want += xi
		if !res.PrimalExact || math.Abs(res.Primal-want) > 1e-9*math.Max(1, want) {
			t.Errorf("iters %d: primal %v (exact %v), enumerated %v", iters, res.Primal, res.PrimalExact, want)
		}
	}
}

func mustSpec(t *testing.T, name string) Spec {
	t.Helper()
	s, err := SpecOf(name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
