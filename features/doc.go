// Package features turns citation tokens into sparse attribute strings and
// indexes them, in the spirit of the token features of Peng & McCallum (2004),
// "Accurate information extraction from research papers using conditional
// random fields", which Sarawagi & Gupta (2008) use for Cora.
//
// [Extract] computes, for every token of a sequence, a list of attribute
// strings; a model conjoins them with labels. [BuildIndex] numbers the
// attributes seen in the training sequences and [Index.Encode] maps any
// sequence's attributes to sorted ids, dropping attributes never seen in
// training ([BuildIndexMinCount] also drops rare ones).
//
// Four more template sets live here: [NER] for named entities and chunks
// (CoNLL column files), [Chunking] for NP chunking (Sha & Pereira's words
// and POS tags), [Pixels] for OCR letters, and [Dependency] for the
// arcs of dependency parsing (hashed, indexed with a [HashIndex] on the
// training trees' arcs). [BagOfWords] is a document's tf-idf vector,
// fitted on the training documents only (text classification, e.g. the
// Brown Corpus's genres).
//
// # Templates
//
// "word" below is the token lower-cased with leading and trailing
// non-alphanumeric characters stripped ("(1995)." → "1995", "Proc." →
// "proc"); when nothing is left it is the lower-cased token itself. "core"
// is the same stripping without lower-casing.
//
//	attribute       fires when / value                                  example token → attribute
//	bias            always                                              any → bias
//	w=WORD          word                                                "Proc." → w=proc
//	raw=TOKEN       lower-cased token                                   "Proc." → raw=proc.
//	shape=S         upper→X, lower→x, digit→d, others kept              "Proc." → shape=Xxxx.
//	cshape=S        shape with runs collapsed                           "Proc." → cshape=Xx.
//	initcap         first character is an upper-case letter             "Kuiper," → initcap
//	allcaps         ≥ 2 letters, all upper-case                         "IEEE" → allcaps
//	initial         a capital with optional period, or dotted capitals  "J.", "W.-P." → initial
//	hasdigit        contains a digit                                    "5th." → hasdigit
//	alldigits       word is all digits                                  "(1995)." → alldigits
//	year            word is 19dd or 20dd with an optional letter        "1992a," → year
//	range           word (after a pp./p. prefix) is digits-digits       "127-136," → range
//	ppnum           token starts with p. or pp followed by a digit      "pp.127" → ppnum
//	volnum          volume(issue) pattern                               "4(2):" → volnum
//	roman           core of ≥ 2 letters from IVXLC                      "XII," → roman
//	endperiod       last character is '.'                               "1992." → endperiod
//	endcomma        last character is ','                               "Cau," → endcomma
//	endpunct        last character is other punctuation                 "Press;" → endpunct
//	startquote      first character is a quote                          `"Finding` → startquote
//	startparen      first character is an opening bracket               "(1995)." → startparen
//	hasdash         contains a hyphen or dash                           "Moto-oka." → hasdash
//	email           contains '@'                                        "a@b.edu" → email
//	url             "://", "www.", "http…", or a .html/.ps ending       "http://x.org" → url
//	lex=CLASS       word without inner punctuation is in a lexicon      "Proc." → lex=proc
//	pre=P, suf=S    prefixes, suffixes of word, lengths 1..Affixes      "Proc." → pre=pr, suf=oc
//	pos=qK          relative position, quarter K ∈ 0..3                 first token → pos=q0
//	BOS, EOS        first / last token of the sequence                  first token → BOS
//	±d:ATTR         each attribute from w= to lex= of the               after "Proc." → -1:w=proc
//	                neighbour at offset d, 1 ≤ |d| ≤ Window
//	-d:BOS, +d:EOS  offset d falls before the start / after             first token → -1:BOS
//	                the end of the sequence
//
// The lexicon classes are: month (names and abbreviations), proc (proc,
// proceedings, conference, conf, symposium, symp, workshop, in), journal
// (journal, jour, trans, transactions), pages (pp, pages, page, pg), volume
// (vol, vols, volume, no, number), editor (ed, eds, editor, editors,
// edited), publisher (press, publisher, publishers, publishing), institution
// (university, univ, institute, inst, dept, department, laboratory, lab,
// labs), tech (technical, tech, report, tr, memo), thesis (thesis, phd,
// dissertation) and and (and, et, al, &).
//
// Attributes come out in a fixed order — the rows of the table top to
// bottom, neighbours from offset -Window to +Window — and never repeat within
// a token.
package features
