package report

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/maxmargin/repro/internal/atomicfile"
	"io"
	"io/fs"
	"path/filepath"
)

// Names of the files of a results directory that ReportDir reads.
const (
	RunsFile = "runs.jsonl"
	SpecFile = "report.json"
)

// Result describes a report written by [ReportDir].
type Result struct {
	Table *Table // the summarized runs, e.g. for printing with WriteText
	// Files are the names of the files written, relative to the directory,
	// in the order written.
	Files []string
	// Warnings are problems that did not stop the report, such as a torn
	// last line of runs.jsonl or a missing report.json.
	Warnings []error
}

// WriteAll renders the whole report of runs into dir, each file atomically:
//
//   - table.md, table.txt, table.csv and table.tex: the [Table] that
//     [Summarize] makes with the spec's trainers, comparisons and
//     token-only tasks;
//   - paper.md, paper.txt and paper.csv, when spec.Paper is set: the
//     paper's values beside ours ([ComparePaper]);
//   - NAME.png, NAME.svg and NAME.pdf for every figure of spec ([Figure],
//     [SaveFigure]);
//   - index.html: a summary showing the results table, the comparison
//     with the paper, the paired t-tests, the training cost, the figures
//     (embedded as PNG data: URIs) and, if dir holds a config.yaml, that
//     config. It needs no other file, so it can be copied or mailed alone;
//     its links to the other files (relative) work beside them.
//
// Everything is rendered before the first file is written, so an invalid
// spec or a figure without runs leaves dir as it was.
func WriteAll(dir string, runs []Run, spec Spec) error {
	_, err := writeAll(dir, runs, spec)
	return err
}

// ReportDir renders the report of a results directory from its runs.jsonl
// and report.json with [WriteAll]; it needs no training. Without
// report.json it writes the tables and index.html for the zero [Spec] and
// says so in the warnings; a torn last line of runs.jsonl is skipped with a
// warning too (see [ReadRuns]).
func ReportDir(dir string) (*Result, error) {
	runs, warnings, err := ReadRunsFile(filepath.Join(dir, RunsFile))
	if err != nil {
		return nil, err
	}
	spec, err := ReadSpec(filepath.Join(dir, SpecFile))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		warnings = append(warnings, fmt.Errorf("report: no %s in %s: writing tables only, with default column order and no figures", SpecFile, dir))
	case err != nil:
		return nil, err
	}
	res, err := writeAll(dir, runs, spec)
	if err != nil {
		return nil, err
	}
	res.Warnings = warnings
	return res, nil
}

func writeAll(dir string, runs []Run, spec Spec) (*Result, error) {
	if err := spec.Validate(); err != nil {
		return nil, err
	}
	t, err := Summarize(runs, spec.options())
	if err != nil {
		return nil, err
	}
	var paper *PaperTable
	if spec.Paper != nil {
		paper = ComparePaper(t, *spec.Paper)
	}
	figures, err := renderFigures(runs, spec)
	if err != nil {
		return nil, err
	}
	page, err := newIndexPage(dir, runs, spec, t, paper, figures)
	if err != nil {
		return nil, err
	}

	// Render every text file into memory first, so that a rendering error
	// cannot leave some files new and others old.
	type rendering struct {
		name  string
		write func(io.Writer) error
	}
	renderings := []rendering{
		{"table.md", t.WriteMarkdown},
		{"table.txt", t.WriteText},
		{"table.csv", t.WriteCSV},
		{"table.tex", t.WriteLaTeX},
	}
	if paper != nil {
		renderings = append(renderings,
			rendering{"paper.md", paper.WriteMarkdown},
			rendering{"paper.txt", paper.WriteText},
			rendering{"paper.csv", paper.WriteCSV},
		)
	}
	index := indexTemplate()
	renderings = append(renderings, rendering{"index.html", func(w io.Writer) error { return index.Execute(w, page) }})
	texts := make([][]byte, len(renderings))
	for i, r := range renderings {
		var buf bytes.Buffer
		if err := r.write(&buf); err != nil {
			return nil, fmt.Errorf("report: rendering %s: %w", r.name, err)
		}
		texts[i] = buf.Bytes()
	}

	// index.html goes last: it links the other files.
	last := len(renderings) - 1
	res := &Result{Table: t}
	for i, r := range renderings[:last] {
		if err := writeFileAtomic(filepath.Join(dir, r.name), texts[i]); err != nil {
			return nil, err
		}
		res.Files = append(res.Files, r.name)
	}
	for _, f := range figures {
		for _, ext := range figureFormats() {
			name := f.spec.Name + "." + ext
			if err := writeFileAtomic(filepath.Join(dir, name), f.files[ext]); err != nil {
				return nil, err
			}
			res.Files = append(res.Files, name)
		}
	}
	if err := writeFileAtomic(filepath.Join(dir, renderings[last].name), texts[last]); err != nil {
		return nil, err
	}
	res.Files = append(res.Files, renderings[last].name)
	return res, nil
}

// renderedFigure is one figure of a report, drawn in every format.
type renderedFigure struct {
	spec  FigureSpec // task resolved (see ExpandFigures)
	files map[string][]byte
	bars  string // what the error bars are, for a caption
}

// renderFigures draws every figure of spec, a figure without a task once
// per task, into memory.
func renderFigures(runs []Run, spec Spec) ([]renderedFigure, error) {
	figs, err := ExpandFigures(runs, spec.Figures)
	if err != nil {
		return nil, err
	}
	out := make([]renderedFigure, len(figs))
	for i, f := range figs {
		b, err := buildFigure(runs, f, spec.Trainers)
		if err != nil {
			return nil, err
		}
		files, err := renderFigure(b.plot)
		if err != nil {
			return nil, fmt.Errorf("report: figure %s: %w", f.Name, err)
		}
		out[i] = renderedFigure{spec: f, files: files, bars: b.caption()}
	}
	return out, nil
}

// writeFileAtomic is the shared atomic writer, errors prefixed with the
// package.
func writeFileAtomic(path string, data []byte) error {
	if err := atomicfile.WriteFile(path, data); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}
