package datasets

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/maxmargin/repro/structpred"
)

// Formats a [Declaration] may name.
const (
	FormatCora  = "cora"  // McCallum's tagged citation file
	FormatOCR   = "ocr"   // Taskar's letter.data(.gz)
	FormatCoNLL = "conll" // one token per line, columns, blank line between sentences
	// FormatCoNLLU is a dependency treebank, CoNLL-X or CoNLL-U (see
	// [ReadTreebank]).
	FormatCoNLLU = "conllu"
	// FormatCRFsuite is an attribute file in CRFsuite's data format, whose
	// features are used as given (see [ParseCRFsuite]).
	FormatCRFsuite = "crfsuite"
	// FormatLibSVM is a file of labelled feature vectors in the
	// libsvm/svmlight format, one item per line (see [ParseLibSVM]).
	FormatLibSVM = "libsvm"
	// FormatBlobs is the built-in data set of Gaussian blobs (see
	// [DefaultBlobs]): generated, no file.
	FormatBlobs = "blobs"
	// FormatSynth is one of Pletscher et al.'s generated multiclass
	// problems (synth1, synth2, synth3; see [Synth]): its instantiations'
	// training and test draws, its cost matrix the generator's; no file.
	FormatSynth = "synth"
	// FormatMIL is Pletscher et al.'s generated multiple-instance problem
	// (mil-p1, mil-p25: p positives per positive bag; see [PletscherMIL]):
	// bags of instances, its instantiations' training and test draws; no
	// file.
	FormatMIL = "mil"
	// FormatTagged is the IITB CRF package's segment-tagged text ("segment
	// text |label" lines, a blank line after each record; see
	// [ParseTagged]), as Sarawagi's address sample comes.
	FormatTagged = "tagged"
	// FormatBrown is the Brown Corpus's directory (cats.txt and the tagged
	// texts, see [ReadBrown]): one item per text, its genre the class, its
	// words the document a bag of words is fitted on.
	FormatBrown = "brown"
	// FormatPTB is a Penn Treebank bracketed file, or a directory of *.mrg
	// files (see [LoadPhraseTrees]), read through [JohnsonPreprocess].
	FormatPTB = "ptb"
	// FormatMNIST is LeCun's IDX files of MNIST (see [LoadMNIST]): fixed
	// parts, each an image file (…-images-idx3-ubyte[.gz]) with its label
	// file beside it; pixels scaled to [0, 1] as feature vectors.
	FormatMNIST = "mnist"
)

// Formats lists the file formats [Load] reads, sorted.
func Formats() []string {
	return []string{FormatBrown, FormatCoNLL, FormatCoNLLU, FormatCora, FormatCRFsuite, FormatLibSVM, FormatMNIST, FormatOCR, FormatPTB, FormatTagged}
}

// Corpus parts of a corpus read from fixed files (see [Declaration]).
const (
	PartTrain = 0
	PartDev   = 1
	PartTest  = 2
)

// Declaration says where a corpus's files are and how to read them: either
// one file (Path) that random or by-fold splits divide, or fixed parts
// (Train, Dev, Test; Dev optional) as a shared task distributes them.
// Relative paths are below the data directory.
type Declaration struct {
	Name   string
	Format string
	Path   string
	Train  string
	Dev    string
	Test   string
	// Column files: the columns in file order (see [CoNLLFormat.Columns]),
	// the label encoding (see [ParseScheme]) and the text encoding (see
	// [ParseTextEncoding]).
	Columns []string
	Scheme  string
	Charset string
	// Repair reads tags that break the scheme's rules as conlleval does
	// (see [CoNLLFormat.Repair]); [Load] returns what it repaired.
	Repair bool
	// KeepTypes, if set, keeps only these chunk types of a chunk-tagged
	// column file and maps every other chunk to O (see [KeepTypes]): NP
	// chunking on the CoNLL-2000 files.
	KeepTypes []string
	// Obtain says where to get the files, for the message when one is
	// missing.
	Obtain string
	// Cost is a cost matrix Δ(y, y′) over the classes of a vector file
	// (libsvm, blobs), in sorted label order, row y the truth; nil: 0/1.
	Cost [][]float64
	// First keeps only the first First sequences of a one-file corpus
	// (path; cora, ocr or conll), as a paper's sub-corpus of a file's
	// beginning; 0: all.
	First int
	// MaxWords, if not 0, keeps a treebank's (format ptb) trees of at most
	// this many words after preprocessing.
	MaxWords int
}

