package experiments

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"sync"

	"github.com/maxmargin/repro/datasets"
	"github.com/maxmargin/repro/experiments/config"
	"github.com/maxmargin/repro/features"
	"github.com/maxmargin/repro/structpred"
	tasklib "github.com/maxmargin/repro/tasks"
)

// preparedData is a dataset with its features extracted once, when a unit
// first needs them, and shared read-only by every unit that uses it.
type preparedData struct {
	name   string
	hash   string
	labels []string
	seqs   []structpred.Sequence
	attrs  [][][]string // per sequence, per token: attribute strings (see attrsOf)
	folds  []int        // per sequence: its fold, for fold splits
	parts  []int        // per sequence: its fixed part (datasets.PartTrain...), for fixed splits
	// instances holds each sequence's instantiation of a generated dataset
	// (splits.kind instance), its part within it in parts; nil otherwise.
	instances []int
	// bags are a multiple-instance dataset's bags (tasks.Corpus.Bags).
	bags [][]structpred.SparseVec
	// values, for given attributes with values (datasets.Attributes.Values),
	// scale attrs; nil when every value is 1, as for every template.
	values [][][]float64
	// chunked marks labels with chunk prefixes (O, B-X, I-X), scored as
	// conlleval scores them.
	chunked bool
	// scheme is a chunk-tagged corpus file's label encoding.
	scheme datasets.Scheme
	// features are the settings its attributes were extracted with (and
	// its units train with).
	features config.UnitFeatures
	// columns names a column file's declared extra columns, which NER
	// features conjoin by name (undeclared ones are c1, c2, ... by
	// position; see tagger.Features).
	columns []string
	// arcs, for a treebank, prepare each sentence's arc features (attrs is
	// then empty: arc features are hashed when a unit encodes them).
	arcs []*features.Dependency
	// pixels, for letter images, are each sequence's tokens, whose
	// attributes (features.Pixels of pixelDegree) attrsOf makes when asked
	// instead of keeping them in attrs: degree 2 gives a letter about 450
	// attribute strings, about 0.5 GB of them for the OCR corpus, which
	// every unit held while it trained although it reads most only once,
	// to predict its test part.
	pixels      [][]string
	pixelDegree int
	// pixelUnit scales pixel features to unit norm (features.normalize:
	// unit): valuesOf makes each sequence's values with its attributes.
	pixelUnit bool
	// vectors are a vector dataset's items (libsvm, blobs), features
	// given with the data; cost its declared cost matrix (nil: 0/1).
	vectors []structpred.SparseVec
	cost    [][]float64
	// docs are a document corpus's texts (format brown); tree a
	// dataset's taxonomy, whose tree loss is then cost.
	docs [][]string
	tree *tasklib.ClassTree
	// trees are a treebank's phrase-structure trees (format ptb).
	trees []datasets.PhraseTree
	// alignments are generated alignment examples.
	alignments *tasklib.AlignmentData

	// mu guards pending and released, and the feature fields above (attrs,
	// arcs, pixels, pixelDegree) while they are extracted: read those only
	// after ensureFeatures returned nil. pending extracts the features when
	// a unit first needs them; it is nil once they are extracted, or when
	// the dataset was released. release also clears seqs and values, which
	// units read without mu: it must not run while a unit of d runs.
	mu       sync.Mutex
	pending  func(context.Context) error
	released bool
}

// release drops d's sequences and features for good (its units have run,
// or this process runs another dataset's).
func (d *preparedData) release() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.seqs, d.attrs, d.values, d.arcs, d.pixels, d.vectors, d.docs, d.trees, d.alignments = nil, nil, nil, nil, nil, nil, nil, nil, nil
	d.pending, d.released = nil, true // the closure holds the corpus
}

// ensureFeatures extracts d's features if they are not yet: a process that
// runs one unit of a config with many datasets (repro unit, a child of
// --executor process) extracts only its own dataset's. Cancelling ctx stops
// the extraction between sequences, and a later call starts it again.
func (d *preparedData) ensureFeatures(ctx context.Context) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	switch {
	case d.released:
		return fmt.Errorf("dataset %q was released: this process runs units of another dataset", d.name)
	case d.pending == nil:
		return nil
	}
	if err := d.pending(ctx); err != nil {
		return fmt.Errorf("dataset %q: %w", d.name, err)
	}
	d.pending = nil
	return nil
}

