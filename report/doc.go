// Package report reads the result records written by experiment runs and
// renders them as the tables of the reproduced papers.
//
// The package knows nothing of training. Its inputs are [Run] records, one
// final test evaluation per (dataset, task, trainer, split, train fraction),
// stored one JSON object per line in a runs.jsonl file ([WriteRuns],
// [ReadRuns], [ReadRunsFile]). Its outputs are:
//
//   - [Summarize], which aggregates runs into a [Table] in the layout of
//     Table 1 of Sarawagi & Gupta (ICML 2008): rows are (task, dataset[,
//     train fraction]), columns are trainers, and each cell is the mean ±
//     standard deviation over splits of token error and span F1, e.g.
//     "12.3±0.8/74.9±1.2" (token error only for tasks without spans, such
//     as parsing). The best cell of each row is marked.
//   - Paired t-tests between configured pairs of trainers over the splits
//     both have run ([PairedTTest]), reported as absolute differences in
//     percentage points, as in section 5 of the paper.
//   - A cost table of mean training seconds, iterations and constraints.
//   - Renderers for plain text ([Table.WriteText]), Markdown
//     ([Table.WriteMarkdown]), CSV with raw numbers ([Table.WriteCSV]) and
//     LaTeX with booktabs ([Table.WriteLaTeX]).
//
// Summarize first builds every cell as a plain string; the renderers only
// escape those strings and apply their own marker for the best cell, so all
// formats show the same numbers.
package report
