package datasets

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/maxmargin/repro/structpred"
)

func TestTokenizeTagged(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"Homer Spit Road, ", []string{"Homer", "Spit", "Road", ","}},
		// The IITB package's own test of DataCruncher.getTokenList.
		{"South 1/2 Greenwood Avenue, ", []string{"South", "1", "2", "Greenwood", "Avenue", ","}},
		{"P.O. Box 12-A", []string{"P", "O", "Box", "12", "A"}},
		{"  ", nil},
		{",,", []string{",", ","}},
		{"Zürich", []string{"Zürich"}},
	}
	for _, tt := range tests {
		if got := TokenizeTagged(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("TokenizeTagged(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestParseTagged(t *testing.T) {
	tests := []struct {
		name    string
		input   string
		labels  []string
		want    []structpred.Sequence
		wantErr string
	}{
		{
			name:   "two records",
			input:  "9878 |1\nNorth Metro Parkway, |3\nAK |6\n\n\nHomer, |5\r\nAK |6\n",
			labels: []string{"1", "3", "5", "6"},
			want: []structpred.Sequence{
				{ID: "t-0", Line: 1, Tokens: []string{"9878", "North", "Metro", "Parkway", ",", "AK"}, Labels: []int{0, 1, 1, 1, 1, 3},
					Segments: []structpred.Segment{{Start: 0, End: 1, Label: 0}, {Start: 1, End: 5, Label: 1}, {Start: 5, End: 6, Label: 3}}},
				{ID: "t-1", Line: 6, Tokens: []string{"Homer", ",", "AK"}, Labels: []int{2, 2, 3},
					Segments: []structpred.Segment{{Start: 0, End: 2, Label: 2}, {Start: 2, End: 3, Label: 3}}},
			},
		},
		{
			name:   "adjacent segments of one label stay two; last bar separates",
			input:  "a|b |3\nc |3\n",
			labels: []string{"3"},
			want: []structpred.Sequence{{ID: "t-0", Line: 1, Tokens: []string{"a|b", "c"}, Labels: []int{0, 0},
				Segments: []structpred.Segment{{Start: 0, End: 1, Label: 0}, {Start: 1, End: 2, Label: 0}}}},
		},
		{name: "no bar", input: "9878 |1\nHomer 5\n", wantErr: "t:2: no '|'"},
		{name: "empty label", input: "9878 |1\n\nHomer | \n", wantErr: "t:3: empty label"},
		{name: "no token", input: "9878 |1\n , |3\n", wantErr: ""},
		{name: "only delimiters", input: "9878 |1\n - |3\n", wantErr: `t:2: segment " - " has no token`},
		{name: "empty file", input: "\n\n", wantErr: "t:2: no records"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := ParseTagged(strings.NewReader(tt.input), "t")
			if tt.wantErr != "" || tt.want == nil {
				if tt.wantErr == "" {
					if err != nil {
						t.Fatalf("unexpected error %v", err)
					}
					return
				}
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(c.Labels, tt.labels) || !reflect.DeepEqual(c.Sequences, tt.want) {
				t.Errorf("got labels %v, sequences %+v\nwant %v, %+v", c.Labels, c.Sequences, tt.labels, tt.want)
			}
		})
	}
}

func TestLoadTaggedPartsPoolLabels(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.tagged", "1 Main St |3\nAK |6\n")
	write("b.tagged", "12 |1\nAK |6\n\nBox 3 |2\n")
	l, err := Load(dir, "test", Declaration{Name: "addr", Format: FormatTagged, Train: "a.tagged", Test: "b.tagged"})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"1", "2", "3", "6"}; !reflect.DeepEqual(l.Labels, want) {
		t.Fatalf("labels %v, want %v", l.Labels, want)
	}
	if want := []int{PartTrain, PartTest, PartTest}; !reflect.DeepEqual(l.Parts, want) {
		t.Errorf("parts %v, want %v", l.Parts, want)
	}
	if got := [][]int{l.Sequences[0].Labels, l.Sequences[1].Labels, l.Sequences[2].Labels}; !reflect.DeepEqual(got, [][]int{{2, 2, 2, 3}, {0, 3}, {1, 1}}) {
		t.Errorf("labels of the sequences %v", got)
	}
	if _, err := Load(dir, "test", Declaration{Name: "addr", Format: FormatTagged, Path: "missing.tagged"}); err == nil || !strings.Contains(err.Error(), "no file at") {
		t.Errorf("missing file: %v", err)
	}
	write("bad.tagged", "12 |1\nAK 6\n")
	if _, err := Load(dir, "test", Declaration{Name: "addr", Format: FormatTagged, Path: "bad.tagged"}); err == nil || !strings.Contains(err.Error(), "bad.tagged:2:") {
		t.Errorf("bad file: %v", err)
	}
}

func TestDeclarationKeepTypes(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "c.txt"), []byte("He NN B-NP\nreckons VBZ B-VP\nthe DT B-NP\ndeficit NN I-NP\n\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	base := Declaration{Name: "np", Format: FormatCoNLL, Path: "c.txt", Columns: []string{ColumnWord, "pos", ColumnLabel}, Scheme: "iob2"}
	tests := []struct {
		name    string
		edit    func(*Declaration)
		labels  []string
		wantErr string
	}{
		{name: "NP", edit: func(d *Declaration) { d.KeepTypes = []string{"NP"} }, labels: []string{"O", "B-NP", "I-NP"}},
		{name: "none", edit: func(d *Declaration) {}, labels: []string{"O", "B-NP", "I-NP", "B-VP", "I-VP"}},
		{name: "unknown type", edit: func(d *Declaration) { d.KeepTypes = []string{"ADJP"} }, wantErr: `dataset "np": keep_types: chunk type "ADJP"`},
		{name: "twice", edit: func(d *Declaration) { d.KeepTypes = []string{"NP", "NP"} }, wantErr: "keep_types: \"NP\" is empty or listed twice"},
		{name: "plain", edit: func(d *Declaration) { d.KeepTypes, d.Scheme = []string{"NP"}, "none" }, wantErr: "keep_types: keeps chunk types"},
		{name: "not conll", edit: func(d *Declaration) {
			*d = Declaration{Name: "np", Format: FormatTagged, Path: "c.txt", KeepTypes: []string{"NP"}}
		}, wantErr: "keep_types: applies to format conll only"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := base
			tt.edit(&d)
			l, err := Load(dir, "test", d)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(l.Labels, tt.labels) {
				t.Errorf("labels %v, want %v", l.Labels, tt.labels)
			}
		})
	}
}