// attrsOf returns the attributes of sequence i.
func (d *preparedData) attrsOf(i int) [][]string {
	if d.pixels == nil {
		return d.attrs[i]
	}
	attrs, err := features.Pixels(d.pixels[i], d.pixelDegree)
	if err != nil {
		panic(err) // extract checked every sequence's tokens
	}
	return attrs
}

// valuesOf returns the values of sequence i's attributes (nil: all 1).
func (d *preparedData) valuesOf(i int) [][]float64 {
	if d.pixelUnit {
		v, err := features.PixelValues(d.pixels[i], d.pixelDegree)
		if err != nil {
			panic(err) // extract checked every sequence's tokens
		}
		return v
	}
	if d.values == nil {
		return nil
	}
	return d.values[i]
}

// valued reports whether some attribute of d has a value other than 1.
func (d *preparedData) valued() bool { return d.values != nil || d.pixelUnit }

// pickAttrs returns the attributes of the sequences ids.
func (d *preparedData) pickAttrs(ids []int) [][][]string {
	out := make([][][]string, len(ids))
	for j, i := range ids {
		out[j] = d.attrsOf(i)
	}
	return out
}

// prepare loads every dataset and extracts its features once. Cancelling
// ctx stops it between sequences.
func prepare(ctx context.Context, cfg *config.Config, opt Options) ([]*preparedData, error) {
	return load(ctx, cfg, opt, true)
}

// load loads every dataset, as prepare does, but extracts features up
// front only when eager is true; otherwise each dataset's are extracted
// when a unit first asks for them (ensureFeatures), but for letter images,
// whose pixel features are checked at load. Planning needs none: a unit's key
// holds its data's fingerprint, sizes and parts, not its attributes. On a
// config of several datasets (a feature ablation is eight over one file),
// extracting them all took most of a small unit's process: about 0.55 of
// the 0.85 CPU s a cora-ablation child spent before its unit began, 13 of
// 15 s on conll03-ablation.
func load(ctx context.Context, cfg *config.Config, opt Options, eager bool) ([]*preparedData, error) {
	var out []*preparedData
	for i, spec := range cfg.Datasets {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		loaded, alignments, err := loadDataset(spec, opt)
		if err != nil {
			return nil, err
		}
		corpus, parts := loaded.Corpus, loaded.Parts
		tree, err := spec.Tree(cfg.File())
		if err != nil {
			return nil, err
		}
		if tree != nil {
			if corpus, err = tree.Relabel(corpus); err != nil {
				return nil, fmt.Errorf("dataset %q: taxonomy: %w", spec.Name, err)
			}
		}
		if n := len(loaded.Repairs); n > 0 && opt.Progress != nil {
			fmt.Fprintf(opt.Progress, "repro: warning: dataset %q: %d tags break the label encoding's rules and were read as conlleval reads them (repair: true), first: %v\n", spec.Name, n, loaded.Repairs[0])
		}
		decl := spec.Declaration()
		cost := decl.Cost
		if loaded.Cost != nil { // a generated dataset's own (Synth1–3 refuse a declared one)
			cost = loaded.Cost
		}
		d := &preparedData{name: spec.Name, labels: corpus.Labels, seqs: corpus.Sequences, parts: parts, instances: loaded.Instances,
			hash:     corpusHash(corpus, parts, loaded.Attributes, loaded.Vectors, cost, loaded.Bags),
			chunked:  spec.Synthetic == nil && decl.Format == datasets.FormatCoNLL && !strings.EqualFold(decl.Scheme, string(datasets.Plain)),
			features: cfg.FeaturesOf(i).Resolved()}
		if loaded.Docs != nil || tree != nil {
			d.hash = documentsHash(d.hash, loaded.Docs, tree)
		}
		if loaded.PhraseTrees != nil {
			d.hash = treebankHash(d.hash, loaded.PhraseTrees)
		}
		if alignments != nil {
			d.hash = fingerprintHash(d.hash, alignments.Fingerprint())
		}
		d.columns = extraColumns(decl)
		if d.chunked {
			if d.scheme, err = datasets.ParseScheme(decl.Scheme); err != nil {
				return nil, fmt.Errorf("dataset %q: %w", spec.Name, err)
			}
		}
		if cfg.Splits.Kind == config.SplitFile {
			if err := cfg.LoadedSplitFile().Check(len(corpus.Sequences), spec.Name); err != nil {
				return nil, fmt.Errorf("splits.path: %w", err)
			}
		}
		switch {
		case loaded.PhraseTrees != nil: // the cfg task's features are its grammar's rules
			d.trees = loaded.PhraseTrees
		case alignments != nil: // the alignment task's features are its substitution pairs
			d.alignments = alignments
		case loaded.Vectors != nil: // features.kind given (validateFeatures)
			d.vectors, d.cost = loaded.Vectors, cost
			if tree != nil {
				d.cost, d.tree = tree.Cost(), tree
			}
		case loaded.Bags != nil: // features.kind given (validateFeatures)
			d.bags = loaded.Bags
		case loaded.Docs != nil: // features.kind given (validateFeatures)
			d.docs, d.cost = loaded.Docs, cost
			if tree != nil {
				d.cost, d.tree = tree.Cost(), tree
			}
		case cfg.Features.Kind == config.FeaturesGiven:
			if err := givenAttributes(d, loaded.Attributes, cfg.Tasks); err != nil {
				return nil, fmt.Errorf("dataset %q: %w", spec.Name, err)
			}
		default:
			d.pending = func(ctx context.Context) error {
				d.attrs, d.arcs, d.pixels = nil, nil, nil // what a cancelled extraction left
				return extract(ctx, d, cfg, corpus)
			}
		}
		// Letter images are checked when they load even then: that is cheap
		// (their attributes are made on demand), and a malformed image
		// should stop repro plan and repro slurm before any unit is queued.
		if eager || cfg.Features.Kind == config.FeaturesPixels {
			if err := d.ensureFeatures(ctx); err != nil {
				return nil, err
			}
		}
		switch cfg.Splits.Kind {
		case config.SplitFold:
			if d.folds, err = datasets.OCRFolds(corpus); err != nil {
				return nil, fmt.Errorf("dataset %q has no folds for fold splits: %w", spec.Name, err)
			}
		case config.SplitFixed:
			if parts == nil {
				return nil, fmt.Errorf("dataset %q has no fixed parts for fixed splits: declare train, dev and test files", spec.Name)
			}
		}
		out = append(out, d)
	}
	return out, nil
}

