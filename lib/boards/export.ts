/**
 * Tables for the overview paper (issue 24 §2): a leaderboard as a LaTeX `tabular` with booktabs
 * rules, or as a GitHub Markdown pipe table, built from the {@link Leaderboard} that
 * `getLeaderboard` returns (or a final results snapshot's stored board read back into that
 * shape, `snapshots.ts`). Pure functions: no database, no clock (the date printed is the
 * board's `generatedAt`).
 *
 * Columns ({@link boardExportColumns}), after Rank, Team and System:
 * - on the phase-level board of a phase with several datasets: the macro-average of the ranking
 *   metric in the ranked setting ("Macro avg."), then, when the board is ranked by one dataset
 *   (`rankDataset`) with another metric than the CoNLL F1, that ranking value, then one column
 *   per dataset in the phase's order: the run's CoNLL F1 on it in the ranked setting (what the
 *   board carries per dataset), a dataset the run left out as 0.00 with a dagger and a note
 *   under the table;
 * - on any other board (one dataset, or one dataset's own board): the ranking metric's F1 in the
 *   ranked setting, then the primary setting's MUC, B³, CEAFe and CoNLL F1 (the classic CoNLL-2012
 *   table), leaving out the one the first column already is and those no row has.
 * Scores are percentages with 2 decimals, as the site shows them. In each score column the best
 * value among the ranked rows (rank not null: no baseline, no disqualified, hidden or otherwise
 * unranked run) is bold, compared at the printed precision, so that ties are all bold; a board
 * without ranked rows has nothing bold. A row without a rank, or a cell without a score, shows a
 * dash (`--` in LaTeX, `–` in Markdown). Baselines, and disqualified and hidden runs listed among
 * the others, say so after the system's name.
 *
 * Rows are the board's, in its order (as the JSON lists them), or, with `disqualifiedApart`
 * (the final results snapshots), the disqualified runs after all the others, in a block of their
 * own under a "Disqualified" heading.
 *
 * Facts about the table (task, phase, track, dataset, setting, metric, which runs, the
 * generation date, and the caller's `notes`) go in `%` comment lines above the `tabular`, and in
 * an HTML comment above the Markdown table: invisible once typeset or rendered.
 */
import { CONLL_PARTS, METRIC_LABELS, type LeaderboardMetric } from "../validations/metrics";
import type { BoardMetricsJson } from "./scores";
import type { BoardDataset, BoardEvaluation, BoardPage, BoardTrack, Leaderboard, LeaderboardRow } from "./types";

/**
 * A board as the table builders read it: every {@link Leaderboard} is one; a snapshot's stored
 * board is read back into it.
 */
export interface ExportBoard {
  task: Pick<Leaderboard["task"], "slug" | "title">;
  /** `selectionRule`: BEST, LATEST or TEAM_SELECTED (absent: not said) */
  phase: Pick<Leaderboard["phase"], "name"> & { selectionRule?: string };
  evaluation: Pick<BoardEvaluation, "label" | "variants">;
  metric: LeaderboardMetric;
  /** the variant id the board is ranked by, or null for the primary setting */
  variant: string | null;
  track: Pick<BoardTrack, "name"> | null;
  /** the phase's datasets in order (one, or none when not known, for a phase with one dataset) */
  datasets: readonly Pick<BoardDataset, "name">[];
  /** the dataset whose own board this is, or null */
  dataset: Pick<BoardDataset, "name"> | null;
  /** the dataset ranking the phase-level board, or null */
  rankDataset: string | null;
  allRuns: boolean;
  generatedAt: Date;
  /** `team`: the team-name filter the rows were read with (null or absent: none) */
  page?: Pick<BoardPage, "team">;
  rows: readonly LeaderboardRow[];
}

/** How a table is built. */
export interface BoardExportOptions {
  /** the disqualified runs after all the others, under a "Disqualified" heading (default false: the board's order) */
  disqualifiedApart?: boolean;
  /** more facts for the comment lines above the table, one line each (e.g. where the numbers come from) */
  notes?: readonly string[];
}

/** A score column of an exported table. */
export interface ExportColumn {
  /** stable id, e.g. `rank-value`, `macro`, `dataset:cs`, `metric:muc` */
  key: string;
  /** the header as plain text (Markdown escapes it) */
  header: string;
  /** the header as LaTeX source (already escaped) */
  latexHeader: string;
  /** the row's value in this column, a fraction in [0, 1], or null when it has none */
  value: (row: LeaderboardRow) => number | null;
  /** true when the row's value is a 0 standing for a dataset the run left out */
  missing: (row: LeaderboardRow) => boolean;
}

