package report

import (
	"encoding/json"
	"testing"
)

func TestOutcomesRoundTripAndCheck(t *testing.T) {
	var o Outcomes
	o.Add([]bool{true, false, true}, 2, 1, 1)
	o.Add([]bool{true, true, true, true, true, false, true}, 1, 2, 0)
	b, err := json.Marshal(&o)
	if err != nil {
		t.Fatal(err)
	}
	var back Outcomes
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if err := back.Check(); err != nil {
		t.Fatal(err)
	}
	if back.NumTokens() != 10 || back.TokenRight(1) || !back.TokenRight(2) || back.TokenRight(8) || !back.TokenRight(9) {
		t.Errorf("bits wrong after a round trip: %+v", back)
	}
	if !back.Same(&o) {
		t.Error("a round trip is not the same test set")
	}
	// Adding after reading back continues at the right bit.
	back.Add([]bool{false}, 0, 0, 0)
	if back.NumTokens() != 11 || back.TokenRight(10) || back.Check() != nil {
		t.Errorf("add after read: %+v %v", back, back.Check())
	}
	for name, damage := range map[string]func(*Outcomes){
		"wrong count":    func(o *Outcomes) { o.Wrong[0] = 0 },
		"matched > true": func(o *Outcomes) { o.Matched[1] = 2 },
		"missing bits":   func(o *Outcomes) { o.TokenOK = o.TokenOK[:1] },
		"uneven lists":   func(o *Outcomes) { o.PredSpans = o.PredSpans[:1] },
		"negative match": func(o *Outcomes) { o.Matched[0] = -1 },
	} {
		var d Outcomes
		if err := json.Unmarshal(b, &d); err != nil {
			t.Fatal(err)
		}
		damage(&d)
		if d.Check() == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