// Vectorial reports whether the declaration is of labelled feature vectors
// (one class per item: libsvm files, MNIST images and the blobs).
func (d Declaration) Vectorial() bool {
	return d.Format == FormatLibSVM || d.Format == FormatBlobs || d.Format == FormatSynth || d.Format == FormatMNIST
}

// Generated reports whether the declaration's data is generated (the blobs,
// Synth1–3), so that it names no file.
func (d Declaration) Generated() bool {
	return d.Format == FormatBlobs || d.Format == FormatSynth || d.Format == FormatMIL
}

// Instances returns how many independent instantiations, each with its own
// training and test part, a generated dataset holds (splits.kind
// instance); 0 for every other dataset.
func (d Declaration) Instances() int {
	switch d.Format {
	case FormatSynth:
		return SynthInstances
	case FormatMIL:
		return MILInstances
	}
	return 0
}

// Fixed reports whether the declaration names fixed train/dev/test parts.
func (d Declaration) Fixed() bool { return d.Train != "" || d.Test != "" }

// Builtin returns the declaration behind a built-in dataset name (cora, ocr,
// conll2003, conll2000), so that a config may name them alone.
func Builtin(name string) (Declaration, bool) {
	switch name {
	case "cora", "ocr":
		ds := registry()[name]
		return Declaration{Name: name, Format: name, Path: ds.file, Obtain: ds.obtain}, true
	case "conll2003":
		return Declaration{
			Name: name, Format: FormatCoNLL,
			Train:   filepath.Join("conll2003", "eng.train"),
			Dev:     filepath.Join("conll2003", "eng.testa"),
			Test:    filepath.Join("conll2003", "eng.testb"),
			Columns: []string{ColumnWord, "pos", "chunk", ColumnLabel}, Scheme: string(IOB1),
			// eng.train has two B- tags after O (lines 152428 and 175436),
			// which IOB1 forbids; conlleval reads them as chunk starts.
			Repair: true,
			Obtain: "the CoNLL-2003 shared task page https://www.clips.uantwerpen.be/conll2003/ner/ " +
				"(the annotations; the Reuters RCV1 text is licensed separately)",
		}, true
	case "blobs":
		return Declaration{Name: name, Format: FormatBlobs}, true
	case "synth1", "synth2", "synth3":
		return Declaration{Name: name, Format: FormatSynth}, true
	case "mil-p1", "mil-p25":
		return Declaration{Name: name, Format: FormatMIL}, true
	case "mnist":
		return Declaration{
			Name: name, Format: FormatMNIST,
			Train:  filepath.Join("mnist", "train-images-idx3-ubyte.gz"),
			Test:   filepath.Join("mnist", "t10k-images-idx3-ubyte.gz"),
			Obtain: "Yann LeCun's MNIST page http://yann.lecun.com/exdb/mnist/ (the four idx .gz files, labels beside images)",
		}, true
	case "conll2000":
		return Declaration{
			Name: name, Format: FormatCoNLL,
			Train:   filepath.Join("conll2000", "train.txt"),
			Test:    filepath.Join("conll2000", "test.txt"),
			Columns: []string{ColumnWord, "pos", ColumnLabel}, Scheme: string(IOB2),
			Obtain: "the CoNLL-2000 shared task page https://www.clips.uantwerpen.be/conll2000/chunking/ " +
				"(train.txt.gz and test.txt.gz, gunzipped)",
		}, true
	}
	return Declaration{}, false
}

