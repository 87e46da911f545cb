package datasets

import (
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"
)

func TestParseSplitFile(t *testing.T) {
	tests := []struct {
		name, file, in string
		want           []FileSplit // Label, Line, Train, Test, Dev
		sequences      int
	}{
		{
			name: "peers shape", file: "s.json",
			in: `{"n_sequences": 6, "train_fraction": 0.5, "generator": "x",
 "splits": [{"seed": 1, "train": [4, 0, 2], "test": [1, 3, 5]},
            {"seed": 2, "train": [1, 3], "dev": [5], "test": [0, 2, 4]}]}`,
			want: []FileSplit{
				{Label: "splits[0]", Line: 2, Train: []int{0, 2, 4}, Test: []int{1, 3, 5}},
				{Label: "splits[1]", Line: 3, Train: []int{1, 3}, Test: []int{0, 2, 4}, Dev: []int{5}},
			},
			sequences: 6,
		},
		{
			name: "bare list, validation for dev", file: "s.JSON",
			in:   `[{"name": "a", "train": [0], "validation": [1], "test": [2]}]`,
			want: []FileSplit{{Label: "splits[0]", Line: 1, Train: []int{0}, Test: []int{2}, Dev: []int{1}}},
		},
		{
			name: "CSV, splits in id order", file: "s.csv",
			in: "# a comment\nsplit,part,index\n7,train,0\n7,train,1\n7,test,2\n3,train,2\n3,test,0\n3,dev,1\n",
			want: []FileSplit{
				{Label: "split 3", Line: 6, Train: []int{2}, Test: []int{0}, Dev: []int{1}},
				{Label: "split 7", Line: 3, Train: []int{0, 1}, Test: []int{2}},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sf, err := ParseSplitFile([]byte(tt.in), tt.file)
			if err != nil {
				t.Fatal(err)
			}
			if sf.Sequences != tt.sequences {
				t.Errorf("n_sequences %d, want %d", sf.Sequences, tt.sequences)
			}
			var got []FileSplit
			for _, s := range sf.Splits {
				got = append(got, FileSplit{Label: s.Label, Line: s.Line, Train: s.Train, Test: s.Test, Dev: s.Dev})
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("splits\n%+v, want\n%+v", got, tt.want)
			}
		})
	}
}

func TestParseSplitFileErrors(t *testing.T) {
	tests := []struct {
		name, file, in, want string
	}{
		{"unknown extension", "s.txt", `[]`, `s.txt: unknown split file format ".txt"`},
		{"no splits", "s.json", `{"splits": []}`, "s.json:1: no splits"},
		{"no splits key", "s.json", "{\n\"split\": []}", `s.json:2: no "splits" key`},
		{"syntax error", "s.json", "{\"splits\": [\n{\"train\": [1,,2]}]}", "s.json:2: invalid JSON"},
		{"truncated", "s.json", "{\"splits\": [\n{\"train\": [1, 2], \"test\": [3]", "s.json:2: invalid JSON: unexpected EOF"},
		{"trailing data", "s.json", `[{"train": [0, 1], "test": [2]}] []`, "s.json:1: more data after the splits"},
		{"not an object", "s.json", `"x"`, "s.json:1: expected an object"},
		{"unknown key", "s.json", "[{\"train\": [0, 1],\n \"tset\": [2]}]", `s.json:2: field "splits[0].tset": unknown key "tset"`},
		{"key twice", "s.json", "[{\"train\": [0, 1],\n\"test\": [2],\n\"train\": [3, 4]}]", `s.json:3: field "splits[0].train": key given twice (first at line 1)`},
		{"dev and validation", "s.json", `[{"train": [0, 1], "dev": [3], "validation": [4], "test": [2]}]`, "dev or validation, not both"},
		{"not a list", "s.json", `[{"train": 5, "test": [2]}]`, `field "splits[0].train": expected a list of indices, found 5`},
		{"negative index", "s.json", "[{\"train\": [0, 1],\n\"test\": [2, -3]}]", `s.json:2: field "splits[0].test[1]": expected an index (a non-negative integer), found -3`},
		{"fractional index", "s.json", `[{"train": [0, 1.5], "test": [2]}]`, `field "splits[0].train[1]": expected an index (a non-negative integer), found 1.5`},
		{"string index", "s.json", `[{"train": [0, "1"], "test": [2]}]`, `field "splits[0].train[1]": expected an index`},
		{"duplicate in a part", "s.json", "[{\"train\": [0, 1],\n\"test\": [2,\n3,\n2]}]", `s.json:4: field "splits[0].test[2]": index 2 twice in the test part (first at line 2, splits[0].test[0])`},
		{"train/test overlap", "s.json", "[{\"train\": [0, 1],\n\"test\": [2, 1]}]", `s.json:2: field "splits[0].test[1]": index 1 is in both the train and the test part (line 1, splits[0].train[1])`},
		{"dev/test overlap", "s.json", `[{"train": [0], "dev": [2], "test": [2]}]`, "index 2 is in both the dev and the test part"},
		{"empty part", "s.json", "[{\"train\": [0, 1],\n\"test\": []}]", `s.json:2: field "splits[0].test": empty part`},
		{"missing test", "s.json", "[{\"train\": [0, 1]},\n{\"train\": [0, 1]}]", `s.json:1: field "splits[0]": no test part`},
		{"one training sequence, no dev", "s.json", `[{"train": [0], "test": [2]}]`, `field "splits[0]": 1 training sequence(s): at least 2`},
		{"zero n_sequences", "s.json", `{"n_sequences": 0, "splits": []}`, `field "n_sequences": must be positive`},
		{"CSV header", "s.csv", "index,part,split\n", "s.csv:1: the header must be split,part,index"},
		{"CSV empty", "s.csv", "", "s.csv:1: empty file"},
		{"CSV field count", "s.csv", "split,part,index\n0,train\n", "s.csv:2: invalid CSV"},
		{"CSV split id", "s.csv", "split,part,index\nx,train,0\n", `s.csv:2: field "split": expected a split id`},
		{"CSV part", "s.csv", "split,part,index\n0,tset,0\n", `s.csv:2: field "split 0 part": unknown part "tset"`},
		{"CSV index", "s.csv", "split,part,index\n0,train,-1\n", `s.csv:2: field "split 0 train": expected an index`},
		{"CSV overlap", "s.csv", "split,part,index\n0,train,0\n0,train,1\n0,test,1\n", `s.csv:4: field "split 0 test": index 1 is in both the train and the test part (line 3, split 0 train)`},
		{"CSV no test", "s.csv", "split,part,index\n0,train,0\n0,train,1\n", `s.csv:2: field "split 0": no test part`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseSplitFile([]byte(tt.in), tt.file)
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v, want a *ParseError", err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q, want it to contain %q", err, tt.want)
			}
		})
	}
}