// extract computes d's features with the config's templates, sequence by
// sequence (cancelling ctx stops it between them).
func extract(ctx context.Context, d *preparedData, cfg *config.Config, corpus *datasets.Corpus) error {
	if cfg.Features.Kind == config.FeaturesDependency {
		arcs, err := tasklib.ArcFeatures(ctx, corpus.Sequences)
		d.arcs = arcs
		return err
	}
	text := d.features.Tagger(d.columns) // citation and NER features, as package tagger extracts them
	// Every token's attributes are strings of their own, and most repeat
	// ("w=the" thousands of times): keeping one copy of each leaves CoNLL'03's
	// 9M attributes of eng.train, testa and testb in about half the memory,
	// which every unit holds while it trains.
	interned := make(map[string]string)
	intern := func(attrs [][]string) [][]string {
		for _, tok := range attrs {
			for j, a := range tok {
				if c, ok := interned[a]; ok {
					tok[j] = c
				} else {
					interned[a] = a
				}
			}
		}
		return attrs
	}
	for _, s := range corpus.Sequences {
		if err := ctx.Err(); err != nil {
			return err
		}
		if k := cfg.Features.Kind; k == config.FeaturesNER || k == config.FeaturesCitation || k == config.FeaturesChunking {
			d.attrs = append(d.attrs, intern(text.Extract(s.Tokens, s.Columns)))
			continue
		}
		// Degree 1 checks the tokens as degree 2 would, at a fraction of
		// the cost; attrsOf makes the attributes.
		if _, err := features.Pixels(s.Tokens, 1); err != nil {
			return fmt.Errorf("sequence %s: %w", s.ID, err)
		}
		d.pixels = append(d.pixels, s.Tokens)
	}
	d.pixelDegree = cfg.Features.Degree
	d.pixelUnit = d.features.Normalize == config.NormalizeUnit
	return nil
}