// BuiltinNames lists the names [Builtin] knows, with "synthetic", sorted.
func BuiltinNames() []string {
	return []string{"blobs", "conll2000", "conll2003", "cora", "mil-p1", "mil-p25", "mnist", "ocr", "synth1", "synth2", "synth3", "synthetic"}
}

// Check reports what is wrong with a declaration, before any file is read:
// an unknown format, missing or conflicting paths, settings the format does
// not take. The error names the declaration's field.
func (d Declaration) Check() error {
	switch {
	case d.Generated() && (d.Path != "" || d.Fixed()):
		return &FieldError{"path", fmt.Sprintf("dataset %s is generated: no files", d.Name)}
	case d.Format == FormatMIL && d.Cost != nil:
		return &FieldError{"cost", fmt.Sprintf("dataset %s's loss is 0/1 on the bag label", d.Name)}
	case d.Format == FormatSynth && d.Cost != nil:
		return &FieldError{"cost", fmt.Sprintf("dataset %s has its generator's cost matrix (section 8.1 of Pletscher et al.)", d.Name)}
	case d.Generated():
		return nil
	case d.MaxWords != 0 && d.Format != FormatPTB:
		return &FieldError{"max_words", fmt.Sprintf("applies to format %s only", FormatPTB)}
	case d.MaxWords < 0:
		return &FieldError{"max_words", fmt.Sprintf("must be at least 1, got %d", d.MaxWords)}
	case d.Cost != nil && !d.Vectorial():
		return &FieldError{"cost", fmt.Sprintf("a cost matrix applies to vector files (format %s) only", FormatLibSVM)}
	case !slices.Contains(Formats(), d.Format):
		return &FieldError{"format", fmt.Sprintf("unknown format %q (known: %v)", d.Format, Formats())}
	case d.Path != "" && d.Fixed():
		return &FieldError{"path", "give either path (one file, divided by the splits) or train/dev/test (fixed parts), not both"}
	case d.Format == FormatMNIST && !d.Fixed():
		return &FieldError{"path", fmt.Sprintf("format %s is fixed parts, each an image file with its label file beside it: give train and test (the image files), not path", FormatMNIST)}
	case d.Path == "" && !d.Fixed():
		return &FieldError{"path", "a file is required: path, or train and test"}
	case d.Fixed() && (d.Train == "" || d.Test == ""):
		return &FieldError{"train", "fixed parts need both train and test (dev is optional)"}
	case d.Format != FormatCoNLL && d.Format != FormatCoNLLU && d.Format != FormatCRFsuite && d.Format != FormatLibSVM && d.Format != FormatMNIST && d.Format != FormatTagged && d.Fixed():
		return &FieldError{"train", fmt.Sprintf("format %s reads one file: use path", d.Format)}
	case d.First < 0:
		return &FieldError{"first", fmt.Sprintf("the number of sequences to keep must not be negative, got %d", d.First)}
	case d.First > 0 && (d.Fixed() || d.Format != FormatCora && d.Format != FormatOCR && d.Format != FormatCoNLL):
		return &FieldError{"first", fmt.Sprintf("keeps the beginning of one file (path) of format %s, %s or %s", FormatCora, FormatOCR, FormatCoNLL)}
	}
	if d.Format != FormatCoNLL {
		for field, set := range map[string]bool{"columns": len(d.Columns) > 0, "encoding": d.Scheme != "", "charset": d.Charset != "", "repair": d.Repair, "keep_types": len(d.KeepTypes) > 0} {
			if set {
				return &FieldError{field, fmt.Sprintf("applies to format %s only", FormatCoNLL)}
			}
		}
		return nil
	}
	f, err := d.conllFormat()
	if err != nil {
		return err
	}
	if len(d.KeepTypes) > 0 && f.Scheme == Plain {
		return &FieldError{"keep_types", "keeps chunk types of a chunk encoding (iob1, iob2, ...), not of plain labels (encoding none)"}
	}
	for i, t := range d.KeepTypes {
		if t == "" || slices.Contains(d.KeepTypes[:i], t) {
			return &FieldError{"keep_types", fmt.Sprintf("%q is empty or listed twice", t)}
		}
	}
	return nil
}

