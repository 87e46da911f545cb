package features

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Options selects the feature templates' extent.
type Options struct {
	Window  int // neighbour offsets -Window..+Window are copied; 0 disables them
	Affixes int // prefixes and suffixes of length 1..Affixes; 0 disables them
	// NoLexicons drops the lex=CLASS attributes (a feature-strength
	// ablation); the zero value keeps them.
	NoLexicons bool
}

// DefaultOptions returns Window 1 and Affixes 3.
func DefaultOptions() Options { return Options{Window: 1, Affixes: 3} }

// quarters is the number of relative-position buckets.
const quarters = 4

// Extract returns the attributes of every token of a sequence (see the
// package documentation for the templates). Negative options count as 0.
func Extract(tokens []string, opt Options) [][]string {
	n := len(tokens)
	window, affixes := max(opt.Window, 0), max(opt.Affixes, 0)
	words := make([]string, n)
	local := make([][]string, n)
	for t, tok := range tokens {
		words[t], local[t] = tokenAttrs(tok, !opt.NoLexicons)
	}
	offsets := make([]string, 2*window+1) // "-2:", "-1:", "", "+1:", ...
	for d := -window; d <= window; d++ {
		if d != 0 {
			offsets[d+window] = strconv.FormatInt(int64(d), 10) + ":"
			if d > 0 {
				offsets[d+window] = "+" + offsets[d+window]
			}
		}
	}
	out := make([][]string, n)
	for t := range tokens {
		attrs := make([]string, 0, 4+len(local[t])*(1+2*window)+2*affixes)
		attrs = append(attrs, "bias")
		attrs = append(attrs, local[t]...)
		attrs = appendAffixes(attrs, words[t], affixes)
		attrs = append(attrs, "pos=q"+strconv.Itoa(t*quarters/n))
		if t == 0 {
			attrs = append(attrs, "BOS")
		}
		if t == n-1 {
			attrs = append(attrs, "EOS")
		}
		for d := -window; d <= window; d++ {
			prefix := offsets[d+window]
			switch u := t + d; {
			case d == 0:
			case u < 0:
				attrs = append(attrs, prefix+"BOS")
			case u >= n:
				attrs = append(attrs, prefix+"EOS")
			default:
				for _, a := range local[u] {
					attrs = append(attrs, prefix+a)
				}
			}
		}
		out[t] = attrs
	}
	return out
}

// tokenAttrs returns the token's stripped lower-case word and its
// word/shape/flag/lexicon attributes — the ones neighbours also see.
func tokenAttrs(tok string, lexicons bool) (word string, attrs []string) {
	lower := strings.ToLower(tok)
	core := strings.TrimFunc(tok, notAlnum)
	word = strings.ToLower(core)
	if word == "" {
		word = lower
	}
	shape := wordShape(tok)
	attrs = make([]string, 0, 12)
	attrs = append(attrs, "w="+word, "raw="+lower, "shape="+shape, "cshape="+collapse(shape))
	attrs = appendFlags(attrs, tok, core, lower, word)
	if c := lexClass(lexKey(word)); lexicons && c != "" {
		attrs = append(attrs, "lex="+c)
	}
	return word, attrs
}

// appendFlags appends the boolean orthographic attributes, in table order.
func appendFlags(attrs []string, tok, core, lower, word string) []string {
	first, _ := utf8.DecodeRuneInString(tok)
	last, _ := utf8.DecodeLastRuneInString(tok)
	letters, uppers := 0, 0
	digit := false
	for _, r := range tok {
		switch {
		case unicode.IsLetter(r):
			letters++
			if unicode.IsUpper(r) {
				uppers++
			}
		case unicode.IsDigit(r):
			digit = true
		}
	}
	// Page numbers are often written glued to their marker ("pp.127-136").
	pageWord := strings.TrimPrefix(strings.TrimPrefix(word, "pp."), "p.")

	flags := []struct {
		name string
		on   bool
	}{
		{"initcap", unicode.IsUpper(first)},
		{"allcaps", letters >= 2 && uppers == letters},
		{"initial", isInitials(strings.TrimRight(tok, ",;:"))},
		{"hasdigit", digit},
		{"alldigits", allDigits(word)},
		{"year", isYear(word)},
		{"range", isRange(pageWord)},
		{"ppnum", isPageNumber(lower)},
		{"volnum", isVolume(strings.TrimRight(tok, ",.;:"))},
		{"roman", len(core) >= 2 && strings.Trim(core, "IVXLC") == ""},
		{"endperiod", last == '.'},
		{"endcomma", last == ','},
		{"endpunct", last != '.' && last != ',' && (unicode.IsPunct(last) || unicode.IsSymbol(last))},
		{"startquote", strings.ContainsRune("\"'`“‘«", first)},
		{"startparen", strings.ContainsRune("([{", first)},
		{"hasdash", strings.ContainsAny(tok, "-–—")},
		{"email", strings.Contains(tok, "@")},
		{"url", isURL(lower)},
	}
	for _, f := range flags {
		if f.on {
			attrs = append(attrs, f.name)
		}
	}
	return attrs
}

