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
//     standard deviation over splits of the metrics its task declares
//     (package metrics: [Run.Metrics] by name, in the task's table
//     order), e.g. "12.3±0.8/74.9±1.2" for token error / span F1. A row
//     shows its first two metrics on its line and each further one on a
//     line of its own (a segmentation row: segment error / span F1, then
//     token error), with an "error" column naming each line's first
//     metric; a metric only some of a row's runs have is left out, with a
//     warning.
//     The best cell of each row is marked, and every rendering carries a
//     legend that says what the cells are, their unit, over how many
//     splits, and what the marks mean. A cell in which some
//     split chose a hyperparameter at the lowest or highest value of its
//     grid is marked "†" and explained under the table ([GridEdges],
//     [EdgeNote]), since the best value may then lie outside the grid.
//   - Paired t-tests between configured pairs of trainers over the splits
//     both have run ([PairedTTest]), reported as absolute differences in
//     percentage points (in the metric's unit where it is no percentage),
//     as in section 5 of the paper; on one split McNemar's test and a
//     paired bootstrap ([McNemar], [SpanF1Bootstrap]); over folds whose
//     test parts are disjoint ([Folds]), McNemar's test with the item as
//     unit pooled over them, for the metrics that declare it ([Sign]).
//   - A cost table of mean training seconds (CPU and wall-clock when every
//     run has a CPU time, [Run.CPUSeconds]; wall-clock otherwise),
//     iterations and constraints.
//   - Renderers for plain text ([Table.WriteText]), Markdown
//     ([Table.WriteMarkdown]), CSV with raw numbers ([Table.WriteCSV]) and
//     LaTeX with booktabs ([Table.WriteLaTeX]).
//   - Learning-curve figures in the style of Figures 1 and 2 of the paper
//     ([Figure], [SaveFigure]): one line per trainer of any metric or
//     training time against training size, with ±1
//     standard deviation error bars over splits (the legend says so), written as
//     PNG, SVG and PDF. Lines are dodged sideways by a small step so that
//     their bars do not overlap; time axes start at zero. A figure that
//     names no task is drawn for every task ([ExpandFigures]): as NAME
//     when the runs have one task, as NAME-TASK each when they have
//     several.
//   - [ComparePaper], which sets the numbers a paper reports
//     ([PaperReference]) beside ours from the same [Table], with the
//     difference ours − paper, taken only between the same metric, so
//     that a report shows at a
//     glance what reproduces ([PaperTable.WriteText],
//     [PaperTable.WriteMarkdown], [PaperTable.WriteCSV]).
//   - [WriteAll], which writes all of the above and an index.html summary
//     into a results directory, as described by a [Spec] stored there as
//     report.json; [ReportDir] re-renders a directory from its runs.jsonl
//     and report.json alone. This is what `repro report DIR` runs.
//   - [DiffRuns] and [Diff], which compare two sets of runs of a config
//     (a regeneration with what is committed) field by field, leaving out
//     times, memory and the code version. This is what
//     `repro diff` and `repro verify` compare with.
//
// Summarize first builds every cell as a plain string; the renderers only
// escape those strings and apply their own marker for the best cell, so all
// formats show the same numbers.
package report