// FieldError is a problem with one field of a [Declaration].
type FieldError struct {
	Field  string
	Reason string
}

func (e *FieldError) Error() string { return e.Field + ": " + e.Reason }

func (d Declaration) conllFormat() (CoNLLFormat, error) {
	if d.Scheme == "" {
		return CoNLLFormat{}, &FieldError{"encoding", "the label encoding is required for column files (e.g. iob1, iob2, iobes, none)"}
	}
	sc, err := ParseScheme(d.Scheme)
	if err != nil {
		return CoNLLFormat{}, &FieldError{"encoding", err.Error()}
	}
	var enc TextEncoding
	if d.Charset != "" {
		if enc, err = ParseTextEncoding(d.Charset); err != nil {
			return CoNLLFormat{}, &FieldError{"charset", err.Error()}
		}
	}
	f := CoNLLFormat{Columns: d.Columns, Scheme: sc, Encoding: enc, Repair: d.Repair}
	if err := f.check(); err != nil {
		return CoNLLFormat{}, &FieldError{"columns", err.Error()}
	}
	return f, nil
}

// Loaded is a corpus read by [Load].
type Loaded struct {
	*Corpus
	// Parts gives each sequence's part ([PartTrain], [PartDev], [PartTest])
	// for a corpus of fixed parts; nil otherwise.
	Parts []int
	// Repairs lists the tags read as conlleval reads them (Repair only).
	Repairs []*ParseError
	// Treebank holds the trees of a treebank (format conllu), in the
	// order of Corpus.Sequences, whose Tokens are the words, Labels each
	// word's head (0 = the root) and Columns the fine tags, then the
	// coarse ones.
	Treebank *Treebank
	// Attributes holds the given features of an attribute file (format
	// crfsuite), in the order of Corpus.Sequences; nil for other formats.
	Attributes *Attributes
	// Vectors holds the feature vectors of a vector file (libsvm, blobs),
	// one per item of Corpus.Sequences (see [VectorCorpus]); nil for
	// other formats.
	Vectors []structpred.SparseVec
	// Instances gives each item's instantiation (from 0) of a generated
	// dataset with several (see [Declaration.Instances]), whose Parts say
	// train or test within it; nil otherwise.
	Instances []int
	// Cost is the cost matrix a generated dataset brings (Synth1–3); nil
	// otherwise.
	Cost [][]float64
	// Bags holds the instances of each bag of a multiple-instance dataset
	// (format mil), one per item of Corpus.Sequences, whose one label is
	// the bag's (class 0 "-1", class 1 "+1"); nil otherwise.
	Bags [][]structpred.SparseVec
	// Docs holds the words of each text of a document corpus (format
	// brown), in the order of Corpus.Sequences; nil for other formats.
	Docs [][]string
	// PhraseTrees holds a treebank's trees (format ptb), preprocessed, in
	// the order of Corpus.Sequences; nil for other formats.
	PhraseTrees []PhraseTree
}