// Check compares the file with the corpus: its stated size and every index.
func TestSplitFileCheck(t *testing.T) {
	sf, err := ParseSplitFile([]byte("{\"n_sequences\": 4,\n\"splits\": [{\"train\": [0, 1],\n\"test\": [2, 3]}]}"), "s.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := sf.Check(4, "d"); err != nil {
		t.Error(err)
	}
	if err := sf.Check(5, "d"); err == nil || !strings.Contains(err.Error(), `s.json:1: field "n_sequences": the file is for 4 sequences; dataset "d" has 5`) {
		t.Errorf("size mismatch: %v", err)
	}
	sf.Sequences = 0
	if err := sf.Check(3, "d"); err == nil || !strings.Contains(err.Error(), `s.json:3: field "splits[0].test[1]": index 3 is out of range: dataset "d" has 3 sequences (0..2)`) {
		t.Errorf("out of range: %v", err)
	}
}

// Test parts are disjoint when no index is tested in two splits; train
// and dev parts do not count.
func TestSplitFileTestsDisjoint(t *testing.T) {
	tests := []struct {
		name, file string
		want       string // "" for disjoint
	}{
		{"folds", `[{"train": [2, 3], "test": [0, 1]}, {"train": [0, 1], "test": [2, 3]}]`, ""},
		{"not every index tested", `[{"train": [2, 3], "test": [0]}, {"train": [1, 3], "test": [2], "dev": [0]}]`, ""},
		{"one split", `[{"train": [1, 3], "test": [0, 2]}]`, ""},
		{"overlap", `[{"train": [2, 3], "test": [0, 1]}, {"train": [0, 3], "test": [1, 2]}, {"train": [0, 1], "test": [3]}]`,
			"s.json: sequence 1 is in the test parts of splits[0] and splits[1]"},
		{"a repeat of a split", `[{"train": [1, 2], "test": [0]}, {"train": [1, 2], "test": [0]}]`,
			"s.json: sequence 0 is in the test parts of splits[0] and splits[1]"},
	}
	for _, tt := range tests {
		sf, err := ParseSplitFile([]byte(tt.file), "s.json")
		if err != nil {
			t.Fatal(err)
		}
		err = sf.TestsDisjoint()
		if (err == nil) != (tt.want == "") || err != nil && err.Error() != tt.want {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
	}
}

// A split's hash depends on its parts as sets, nothing else.
func TestFileSplitHash(t *testing.T) {
	parse := func(in string) []FileSplit {
		sf, err := ParseSplitFile([]byte(in), "s.json")
		if err != nil {
			t.Fatal(err)
		}
		return sf.Splits
	}
	a := parse(`[{"train": [0, 1], "test": [2, 3]}, {"train": [2, 3], "test": [0, 1]}]`)
	b := parse(`{"note": "reordered", "splits": [{"test": [3, 2], "train": [1, 0]}, {"train": [2, 3], "test": [0]}]}`)
	c := parse(`[{"train": [0, 1], "test": [2, 3], "dev": [4]}]`)
	if a[0].Hash() != b[0].Hash() {
		t.Error("reordering a split changed its hash")
	}
	if a[1].Hash() == b[1].Hash() || a[0].Hash() == a[1].Hash() || a[0].Hash() == c[0].Hash() {
		t.Error("different splits share a hash")
	}
}

// The peers' split file (scripts/peerbench's) reads as it is.
func TestPeersSplitFile(t *testing.T) {
	const path = "../../shared/peers/cora_splits.json"
	if _, err := os.Stat(path); err != nil {
		t.Skipf("no peers split file: %v", err)
	}
	sf, err := ReadSplitFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(sf.Splits) != 10 || sf.Sequences != 500 || len(sf.Splits[0].Train) != 125 || len(sf.Splits[0].Test) != 375 {
		t.Errorf("%d splits of %d sequences, first %d/%d", len(sf.Splits), sf.Sequences, len(sf.Splits[0].Train), len(sf.Splits[0].Test))
	}
	if err := sf.Check(500, "cora"); err != nil {
		t.Error(err)
	}
}