// givenAttributes makes an attribute file's attributes d's features, as
// they are. Values other than 1 scale the chain model's features only, so
// they are refused for the other tasks' models rather than read as 1.
func givenAttributes(d *preparedData, a *datasets.Attributes, tasks []string) error {
	if a == nil {
		return fmt.Errorf("features.kind %s needs attributes of its own (format %s)", config.FeaturesGiven, datasets.FormatCRFsuite)
	}
	if a.Valued() {
		for _, task := range tasks {
			if task != config.TaskSequence {
				return fmt.Errorf("its attributes have values other than 1, which only the %s task's model uses; task %s would read them as 1", config.TaskSequence, task)
			}
		}
	}
	d.attrs, d.values = a.Names, a.Values
	return nil
}

// extraColumns names a column file's columns other than the word and the
// label, in file order (the NER features conjoin them by name).
func extraColumns(d datasets.Declaration) []string {
	return datasets.CoNLLFormat{Columns: d.Columns}.ExtraColumns()
}

// loadDataset reads a dataset, or generates the synthetic one. parts is nil
// unless the dataset has fixed train/dev/test parts.
func loadDataset(spec config.DatasetSpec, opt Options) (*datasets.Loaded, *tasklib.AlignmentData, error) {
	if spec.Alignment != nil {
		c, a, err := tasklib.AlignmentCorpus(spec.Name, spec.Alignment.Examples, spec.Alignment.Seed)
		if err != nil {
			return nil, nil, fmt.Errorf("dataset %q: %w", spec.Name, err)
		}
		return &datasets.Loaded{Corpus: c}, a, nil
	}
	if spec.Synthetic != nil { // resolved by ParseConfig for the synthetic dataset
		c, err := datasets.Synthetic(spec.Synthetic.Generator())
		if err != nil {
			return nil, nil, err
		}
		return &datasets.Loaded{Corpus: c}, nil, nil
	}
	l, err := datasets.Load(opt.DataDir, opt.DataSource, spec.Declaration())
	return l, nil, err
}

// corpusHash fingerprints a corpus's content (tokens, labels, segments, extra
// columns, fixed parts, given attributes and their values, feature vectors
// and a cost matrix), so cached units are invalidated when the data
// changes. Columns, parts, attributes, vectors and costs enter only when
// present, so corpora without them keep the fingerprint they had before
// any existed.
func corpusHash(c *datasets.Corpus, parts []int, a *datasets.Attributes, vectors []structpred.SparseVec, cost [][]float64, bags [][]structpred.SparseVec) string {
	h := sha256.New()
	for _, l := range c.Labels {
		fmt.Fprintf(h, "L%q\n", l)
	}
	for _, s := range c.Sequences {
		fmt.Fprintf(h, "S%q%v%v\n", s.Tokens, s.Labels, s.Segments)
		if len(s.Columns) > 0 {
			fmt.Fprintf(h, "C%q\n", s.Columns)
		}
	}
	if parts != nil {
		fmt.Fprintf(h, "P%v\n", parts)
	}
	if a != nil {
		for i, names := range a.Names {
			fmt.Fprintf(h, "A%q\n", names)
			if a.Values != nil && a.Values[i] != nil {
				fmt.Fprintf(h, "V%v\n", a.Values[i])
			}
		}
	}
	for _, x := range vectors {
		fmt.Fprintf(h, "X%v%v\n", x.Idx, x.Val)
	}
	if cost != nil {
		fmt.Fprintf(h, "D%v\n", cost)
	}
	for _, b := range bags {
		h.Write([]byte("B"))
		for _, x := range b {
			fmt.Fprintf(h, "%v%v", x.Idx, x.Val)
		}
		h.Write([]byte("\n"))
	}
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// documentsHash extends a corpus's fingerprint with its documents' words
// and its taxonomy's nodes and embedding.
func documentsHash(base string, docs [][]string, tree *tasklib.ClassTree) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\n", base)
	for _, d := range docs {
		fmt.Fprintf(h, "W%q\n", d)
	}
	if tree != nil {
		fmt.Fprintf(h, "%s\n", tree.Fingerprint())
	}
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// treebankHash extends a corpus's fingerprint with its trees in bracketed
// form.
func treebankHash(base string, trees []datasets.PhraseTree) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\n", base)
	if err := datasets.WritePhraseTrees(h, trees); err != nil {
		panic(err) // trees read from a bracketed file write back
	}
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// fingerprintHash extends a corpus's fingerprint with a description of
// data a task generated.
func fingerprintHash(base, fingerprint string) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\n%s\n", base, fingerprint)
	return hex.EncodeToString(h.Sum(nil)[:8])
}