// Load reads a declared corpus from the data directory dir (source says how
// dir was chosen, for messages; see [ResolveDataDir]). For fixed parts the
// corpus holds train, then dev, then test sentences. Column files have one
// label list across their parts.
func Load(dir, source string, d Declaration) (l *Loaded, err error) {
	if err := d.Check(); err != nil {
		return nil, fmt.Errorf("dataset %q: %w", d.Name, err)
	}
	defer func() {
		if err != nil {
			err = fmt.Errorf("dataset %q: %w", d.Name, err)
		}
	}()
	var c *Corpus
	var repairs []*ParseError
	switch d.Format {
	case FormatCoNLLU:
		return loadTreebanks(dir, source, d)
	case FormatCRFsuite:
		return loadAttributeFiles(dir, source, d)
	case FormatLibSVM, FormatBlobs:
		return loadVectorFiles(dir, source, d)
	case FormatSynth:
		return loadSynth(d.Name)
	case FormatMNIST:
		return loadMNIST(dir, source, d)
	case FormatMIL:
		return loadMIL(d.Name)
	case FormatTagged:
		return loadTaggedFiles(dir, source, d)
	case FormatPTB:
		if d.Path == "" {
			return nil, &FieldError{"path", "a treebank is one file or a directory of *.mrg files: give it as path"}
		}
		path := resolve(dir, d.Path)
		raw, err := LoadPhraseTrees(path)
		if err != nil {
			return nil, missing(err, path, d.Path, dir, source, d.Obtain)
		}
		trees := PreprocessPhraseTrees(raw, d.MaxWords)
		if len(trees) == 0 {
			return nil, fmt.Errorf("%s: no tree left after preprocessing (max_words %d)", path, d.MaxWords)
		}
		return &Loaded{Corpus: PhraseCorpus(d.Name, trees), PhraseTrees: trees}, nil
	case FormatBrown:
		if d.Path == "" {
			return nil, &FieldError{"path", "the Brown corpus is a directory: give it as path"}
		}
		path := resolve(dir, d.Path)
		texts, err := ReadBrown(path)
		if err != nil {
			return nil, missing(err, path, d.Path, dir, source, d.Obtain)
		}
		c, docs := BrownCorpus(d.Name, texts)
		return &Loaded{Corpus: c, Docs: docs}, nil
	}
	if len(d.KeepTypes) > 0 {
		defer func() {
			if err == nil {
				err = KeepTypes(l.Corpus, d.KeepTypes)
			}
		}()
	}
	if !d.Fixed() {
		path := resolve(dir, d.Path)
		switch d.Format {
		case FormatCora:
			c, err = LoadCora(path)
		case FormatOCR:
			c, err = LoadOCR(path)
		case FormatCoNLL:
			var f CoNLLFormat
			if f, err = d.conllFormat(); err == nil {
				c, repairs, err = LoadCoNLL(path, f)
			}
		}
		if err != nil {
			return nil, missing(err, path, d.Path, dir, source, d.Obtain)
		}
		if d.First > 0 {
			if d.First > len(c.Sequences) {
				return nil, &FieldError{"first", fmt.Sprintf("%s has %d sequences, fewer than the %d to keep", d.Path, len(c.Sequences), d.First)}
			}
			c.Sequences = c.Sequences[:d.First:d.First]
		}
		c.Name = d.Name
		return &Loaded{Corpus: c, Repairs: repairs}, nil
	}
	f, err := d.conllFormat()
	if err != nil {
		return nil, err
	}
	var files, rel []string
	var ids []int
	for part, p := range []string{d.Train, d.Dev, d.Test} {
		if p != "" {
			files, rel, ids = append(files, resolve(dir, p)), append(rel, p), append(ids, part)
		}
	}
	for i, path := range files {
		if _, err := os.Stat(path); err != nil {
			return nil, missing(err, path, rel[i], dir, source, d.Obtain)
		}
	}
	cs, repairs, err := LoadCoNLLFiles(files, f)
	if err != nil {
		return nil, err
	}
	c = &Corpus{Name: d.Name, Labels: cs[0].Labels}
	var parts []int
	for i, part := range cs {
		c.Sequences = append(c.Sequences, part.Sequences...)
		for range part.Sequences {
			parts = append(parts, ids[i])
		}
	}
	return &Loaded{Corpus: c, Parts: parts, Repairs: repairs}, nil
}

