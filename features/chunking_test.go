package features

import (
	"fmt"
	"reflect"
	"slices"
	"testing"
)

func TestChunking(t *testing.T) {
	words := []string{"He", "reckons", "the", "deficit"}
	tags := []string{"PRP", "VBZ", "DT", "NN"}
	got := Chunking(words, tags)
	if len(got) != 4 {
		t.Fatalf("%d tokens, want 4", len(got))
	}
	want1 := []string{
		"bias",
		"w[-2]=<s>", "w[-1]=He", "w[0]=reckons", "w[+1]=the", "w[+2]=deficit",
		"ww[-1]=He|reckons", "ww[0]=reckons|the",
		"t[-2]=<s>", "t[-1]=PRP", "t[0]=VBZ", "t[+1]=DT", "t[+2]=NN",
		"tt[-2]=<s>|PRP", "tt[-1]=PRP|VBZ", "tt[0]=VBZ|DT", "tt[+1]=DT|NN",
		"ttt[-2]=<s>|PRP|VBZ", "ttt[-1]=PRP|VBZ|DT", "ttt[0]=VBZ|DT|NN",
	}
	if !reflect.DeepEqual(got[1], want1) {
		t.Errorf("token 1:\n got %q\nwant %q", got[1], want1)
	}
	tests := []struct {
		tok  int
		attr string
	}{
		{0, "w[-1]=<s>"}, {0, "ww[-1]=<s>|He"}, {0, "ttt[-2]=<s>|<s>|PRP"},
		{3, "w[+1]=</s>"}, {3, "w[+2]=</s>"}, {3, "tt[+1]=</s>|</s>"}, {3, "ttt[0]=NN|</s>|</s>"},
	}
	for _, tt := range tests {
		if !slices.Contains(got[tt.tok], tt.attr) {
			t.Errorf("token %d lacks %q: %q", tt.tok, tt.attr, got[tt.tok])
		}
	}
	for i, attrs := range got {
		if len(attrs) != 20 || len(slices.Compact(slices.Sorted(slices.Values(attrs)))) != 20 {
			t.Errorf("token %d: %d attributes, want 20 distinct: %q", i, len(attrs), attrs)
		}
	}
	if got := Chunking(nil, nil); len(got) != 0 {
		t.Errorf("empty sentence: %q", got)
	}
}

func ExampleChunking() {
	attrs := Chunking([]string{"the", "deficit"}, []string{"DT", "NN"})
	fmt.Println(attrs[1][2:4], attrs[1][15:17])
	// Output: [w[-1]=the w[0]=deficit] [tt[0]=NN|</s> tt[+1]=</s>|</s>]
}
