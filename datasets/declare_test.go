package datasets

import (
	"reflect"
	"testing"
)

func TestBuiltinDeclarationsCheck(t *testing.T) {
	for _, name := range BuiltinNames() {
		d, ok := Builtin(name)
		if name == "synthetic" {
			if ok {
				t.Errorf("synthetic has files: %+v", d)
			}
			continue
		}
		if !ok {
			t.Errorf("%s: no declaration", name)
			continue
		}
		if err := d.Check(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestPartSplit(t *testing.T) {
	tests := []struct {
		parts           []int
		train, test, dv []int
		wantErr         bool
	}{
		{parts: []int{PartTrain, PartTrain, PartDev, PartTest}, train: []int{0, 1}, test: []int{3}, dv: []int{2}},
		{parts: []int{PartTrain, PartTest}, train: []int{0}, test: []int{1}},
		{parts: []int{PartTrain, PartDev}, wantErr: true},
		{parts: []int{PartTrain, 7, PartTest}, wantErr: true},
	}
	for _, tt := range tests {
		s, dev, err := PartSplit(tt.parts)
		if (err != nil) != tt.wantErr {
			t.Errorf("%v: error %v, want error %v", tt.parts, err, tt.wantErr)
			continue
		}
		if err == nil && (!reflect.DeepEqual(s.Train, tt.train) || !reflect.DeepEqual(s.Test, tt.test) || !reflect.DeepEqual(dev, tt.dv)) {
			t.Errorf("%v: train %v test %v dev %v", tt.parts, s.Train, s.Test, dev)
		}
	}
}