// loadAttributeFiles reads an attribute file, or the fixed parts of one
// corpus in attribute files with one label list.
func loadAttributeFiles(dir, source string, d Declaration) (*Loaded, error) {
	rel, ids := []string{d.Path}, []int{-1}
	if d.Fixed() {
		rel, ids = nil, nil
		for part, p := range []string{d.Train, d.Dev, d.Test} {
			if p != "" {
				rel, ids = append(rel, p), append(ids, part)
			}
		}
	}
	files := make([]string, len(rel))
	for i, p := range rel {
		files[i] = resolve(dir, p)
		if _, err := os.Stat(files[i]); err != nil {
			return nil, missing(err, files[i], p, dir, source, d.Obtain)
		}
	}
	cs, as, err := LoadCRFsuiteFiles(files)
	if err != nil {
		return nil, err
	}
	l := &Loaded{Corpus: &Corpus{Name: d.Name, Labels: cs[0].Labels}, Attributes: &Attributes{}}
	for i, c := range cs {
		n := len(l.Sequences)
		l.Sequences = append(l.Sequences, c.Sequences...)
		l.Attributes.Names = append(l.Attributes.Names, as[i].Names...)
		if as[i].Values != nil && l.Attributes.Values == nil {
			l.Attributes.Values = make([][][]float64, n)
		}
		if l.Attributes.Values != nil {
			vs := as[i].Values
			if vs == nil {
				vs = make([][][]float64, len(c.Sequences))
			}
			l.Attributes.Values = append(l.Attributes.Values, vs...)
		}
		if ids[i] >= 0 {
			for range c.Sequences {
				l.Parts = append(l.Parts, ids[i])
			}
		}
	}
	return l, nil
}

// loadTreebanks reads a treebank's file or fixed parts.
func loadTreebanks(dir, source string, d Declaration) (*Loaded, error) {
	files := []string{d.Path}
	ids := []int{-1}
	if d.Fixed() {
		files, ids = nil, nil
		for part, p := range []string{d.Train, d.Dev, d.Test} {
			if p != "" {
				files, ids = append(files, p), append(ids, part)
			}
		}
	}
	l := &Loaded{Corpus: &Corpus{Name: d.Name}, Treebank: &Treebank{Name: d.Name}}
	for i, rel := range files {
		path := resolve(dir, rel)
		tb, err := LoadTreebank(path)
		if err != nil {
			return nil, missing(err, path, rel, dir, source, d.Obtain)
		}
		for _, t := range tb.Trees {
			l.Treebank.Trees = append(l.Treebank.Trees, t)
			l.Sequences = append(l.Sequences, TreeSequence(t))
			if ids[i] >= 0 {
				l.Parts = append(l.Parts, ids[i])
			}
		}
	}
	return l, nil
}

func resolve(dir, p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(dir, p)
}

// missing turns a file-not-found error into one that says where the file was
// looked for, how the data directory was chosen, and where to get the file.
func missing(err error, path, rel, dir, source, obtain string) error {
	if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	shown := path
	if abs, absErr := filepath.Abs(path); absErr == nil && abs != path {
		shown = fmt.Sprintf("%s (%s)", path, abs)
	}
	where := "."
	if obtain != "" {
		where = fmt.Sprintf("; obtain %s from %s and place it at <data dir>/%s", filepath.Base(rel), obtain, filepath.ToSlash(rel))
	}
	return fmt.Errorf("no file at %s; the data directory %q was chosen by %s, change it with --data DIR or the %s environment variable%s: %w",
		shown, dir, source, EnvDataDir, where, err)
}

// PartSplit returns the split of a corpus with fixed parts (see [Load]):
// train on the train part, test on the test part, and the development part
// (empty if the corpus has none) for choosing hyperparameters.
func PartSplit(parts []int) (split Split, dev []int, err error) {
	for i, p := range parts {
		switch p {
		case PartTrain:
			split.Train = append(split.Train, i)
		case PartDev:
			dev = append(dev, i)
		case PartTest:
			split.Test = append(split.Test, i)
		default:
			return Split{}, nil, fmt.Errorf("sequence %d: unknown part %d", i, p)
		}
	}
	if len(split.Train) == 0 || len(split.Test) == 0 {
		return Split{}, nil, fmt.Errorf("fixed parts need training and test sequences, got %d and %d", len(split.Train), len(split.Test))
	}
	return split, dev, nil
}