/** LaTeX for the characters of {@link latexEscape}. */
const LATEX_SPECIAL: Readonly<Record<string, string>> = {
  "\\": "\\textbackslash{}",
  "&": "\\&",
  "%": "\\%",
  $: "\\$",
  "#": "\\#",
  _: "\\_",
  "{": "\\{",
  "}": "\\}",
  "~": "\\textasciitilde{}",
  "^": "\\textasciicircum{}",
  // The default (OT1) text font has no <, > or |: math mode prints them in every setup.
  "<": "$<$",
  ">": "$>$",
  "|": "$|$",
  // "--" and "---" would become dashes.
  "-": "-{}",
};

/** Control characters and line/paragraph separators: a space in a cell or a comment. */
const CONTROL = /[\u0000-\u001f\u007f\u2028\u2029]/g;

/**
 * Text (a team, system, dataset or track name) as LaTeX source that typesets as the text:
 * `\ & % $ # _ { } ~ ^` escaped, `< > |` in math mode (the default text font lacks them), a
 * hyphen before another hyphen kept from forming a dash, control characters and line breaks as
 * spaces. Other characters (letters with accents, …) are left as they are (UTF-8).
 *
 * @param text any text
 * @returns the LaTeX source, e.g. `R\&D\_team 50\%` for `R&D_team 50%`
 */
