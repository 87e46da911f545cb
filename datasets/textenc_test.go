package datasets

import (
	"slices"
	"testing"
)

func TestTextEncodingRoundTrip(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		enc  TextEncoding
		file []byte
		text string
	}{
		{UTF8, []byte("Müller"), "Müller"},
		{"", []byte("Müller"), "Müller"},
		{Latin1, []byte{'M', 0xfc, 'l', 'l', 'e', 'r'}, "Müller"},
		{Latin1, []byte{'a', 0xa0, 'b'}, "a\u00a0b"},
	} {
		got, err := tc.enc.Decode(tc.file)
		if err != nil || got != tc.text {
			t.Errorf("%q.Decode(%q) = %q, %v; want %q", tc.enc, tc.file, got, err, tc.text)
		}
		back, err := tc.enc.Append(nil, got)
		if err != nil || !slices.Equal(back, tc.file) {
			t.Errorf("%q.Append(%q) = %q, %v; want %q", tc.enc, got, back, err, tc.file)
		}
	}
}

func TestTextEncodingErrors(t *testing.T) {
	t.Parallel()
	if _, err := UTF8.Decode([]byte{'M', 0xfc}); err == nil {
		t.Error("invalid UTF-8 decoded without error")
	}
	if _, err := Latin1.Append(nil, "€"); err == nil {
		t.Error("€ appended as Latin-1 without error")
	}
	if _, err := TextEncoding("ebcdic").Decode([]byte("x")); err == nil {
		t.Error("unknown encoding decoded without error")
	}
}

func TestLayoutFindsNamedColumns(t *testing.T) {
	t.Parallel()
	word, label, extras, err := CoNLLFormat{Columns: []string{"pos", ColumnWord, "chunk", ColumnLabel}}.Layout(0)
	if err != nil || word != 1 || label != 3 || !slices.Equal(extras, []int{0, 2}) {
		t.Errorf("Layout = %d, %d, %v, %v; want 1, 3, [0 2]", word, label, extras, err)
	}
	word, label, extras, err = CoNLLFormat{}.Layout(3)
	if err != nil || word != 0 || label != 2 || !slices.Equal(extras, []int{1}) {
		t.Errorf("Layout(3) = %d, %d, %v, %v; want 0, 2, [1]", word, label, extras, err)
	}
	if _, _, _, err := (CoNLLFormat{}).Layout(1); err == nil {
		t.Error("a one-column layout resolved without error")
	}
}