// TestAddressSample reads the IITB us50 address sample and checks the
// counts its PROVENANCE.md gives (51 + 690 records, 247 + 3330 segments).
func TestAddressSample(t *testing.T) {
	dir := os.Getenv(EnvDataDir)
	if dir == "" {
		t.Skip("REPRO_DATA not set; skipping test on the address sample")
	}
	d := Declaration{Name: "address", Format: FormatTagged, Train: "address/us50.train.tagged", Test: "address/us50.test.tagged"}
	l, err := Load(dir, "REPRO_DATA", d)
	if err != nil {
		t.Skipf("address sample not available: %v", err)
	}
	segs := map[int]int{}
	for i, s := range l.Sequences {
		segs[l.Parts[i]] += len(s.Segments)
		if err := structpred.CheckSegmentation(s.Segments, len(s.Tokens), len(l.Labels), 0); err != nil {
			t.Fatalf("%s: %v", s.ID, err)
		}
	}
	if want := []string{"1", "2", "3", "5", "6", "7"}; !reflect.DeepEqual(l.Labels, want) || len(l.Sequences) != 741 || segs[PartTrain] != 247 || segs[PartTest] != 3330 {
		t.Errorf("labels %v, %d records, segments %v; want %v, 741, 247 and 3330", l.Labels, len(l.Sequences), segs, want)
	}
}