// appendAffixes appends the prefixes and suffixes of word of rune length
// 1..k, skipping lengths ≥ the word's so that no attribute just repeats w=.
func appendAffixes(attrs []string, word string, k int) []string {
	runes := []rune(word)
	for l := 1; l <= k && l < len(runes); l++ {
		attrs = append(attrs, "pre="+string(runes[:l]))
	}
	for l := 1; l <= k && l < len(runes); l++ {
		attrs = append(attrs, "suf="+string(runes[len(runes)-l:]))
	}
	return attrs
}

func notAlnum(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }

// wordShape maps upper-case letters to X, other letters to x, digits to d and
// keeps everything else.
func wordShape(tok string) string {
	var b strings.Builder
	b.Grow(len(tok))
	for _, r := range tok {
		switch {
		case unicode.IsUpper(r):
			b.WriteByte('X')
		case unicode.IsLetter(r):
			b.WriteByte('x')
		case unicode.IsDigit(r):
			b.WriteByte('d')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// collapse replaces every run of a repeated character by one occurrence.
func collapse(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	prev := rune(-1)
	for _, r := range s {
		if r != prev {
			b.WriteRune(r)
		}
		prev = r
	}
	return b.String()
}

// isInitials reports a single capital ("A", "A.") or dotted capitals
// optionally joined by hyphens ("J.R.", "W.-P.").
func isInitials(s string) bool {
	r, size := utf8.DecodeRuneInString(s)
	if size == len(s) {
		return unicode.IsUpper(r)
	}
	for s != "" {
		r, size = utf8.DecodeRuneInString(s)
		if !unicode.IsUpper(r) || size >= len(s) || s[size] != '.' {
			return false
		}
		s = strings.TrimPrefix(s[size+1:], "-")
	}
	return true
}

// digitsPrefix returns the length of the leading run of ASCII digits of s.
func digitsPrefix(s string) int {
	i := 0
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	return i
}

func allDigits(s string) bool { return s != "" && digitsPrefix(s) == len(s) }

// isYear reports 19dd or 20dd with an optional letter suffix ("1992a").
func isYear(w string) bool {
	if len(w) < 4 || !(strings.HasPrefix(w, "19") || strings.HasPrefix(w, "20")) || digitsPrefix(w) != 4 {
		return false
	}
	return len(w) == 4 || len(w) == 5 && 'a' <= w[4] && w[4] <= 'z'
}

// isRange reports digits, one to three dashes, digits ("127-136", "5--9").
func isRange(w string) bool {
	i := digitsPrefix(w)
	if i == 0 {
		return false
	}
	j := i
	for j < len(w) && w[j] == '-' {
		j++
	}
	return j > i && j-i <= 3 && allDigits(w[j:])
}

// isPageNumber reports a page marker glued to a number ("pp.127", "p.5", "pp127").
func isPageNumber(lower string) bool {
	for _, p := range []string{"pp.", "pp", "p."} {
		if rest, ok := strings.CutPrefix(lower, p); ok {
			return digitsPrefix(rest) > 0
		}
	}
	return false
}

// isVolume reports volume(issue) forms such as "4(2)", "12(3-4)".
func isVolume(s string) bool {
	i := digitsPrefix(s)
	if i == 0 || i >= len(s) || s[i] != '(' || !strings.HasSuffix(s, ")") {
		return false
	}
	inner := s[i+1 : len(s)-1]
	a, b, found := strings.Cut(inner, "-")
	if !found {
		a, b, found = strings.Cut(inner, "/")
	}
	return allDigits(a) && (!found || allDigits(b))
}

func isURL(lower string) bool {
	return strings.Contains(lower, "://") || strings.HasPrefix(lower, "www.") ||
		strings.HasPrefix(lower, "http") || strings.HasSuffix(lower, ".html") || strings.HasSuffix(lower, ".ps")
}

// lexKey drops inner punctuation so that "ph.d" matches "phd".
func lexKey(word string) string {
	if word == "&" {
		return word
	}
	return strings.Map(func(r rune) rune {
		if notAlnum(r) {
			return -1
		}
		return r
	}, word)
}

// lexClass returns the lexicon class of a lexicon key, or "". A switch keeps
// the lexicon immutable and allocation-free.
func lexClass(key string) string {
	switch key {
	case "jan", "january", "feb", "february", "mar", "march", "apr", "april", "may",
		"jun", "june", "jul", "july", "aug", "august", "sep", "sept", "september",
		"oct", "october", "nov", "november", "dec", "december":
		return "month"
	case "proc", "proceedings", "conference", "conf", "symposium", "symp", "workshop", "in":
		return "proc"
	case "journal", "jour", "trans", "transactions":
		return "journal"
	case "pp", "pages", "page", "pg":
		return "pages"
	case "vol", "vols", "volume", "no", "number":
		return "volume"
	case "ed", "eds", "editor", "editors", "edited":
		return "editor"
	case "press", "publisher", "publishers", "publishing":
		return "publisher"
	case "university", "univ", "institute", "inst", "dept", "department", "laboratory", "lab", "labs":
		return "institution"
	case "technical", "tech", "report", "tr", "memo":
		return "tech"
	case "thesis", "phd", "dissertation":
		return "thesis"
	case "and", "et", "al", "&":
		return "and"
	}
	return ""
}