export function latexEscape(text: string): string {
  return text.replace(CONTROL, " ").replace(/[\\&%$#_{}~^<>|]|-(?=-)/g, (c) => LATEX_SPECIAL[c]!);
}

/**
 * Text as the content of a GitHub Markdown table cell that renders as the text: `|` escaped as
 * `\|` (it would end the cell), and the characters that start emphasis, code, links, HTML,
 * strike-through or entities (`` \ ` * _ [ ] < > ~ & ``) backslash-escaped; control characters
 * and line breaks (a cell is one line) become spaces.
 *
 * @param text any text
 * @returns the Markdown source, e.g. `a\|b \*c\*` for `a|b *c*`
 */
export function markdownEscape(text: string): string {
  return text.replace(CONTROL, " ").replace(/[\\`*_[\]<>|~&]/g, (c) => `\\${c}`);
}

/** A fraction as the site prints it: a percentage with 2 decimals, e.g. 0.63157 → `63.16`. */
export function formatScore(value: number): string {
  return (value * 100).toFixed(2);
}

/**
 * The board's rows split for the snapshots' order: `listed`, every row that is not disqualified
 * (ranked runs, baselines and other unranked rows, in the board's order), and `disqualified`,
 * the disqualified runs in the board's order.
 *
 * @param rows rows in board order (a row is disqualified when its `disqualified` is set)
 */
export function partitionDisqualified<R extends { disqualified?: unknown }>(rows: readonly R[]): { listed: R[]; disqualified: R[] } {
  const listed: R[] = [];
  const disqualified: R[] = [];
  for (const row of rows) (row.disqualified ? disqualified : listed).push(row);
  return { listed, disqualified };
}

/** The F1 of `metric` in `scores` (a fraction), or null when the run has none. */
function f1Of(scores: BoardMetricsJson | undefined, metric: LeaderboardMetric): number | null {
  if (!scores) return null;
  if (metric === "conll") return scores.conll?.f1 ?? null;
  if (metric === "blanc") return scores.blanc?.f1 ?? null;
  return scores[metric]?.f1 ?? null;
}

/** A metric's name in a LaTeX header (B³, CEAFe and CEAFm with real super- and subscripts). */
function latexMetric(metric: LeaderboardMetric): string {
  switch (metric) {
    case "bcub":
      return "B\\textsuperscript{3}";
    case "ceafe":
      return "CEAF\\textsubscript{e}";
    case "ceafm":
      return "CEAF\\textsubscript{m}";
    default:
      return latexEscape(METRIC_LABELS[metric]);
  }
}

/** The label of the board's ranked variant, or null for the primary setting. */
function variantLabel(board: ExportBoard): string | null {
  if (board.variant === null) return null;
  return board.evaluation.variants.find((v) => v.id === board.variant)?.label ?? board.variant;
}

/** True for the macro-averaged board of a phase with several datasets. */
function isMacroBoard(board: ExportBoard): boolean {
  return board.datasets.length > 1 && board.dataset === null;
}

/**
 * The score columns of a board's table, in order (see the module comment): on the macro-averaged
 * board of a phase with several datasets the macro-average, the ranking value of a `rankDataset`
 * board when it is not a dataset column already, and one column per dataset; on any other board
 * the ranking metric's F1, then MUC, B³, CEAFe and CoNLL F1 of the primary setting (without the
 * ranking column's twin and without those no row has).
 *
 * @param board a board ({@link ExportBoard})
 * @returns the columns; Rank, Team and System come before them and are not listed
 */
export function boardExportColumns(board: ExportBoard): ExportColumn[] {
  const label = METRIC_LABELS[board.metric];
  const setting = variantLabel(board);
  const inSetting = (row: LeaderboardRow) => (board.variant === null ? row.scores : row.variants[board.variant]);
  const never = () => false;
  const primaryConll = board.metric === "conll" && board.variant === null;
  if (isMacroBoard(board)) {
    const suffix = primaryConll ? "" : ` ${label}${setting ? ` (${setting})` : ""}`;
    const latexSuffix = primaryConll ? "" : ` ${latexMetric(board.metric)}${setting ? ` (${latexEscape(setting)})` : ""}`;
    const columns: ExportColumn[] = [
      { key: "macro", header: `Macro avg.${suffix}`, latexHeader: `Macro avg.${latexSuffix}`, value: (row) => f1Of(inSetting(row), board.metric), missing: never },
    ];
    // Ranked by one dataset's CoNLL F1 (in the ranked setting): its own column holds the value.
    if (board.rankDataset !== null && board.metric !== "conll") {
      columns.push({
        key: "rank-value",
        header: `${board.rankDataset}${suffix}`,
        latexHeader: `${latexEscape(board.rankDataset)}${latexSuffix}`,
        value: (row) => row.value,
        missing: (row) => row.datasets[board.rankDataset!]?.missing === true,
      });
    }
    const datasetSuffix = primaryConll ? "" : ` (CoNLL${setting ? `, ${setting}` : ""})`;
    const latexDatasetSuffix = primaryConll ? "" : ` (CoNLL${setting ? `, ${latexEscape(setting)}` : ""})`;
    for (const { name } of board.datasets) {
      columns.push({
        key: `dataset:${name}`,
        header: `${name}${datasetSuffix}`,
        latexHeader: `${latexEscape(name)}${latexDatasetSuffix}`,
        value: (row) => row.datasets[name]?.conllF1 ?? null,
        missing: (row) => row.datasets[name]?.missing === true && row.datasets[name]?.conllF1 !== null,
      });
    }
    return columns;
  }
  const columns: ExportColumn[] = [
    {
      key: "rank-value",
      header: `${label}${setting ? ` (${setting})` : ""}`,
      latexHeader: `${latexMetric(board.metric)}${setting ? ` (${latexEscape(setting)})` : ""}`,
      value: (row) => row.value,
      missing: never,
    },
  ];
  for (const metric of [...CONLL_PARTS, "conll"] as LeaderboardMetric[]) {
    if (metric === board.metric && board.variant === null) continue;
    if (!board.rows.some((row) => f1Of(row.scores, metric) !== null)) continue;
    columns.push({ key: `metric:${metric}`, header: METRIC_LABELS[metric], latexHeader: latexMetric(metric), value: (row) => f1Of(row.scores, metric), missing: never });
  }
  return columns;
}

/** Per column key, the best printed value among the ranked rows (absent: no ranked row has one). */
function bestValues(columns: readonly ExportColumn[], rows: readonly LeaderboardRow[]): Map<string, string> {
  const best = new Map<string, string>();
  for (const column of columns) {
    let top: number | null = null;
    for (const row of rows) {
      if (row.rank === null) continue;
      const value = column.value(row);
      if (value !== null && Number.isFinite(value) && (top === null || value > top)) top = value;
    }
    if (top !== null) best.set(column.key, formatScore(top));
  }
  return best;
}

/** A row's cell in one column, for either format. */
interface Cell {
  /** the printed value, or null for a dash */
  text: string | null;
  bold: boolean;
  missing: boolean;
}

function cellOf(column: ExportColumn, row: LeaderboardRow, best: Map<string, string>): Cell {
  const value = column.value(row);
  if (value === null || !Number.isFinite(value)) return { text: null, bold: false, missing: false };
  const text = formatScore(value);
  return { text, bold: row.rank !== null && best.get(column.key) === text, missing: column.missing(row) };
}

/** The words after a system's name: baseline, and (when listed among the others) disqualified or hidden. */
function rowMarkers(row: LeaderboardRow, disqualifiedApart: boolean): string[] {
  const out: string[] = [];
  if (row.isBaseline) out.push("baseline");
  if (row.disqualified && !disqualifiedApart) out.push("disqualified");
  if (row.hidden) out.push("hidden");
  return out;
}

/** Text for a comment line: control characters and line breaks as spaces. */
function commentText(text: string): string {
  return text.replace(CONTROL, " ");
}

/** How a board's runs were chosen, for the comment lines. */
function runsLine(board: ExportBoard): string {
  const rule: Record<string, string> = {
    BEST: "each team's best run",
    LATEST: "each team's latest run",
    TEAM_SELECTED: "each team's best run among those it marked final (else its latest)",
  };
  const which = board.allRuns ? "every run" : `one run per team${board.phase.selectionRule ? ` (${rule[board.phase.selectionRule] ?? board.phase.selectionRule})` : ""}`;
  const team = board.page?.team ? `; teams whose name contains "${board.page.team}"` : "";
  return `Runs: ${which}${team}`;
}

/** The facts above a table, one line each (without comment markers). */
function metadataLines(board: ExportBoard, dash: string, options: BoardExportOptions): string[] {
  const setting = variantLabel(board);
  const lines = [
    `Corefboard leaderboard: ${board.task.title} (${board.task.slug})`,
    `Phase: ${board.phase.name}`,
    ...(board.track ? [`Track: ${board.track.name}`] : []),
    ...(board.dataset ? [`Dataset: ${board.dataset.name} (this dataset's own board)`] : []),
    `Setting: ${board.evaluation.label}; ${setting ? `variant ${setting} (${board.variant})` : "primary setting"}`,
    `Metric: ranked by ${METRIC_LABELS[board.metric]} F1${board.rankDataset ? ` on the ${board.rankDataset} dataset` : ""}${isMacroBoard(board) ? `; Macro avg. = mean over the datasets; dataset columns: CoNLL F1, ${setting ? `variant ${setting}` : "primary setting"}` : ""}`,
    runsLine(board),
    `Generated: ${board.generatedAt.toISOString()}`,
    `Scores: F1 in percent (2 decimals); bold: the best value of each column among ranked runs (ties all bold); ${dash}: no rank, or no score`,
    ...(options.notes ?? []),
  ];
  return lines.map(commentText);
}

/** The rows of a table and its disqualified block, as the options order them. */
function tableRows(board: ExportBoard, options: BoardExportOptions): { listed: readonly LeaderboardRow[]; disqualified: readonly LeaderboardRow[] } {
  return options.disqualifiedApart ? partitionDisqualified(board.rows) : { listed: board.rows, disqualified: [] };
}

/** The footnote of a left-out dataset, in words. */
const MISSING_NOTE = "no file for this dataset in the run: it counts as 0";

/**
 * The board as a LaTeX `tabular` with booktabs rules (`\toprule`, `\midrule`, `\bottomrule`;
 * the document needs `\usepackage{booktabs}`), preceded by `%` comment lines with the task,
 * phase, track, dataset, setting or variant, metric, runs, generation date and `options.notes`.
 * Column spec `rll` then one `r` per score column ({@link boardExportColumns}); the header row
 * names them; every row ends with `\\`. A rank-less row shows `--`; bold is `\textbf{}`; a
 * dataset the run left out shows `0.00$^\dagger$`, explained in a last row under the bottom
 * rule. With `disqualifiedApart`, the disqualified runs follow the others after a `\midrule`,
 * a `% Disqualified` comment and a `\multicolumn` row "Disqualified", each run's reason in a
 * comment line above its row. Every name is escaped ({@link latexEscape}).
 *
 * @param board the board (a {@link Leaderboard} or a snapshot's stored board read back)
 * @param options {@link BoardExportOptions}
 * @returns the LaTeX source, ending with a newline
 */
export function boardLatex(board: ExportBoard, options: BoardExportOptions = {}): string {
  const columns = boardExportColumns(board);
  const best = bestValues(columns, board.rows);
  const width = 3 + columns.length;
  const { listed, disqualified } = tableRows(board, options);
  let anyMissing = false;
  const row = (r: LeaderboardRow): string => {
    const markers = rowMarkers(r, options.disqualifiedApart === true);
    const system = `${latexEscape(r.systemName)}${markers.length > 0 ? ` (${markers.join(", ")})` : ""}`;
    const cells = columns.map((c) => {
      const cell = cellOf(c, r, best);
      if (cell.text === null) return "--";
      anyMissing ||= cell.missing;
      const text = cell.bold ? `\\textbf{${cell.text}}` : cell.text;
      return cell.missing ? `${text}$^\\dagger$` : text;
    });
    return `${[r.rank === null ? "--" : String(r.rank), latexEscape(r.team.name), system, ...cells].join(" & ")} \\\\`;
  };
  const lines = metadataLines(board, "--", options).map((line) => `% ${line}`);
  lines.push("% Needs \\usepackage{booktabs} in the preamble.");
  lines.push(`\\begin{tabular}{rll${"r".repeat(columns.length)}}`, "\\toprule");
  lines.push(`${["Rank", "Team", "System", ...columns.map((c) => c.latexHeader)].join(" & ")} \\\\`, "\\midrule");
  if (board.rows.length === 0) lines.push("% No run is on this board.");
  for (const r of listed) lines.push(row(r));
  if (disqualified.length > 0) {
    lines.push("\\midrule", "% Disqualified: unranked, listed after the ranking", `\\multicolumn{${width}}{l}{\\textit{Disqualified}} \\\\`);
    for (const r of disqualified) {
      lines.push(`% ${commentText(`${r.team.name} / ${r.systemName}: ${r.disqualified?.reason ?? ""}`)}`, row(r));
    }
  }
  lines.push("\\bottomrule");
  if (anyMissing) lines.push(`\\multicolumn{${width}}{l}{\\footnotesize $^\\dagger$ ${MISSING_NOTE}.} \\\\`);
  lines.push("\\end{tabular}");
  return `${lines.join("\n")}\n`;
}

/** Text inside an HTML comment: no `--` (it could end the comment). */
function htmlCommentText(text: string): string {
  return commentText(text).replace(/-{2,}/g, "-");
}

/** One Markdown table: header, alignment row and rows. */
function markdownTable(headers: readonly string[], alignRight: readonly boolean[], rows: readonly (readonly string[])[]): string[] {
  const line = (cells: readonly string[]) => `| ${cells.join(" | ")} |`;
  return [line(headers), line(alignRight.map((right) => (right ? "---:" : ":---"))), ...rows.map(line)];
}

/**
 * The board as a GitHub Markdown pipe table: an HTML comment with the facts of {@link boardLatex}
 * (and `options.notes`), then the table: Rank, Team, System and the score columns
 * ({@link boardExportColumns}), the best value per column in `**bold**`, `–` for a row without a
 * rank or a cell without a score, `0.00†` for a dataset the run left out (explained in a line
 * under the table). With `disqualifiedApart`, the disqualified runs are in a second table under
 * a "**Disqualified**" line, with a last column giving the organizers' reason. Names are escaped
 * ({@link markdownEscape}; `|` as `\|`).
 *
 * @param board the board (a {@link Leaderboard} or a snapshot's stored board read back)
 * @param options {@link BoardExportOptions}
 * @returns the Markdown source, ending with a newline
 */
export function boardMarkdown(board: ExportBoard, options: BoardExportOptions = {}): string {
  const columns = boardExportColumns(board);
  const best = bestValues(columns, board.rows);
  const { listed, disqualified } = tableRows(board, options);
  let anyMissing = false;
  const cells = (r: LeaderboardRow): string[] => {
    const markers = rowMarkers(r, options.disqualifiedApart === true);
    const system = `${markdownEscape(r.systemName)}${markers.length > 0 ? ` (${markers.join(", ")})` : ""}`;
    return [
      r.rank === null ? "–" : String(r.rank),
      markdownEscape(r.team.name),
      system,
      ...columns.map((c) => {
        const cell = cellOf(c, r, best);
        if (cell.text === null) return "–";
        anyMissing ||= cell.missing;
        const text = cell.bold ? `**${cell.text}**` : cell.text;
        return cell.missing ? `${text}†` : text;
      }),
    ];
  };
  const headers = ["Rank", "Team", "System", ...columns.map((c) => markdownEscape(c.header))];
  const align = [true, false, false, ...columns.map(() => true)];
  const out = ["<!--", ...metadataLines(board, "–", options).map(htmlCommentText), "-->", ""];
  out.push(...markdownTable(headers, align, listed.map(cells)));
  if (disqualified.length > 0) {
    const rows = disqualified.map((r) => [...cells(r), markdownEscape(r.disqualified?.reason ?? "")]);
    out.push("", "**Disqualified** (unranked, listed after the ranking)", "", ...markdownTable([...headers, "Reason"], [...align, false], rows));
  }
  if (anyMissing) out.push("", `† ${MISSING_NOTE}.`);
  return `${out.join("\n")}\n`;
}
