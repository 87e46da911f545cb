package features

import (
	"reflect"
	"strings"
	"testing"
)

func TestIndexRoundTrip(t *testing.T) {
	for name, x := range map[string]*Index{"NewIndex": NewIndex(), "zero value": {}} {
		t.Run(name, func(t *testing.T) {
			if _, ok := x.Lookup("a"); ok || x.Len() != 0 {
				t.Fatal("new index not empty")
			}
			for i, a := range []string{"b", "a", "c"} {
				if id := x.Add(a); id != int32(i) {
					t.Fatalf("Add(%q) = %d, want %d", a, id, i)
				}
			}
			if id := x.Add("a"); id != 1 || x.Len() != 3 {
				t.Fatalf("re-Add gave %d, Len %d", id, x.Len())
			}
			for i := range int32(x.Len()) {
				if id, ok := x.Lookup(x.Name(i)); !ok || id != i {
					t.Fatalf("Lookup(Name(%d)) = %d, %v", i, id, ok)
				}
			}
		})
	}
}

func TestBuildIndexAndEncode(t *testing.T) {
	train := [][][]string{
		{{"bias", "w=a"}, {"bias", "w=b"}},
		{{"bias", "w=c", "w=a"}},
	}
	x := BuildIndex(train)
	if x.Len() != 4 {
		t.Fatalf("Len = %d, want 4", x.Len())
	}
	tests := []struct {
		name  string
		attrs [][]string
		want  [][]int32
	}{
		{"first-seen ids, sorted", [][]string{{"w=c", "bias", "w=a"}}, [][]int32{{0, 1, 3}}},
		{"unknowns dropped", [][]string{{"w=zzz", "bias"}, {"w=unseen"}}, [][]int32{{0}, {}}},
		{"duplicates collapse", [][]string{{"w=b", "w=b"}}, [][]int32{{2}}},
		{"empty", nil, [][]int32{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := x.Encode(tt.attrs); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Encode = %v, want %v", got, tt.want)
			}
		})
	}
	if x.Len() != 4 {
		t.Error("Encode grew the index")
	}
}

func TestIndexOfRebuildsAnIndex(t *testing.T) {
	t.Parallel()
	x := BuildIndex([][][]string{{{"w=a", "bias"}, {"w=b", "bias"}}})
	names := make([]string, x.Len())
	for i := range names {
		names[i] = x.Name(int32(i))
	}
	y, err := IndexOf(names)
	if err != nil {
		t.Fatal(err)
	}
	in := [][]string{{"w=b", "unknown", "bias"}}
	if got, want := y.Encode(in), x.Encode(in); !reflect.DeepEqual(got, want) || y.Len() != x.Len() {
		t.Errorf("rebuilt index encodes %v (%d ids), the original %v (%d)", got, y.Len(), want, x.Len())
	}
	if _, err := IndexOf([]string{"a", "b", "a"}); err == nil || !strings.Contains(err.Error(), `attribute 2 "a" repeats attribute 0`) {
		t.Errorf("duplicate: error %v", err)
	}
}
