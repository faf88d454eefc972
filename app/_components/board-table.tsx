/**
 * The leaderboard table (issue 12 §2). Rank, team and system come first and stay in place when
 * the table scrolls sideways (`position: sticky` with an opaque background, inside a
 * keyboard-reachable scroll region); the column that ranks the board follows at once, then its
 * 95 % intervals when shown, then the other metrics (each F1; recall and precision too with
 * `showRp`), the secondary variants' and datasets' columns, and the submission time last (the
 * order is `boardTableColumns`'s, lib/view-models/board-columns.ts). Scores are percentages
 * with 2 decimals under a "(%)" header, the exact value in each cell's `title`.
 *
 * Sorting: a header is a link to the board ranked by its column (when the page gives the
 * links: `columns` from the view model), `aria-sort="descending"` marks the ranking column, and
 * each metric name has a small separate "?" link to its explanation page (`/metrics/<id>`).
 *
 * The best value of each score column is bold, with "best in this column" for screen readers
 * (`columnBests`: ties all marked), and the datasets' columns of a macro-averaged board are
 * grouped by language under a two-row header (short names, the full name in the hover text
 * and for screen readers) and lightly shaded by each value's share of the column's best
 * (Tailwind palette colours, dark text: AA contrast).
 *
 * On phones only rank and team stay in place (team names break between words); the system
 * scrolls with the scores, in a narrower box.
 *
 * With significance facts, a run not significantly different from the run listed directly
 * above it carries a "≈" marker linking to the comparison of the two. On the macro-averaged
 * board of a phase with several datasets, a dataset a run left out shows 0 with a "missing"
 * marker; on a dataset's own board such a run is marked "missing". A run the organizers
 * disqualified is struck through, without a rank, with "disqualified: <reason>" under its name.
 *
 * Leaderboard policy (issue 11 §2, §4): the viewer's own team's rows are highlighted (a sky
 * background and a bar on the left, `data-own="true"`) and say "(your team)" in words; on a
 * team-selected board a team represented by its latest run says "latest run: no final run
 * chosen"; on the organizers' board a hidden run is marked "hidden" and a run made after the
 * freeze "after the freeze".
 *
 * Static markup: host elements and plain function components only, links as plain `<a>` (no
 * client component inside), so that the leaderboard page can render it once per board version
 * as an HTML fragment (`renderStaticMarkup`, `cached-board-table.tsx`); a page that shows it
 * inside `ClientLinks` keeps its links' navigation client-side.
 */
import { compareHref, metricHref, submissionHref } from "@/lib/hrefs";
import type { BoardMetricsJson, BoardDataset, BoardSignificance, LeaderboardRow } from "@/lib/boards";
import { METRIC_LABELS, type LeaderboardMetric } from "@/lib/validations/metrics";
import { rankingPhrase, settingInSentence } from "@/lib/view-models/leaderboard-text";
import { boardTableColumns, cellKey, columnBests, HEAT_STEPS, heatLevel, SCORE_PART_LABEL, type BoardColumn, type ColumnBest, type DatasetGroup, type ScorePart } from "@/lib/view-models/board-columns";
import { blancTitle, conllTitle, f1Title, ratioTitle } from "./board-numbers";
import { ScoreValue, ScrollRegion, UtcTime } from "./ui";

export { rankingPhrase, settingInSentence };

/** One score cell's value and hover text, or null when the run lacks the metric. `setting` names a variant's setting in the text. */
function scoreCell(scores: BoardMetricsJson, metric: LeaderboardMetric, part: ScorePart, setting?: string): { value: number; title: string } | null {
  if (metric === "conll") return scores.conll ? { value: scores.conll.f1, title: conllTitle(scores.conll.f1, setting) } : null;
  if (metric === "blanc") return scores.blanc ? { value: scores.blanc[part], title: blancTitle(scores.blanc, part) } : null;
  const s = scores[metric];
  if (!s) return null;
  if (part === "f1") return { value: s.f1, title: `${setting ? `${METRIC_LABELS[metric]} (${setting}) ` : ""}${f1Title(s)}` };
  return part === "recall"
    ? { value: s.recall, title: `${METRIC_LABELS[metric]} recall ${ratioTitle(s.recall_num, s.recall_den, s.recall)}` }
    : { value: s.precision, title: `${METRIC_LABELS[metric]} precision ${ratioTitle(s.precision_num, s.precision_den, s.precision)}` };
}

/**
 * The fixed columns' cells and the boxes of set width inside them (classes in app/globals.css,
 * which gives their widths and offsets).
 */
const FIXED = {
  rank: { cell: "lb-c1", box: "lb-b1" },
  team: { cell: "lb-c2", box: "lb-b2" },
  system: { cell: "lb-c3", box: "lb-b3" },
} as const;

/** Header cells' common look (small dark-grey text: 7.7:1 on white; app/globals.css). */
const TH = "lb-th";

/** The ranking column's background. */
const RANKED_BG = "bg-amber-50";

/**
 * The shading of a dataset cell by {@link heatLevel} (index 0: none): light palette colours
 * that keep the cell's dark text above 4.5:1, and let the row's own background (own team,
 * baseline) show through.
 */
const HEAT: readonly string[] = ["", "bg-emerald-50/50", "bg-emerald-50", "bg-emerald-100/60", "bg-emerald-100"];
if (HEAT.length !== HEAT_STEPS + 1) throw new Error("board-table: one shading class per heat level");

/** A cell without a value. */
function Dash({ title }: { title?: string }) {
  return (
    <span className="text-zinc-600" title={title}>
      —
    </span>
  );
}

/** The props of {@link BoardTable} (see its parameters). */
export interface BoardTableProps {
  rows: LeaderboardRow[];
  metric: LeaderboardMetric;
  showRp: boolean;
  significance?: BoardSignificance | null;
  intervals?: boolean;
  columns?: BoardColumn[];
  best?: Record<string, ColumnBest>;
  bestLabel?: string;
  teamHref?: (teamId: string) => string;
  variants?: readonly { id: string; label: string }[];
  rankedVariant?: string | null;
  trackName?: string | null;
  datasets?: readonly (Pick<BoardDataset, "name" | "scored"> & Partial<Pick<BoardDataset, "language">>)[];
  rankDataset?: string | null;
  datasetName?: string | null;
}

/**
 * The table.
 *
 * @param rows the board's rows (this page's) in board order
 * @param metric the ranking metric
 * @param showRp show recall and precision next to each F1
 * @param significance the board's stored bootstrap facts (markers; intervals when computed), or null
 * @param intervals show the 95 % interval column (default: when `significance` has an interval
 *   for any run)
 * @param columns the score columns from the page's view model (`leaderboardView(…).columns`, with
 *   sorting links); absent: laid out here without sorting links (e.g. a published final board)
 * @param teamHref the page of a team's progress in this phase
 * @param variants the secondary variants of the task's evaluation profile (one CoNLL F1 column each)
 * @param rankedVariant the variant the board is ranked by, or null for the primary setting
 * @param trackName the board's track, named in the caption; null for a phase without tracks
 * @param datasets the datasets whose CoNLL F1 columns to show (the macro-averaged board of a
 *   phase with several datasets; none otherwise)
 * @param rankDataset the dataset the board is ranked by, or null
 * @param datasetName on a dataset's own board, its name (caption and "missing" marker); else null
 * @param best the best of each score column (`leaderboardView(…).best`); absent: computed here
 *   from `rows` (`columnBests`)
 * @param bestLabel what a screen reader hears after a best value (default "best in this column")
 */
export function BoardTable({
  rows,
  metric,
  showRp,
  significance = null,
  intervals,
  columns,
  best,
  bestLabel = "best in this column",
  teamHref,
  variants = [],
  rankedVariant = null,
  trackName = null,
  datasets = [],
  rankDataset = null,
  datasetName = null,
}: BoardTableProps) {
  const showCi = intervals ?? hasIntervals(significance);
  const laidOut = columns ?? boardTableColumns({ rows, metric, showRp, variants, rankedVariant, datasets, rankDataset, intervals: showCi });
  const rankedLabel = variants.find((v) => v.id === rankedVariant)?.label ?? null;
  const rankedPhrase = rankingPhrase(metric, variants.length === 0 ? null : (rankedLabel ?? "primary"));
  const bests = best ?? columnBests(rows, laidOut);
  const marks: CellMarks = { bests, bestLabel };
  const groups = datasetGroupSpans(laidOut);
  const twoRows = laidOut.some((c) => (c.kind === "metric" && c.parts.length > 1) || (c.kind === "dataset" && c.group !== null));
  const span = twoRows ? 2 : 1;
  const caption = `Leaderboard${datasetName !== null ? ` of the ${datasetName} dataset` : ""}${trackName !== null ? ` of the ${trackName} track` : ""} ranked by ${rankedPhrase}${rankDataset !== null ? ` on the ${rankDataset} dataset` : ""}`;
  return (
    <div className="rounded-lg border border-zinc-200 bg-white shadow-sm">
      <ScrollRegion label={`${caption} (scrolls sideways; rank and team stay in place)`} testId="leaderboard-scroll">
        <table className="lb w-full border-separate border-spacing-0 text-sm tabular-nums" data-testid="leaderboard-table">
          <caption className="sr-only">
            {caption}
            {showRp ? ", with recall and precision" : ""}
          </caption>
          <thead className="text-xs uppercase tracking-wide text-zinc-700">
            <tr className="bg-white">
              <th scope="col" rowSpan={span} className={`${TH} ${FIXED.rank.cell} text-right`} data-testid="col-rank">
                <div className={FIXED.rank.box}>Rank</div>
              </th>
              <th scope="col" rowSpan={span} className={`${TH} ${FIXED.team.cell} text-left`} data-testid="col-team">
                <div className={FIXED.team.box}>Team</div>
              </th>
              <th scope="col" rowSpan={span} className={`${TH} ${FIXED.system.cell} text-left`} data-testid="col-system">
                <div className={FIXED.system.box}>System</div>
              </th>
              {laidOut.map((c) => {
                if (c.kind === "dataset" && c.group !== null) {
                  const group = groups.get(c.key);
                  return group ? <GroupHeader key={`group-${c.key}`} group={group.group} span={group.span} /> : null;
                }
                return <ColumnHeader key={c.key} column={c} span={span} />;
              })}
            </tr>
            {twoRows && (
              <tr className="bg-white">
                {laidOut.flatMap((c) =>
                  c.kind === "metric" && c.parts.length > 1
                    ? c.parts.map((p) => (
                        <th key={`${c.key}-${p}`} scope="col" className={`${TH} px-2 text-right ${c.ranked ? RANKED_BG : ""}`} data-testid={`col-${c.metric}-${p}`}>
                          <abbr title={`${METRIC_LABELS[c.metric]} ${SCORE_PART_LABEL[p].name}`} className="no-underline">
                            {SCORE_PART_LABEL[p].short}
                          </abbr>
                        </th>
                      ))
                    : c.kind === "dataset" && c.group !== null
                      ? [<ColumnHeader key={c.key} column={c} span={1} />]
                      : [],
                )}
              </tr>
            )}
          </thead>
          <tbody>
            {rows.map((row) => (
              <BoardRow
                key={row.submissionId}
                row={row}
                columns={laidOut}
                significance={significance}
                teamHref={teamHref}
                rankedPhrase={rankedPhrase}
                rankDataset={rankDataset}
                datasetName={datasetName}
                marks={marks}
              />
            ))}
          </tbody>
        </table>
      </ScrollRegion>
    </div>
  );
}

/** {@link hasIntervals}' answers, per significance object (the stored facts are kept per board version). */
const intervalsKnown = new WeakMap<BoardSignificance, boolean>();

/**
 * Whether the board's significance facts have a 95 % interval for any run (the table then shows
 * the interval column). The facts have a row per run of the board: the answer is kept per object.
 */
export function hasIntervals(significance: BoardSignificance | null): boolean {
  if (significance === null) return false;
  let known = intervalsKnown.get(significance);
  if (known === undefined) intervalsKnown.set(significance, (known = Object.values(significance.rows).some((r) => r.interval !== null)));
  return known;
}

/** The best of each column and the words that say so, for the cells. */
interface CellMarks {
  bests: Record<string, ColumnBest>;
  bestLabel: string;
}

/**
 * The groups of the datasets' columns in the header's first row: for the first column of each
 * run of consecutive columns of one group, that group and how many columns it spans.
 */
function datasetGroupSpans(columns: readonly BoardColumn[]): Map<string, { group: DatasetGroup; span: number }> {
  const spans = new Map<string, { group: DatasetGroup; span: number }>();
  let open: { group: DatasetGroup; span: number } | null = null;
  for (const c of columns) {
    if (c.kind !== "dataset" || c.group === null) {
      open = null;
      continue;
    }
    if (open && open.group.key === c.group.key) open.span++;
    else spans.set(c.key, (open = { group: c.group, span: 1 }));
  }
  return spans;
}

/** The header cell over a group of datasets' columns: their language (its name on hover), or "CoNLL F1 (%) per dataset". */
function GroupHeader({ group, span }: { group: DatasetGroup; span: number }) {
  return (
    <th scope="colgroup" colSpan={span} className={`${TH} border-l border-zinc-200 px-2 text-center normal-case`} data-testid={`col-group-${group.key || "datasets"}`}>
      {group.title && group.title !== group.label ? (
        <abbr title={group.title} className="no-underline">
          {group.label}
        </abbr>
      ) : (
        group.label
      )}
    </th>
  );
}

/** The test id of a column's header (`col-…`) or cells (`cell-…`). */
function columnTestId(prefix: "col" | "cell", c: BoardColumn): string {
  switch (c.kind) {
    case "metric":
      return `${prefix}-${c.metric}`;
    case "variant":
      return c.metric === "conll" ? `${prefix}-variant-${c.variant.id}` : `${prefix}-variant-${c.variant.id}-${c.metric}`;
    case "dataset":
      return `${prefix}-dataset-${c.dataset.name}`;
    case "ranked-value":
      return `${prefix}-dataset-ranked`;
    case "interval":
      return `${prefix}-ci`;
    case "submitted":
      return `${prefix}-submitted`;
  }
}

/** A score column's header: its name (a sorting link unless it ranks the board), the explanation link of a metric, the ranking marker. */
function ColumnHeader({ column: c, span }: { column: BoardColumn; span: number }) {
  const group = c.kind === "metric" && c.parts.length > 1;
  const align = group ? "text-center" : c.kind === "submitted" ? "whitespace-nowrap text-left" : "text-right";
  const className = `${TH} px-2 normal-case ${align} ${c.ranked ? RANKED_BG : ""}`;
  // Variant, dataset and ranked-value columns name their setting or dataset over the metric;
  // the macro-averaged CoNLL F1 (and ranking metric) says so over its label.
  const over =
    c.kind === "variant" ? c.variant.label : c.kind === "dataset" ? c.dataset.name : c.kind === "ranked-value" ? c.dataset : c.kind === "metric" ? (c.over ?? null) : null;
  const title =
    c.kind === "variant"
      ? `${METRIC_LABELS[c.metric]} F1 under the ${settingInSentence(c.variant.label)} setting (a secondary variant of the task's evaluation profile)`
      : c.kind === "dataset"
        ? c.dataset.scored
          ? `${rankingPhrase("conll", c.setting)} on the ${c.dataset.name} dataset${c.dataset.language ? ` (${c.dataset.language})` : ""}`
          : `The ${c.dataset.name} dataset has no gold key yet: not counted in the macro-average`
        : c.kind === "metric" && c.over
          ? `${METRIC_LABELS[c.metric]} F1, the macro-average over the datasets`
          : undefined;
  const name =
    c.kind === "dataset" && c.group !== null ? (
      // A dataset under its group: the short name (the full one for screen readers and on hover).
      c.short !== c.dataset.name ? (
        <>
          <span aria-hidden="true">{c.short}</span>
          <span className="sr-only">{c.dataset.name}</span>
        </>
      ) : (
        c.dataset.name
      )
    ) : (
      <>
        {over !== null && <span className="block">{over}</span>}
        <span className={over !== null ? "block font-normal text-zinc-700" : undefined}>{c.label}</span>
      </>
    );
  const sortTestId = c.kind === "metric" ? `sort-${c.metric}` : c.kind === "variant" ? `variant-link-${c.variant.id}` : c.kind === "dataset" ? `dataset-link-${c.dataset.name}` : undefined;
  return (
    <th
      scope={group ? "colgroup" : "col"}
      colSpan={group && c.kind === "metric" ? c.parts.length : undefined}
      rowSpan={group || span === 1 ? undefined : span}
      className={className}
      data-testid={columnTestId("col", c)}
      aria-sort={c.ariaSort}
    >
      {c.sortHref ? (
        <a
          href={c.sortHref}
          className="inline-block underline decoration-zinc-400 underline-offset-2 hover:decoration-zinc-800"
          title={`${title ? `${title}. ` : ""}Rank the board by this column.`}
          data-testid={sortTestId}
        >
          {name}
        </a>
      ) : (
        <span className="inline-block" title={title}>
          {name}
        </span>
      )}
      {c.kind === "metric" && <ExplainLink metric={c.metric} />}
      {c.ranked && (
        <span aria-hidden="true" className="ml-1 text-amber-800" title="Ranked by this column">
          ▼
        </span>
      )}
    </th>
  );
}

/** The small "?" link from a metric's header to its explanation page. */
function ExplainLink({ metric }: { metric: LeaderboardMetric }) {
  const text = `What is ${METRIC_LABELS[metric]}?`;
  return (
    <a
      href={metricHref(metric)}
      aria-label={text}
      title={text}
      className="ml-1 inline-flex h-4 w-4 items-center justify-center rounded-full border border-zinc-500 align-text-top text-[0.625rem] font-semibold leading-none text-zinc-800 no-underline hover:bg-zinc-100"
      data-testid={`metric-link-${metric}`}
    >
      ?
    </a>
  );
}

/** A p-value for people: 3 decimals, or "< 0.001". */
function formatP(p: number): string {
  return p < 0.001 ? "< 0.001" : p.toFixed(3);
}

/** Why a row has no rank, for the dash's hover text. */
function noRankReason(row: LeaderboardRow): string {
  if (row.disqualified) return "Disqualified by the organizers: not ranked.";
  if (row.hidden) return "Hidden by the organizers: not ranked, and on no one else's board.";
  if (row.own && !row.isBaseline && row.value !== null) return "Ranks appear when the phase closes.";
  if (row.isBaseline) return "Baselines are reference points and take no rank.";
  return "No score for this metric.";
}

/**
 * A row's data attributes for the states it is in (p-value versus the row above, disqualified,
 * own team, hidden, after the freeze, selection); only those that apply, so that a plain row
 * does not carry six empty props in React's payload.
 */
function rowFlags(row: LeaderboardRow, sig: BoardSignificance["rows"][string] | null): Record<string, string> {
  const flags: Record<string, string> = {};
  if (sig?.versusAbove) flags["data-p-value"] = String(sig.versusAbove.pValue);
  if (row.disqualified) flags["data-disqualified"] = "true";
  if (row.own) flags["data-own"] = "true";
  if (row.hidden) flags["data-hidden"] = "true";
  if (row.afterFreeze) flags["data-after-freeze"] = "true";
  if (row.selection) flags["data-selection"] = row.selection;
  return flags;
}

/** One run's row. */
function BoardRow({
  row,
  columns,
  significance,
  teamHref,
  rankedPhrase,
  rankDataset,
  datasetName,
  marks,
}: {
  row: LeaderboardRow;
  columns: BoardColumn[];
  significance: BoardSignificance | null;
  teamHref?: (teamId: string) => string;
  rankedPhrase: string;
  rankDataset: string | null;
  datasetName: string | null;
  marks: CellMarks;
}) {
  const sig = significance?.rows[row.submissionId] ?? null;
  const muted = row.disqualified || row.hidden;
  const background = row.own ? "bg-sky-50" : row.isBaseline && !muted ? "bg-zinc-50" : "bg-white";
  const text = muted ? "text-zinc-600" : row.isBaseline ? "text-zinc-800" : "";
  return (
    <tr data-testid="board-row" data-submission-id={row.submissionId} {...rowFlags(row, sig)} className={text ? `${background} ${text}` : background}>
      <td className={`${FIXED.rank.cell} text-right font-semibold${row.own ? " shadow-[inset_4px_0_0_0_var(--color-sky-700)]" : ""}`}>
        <div className={FIXED.rank.box}>
          {sig?.versusAbove && !sig.versusAbove.significant && significance && (
            <a
              href={compareHref(sig.versusAbove.submissionId, row.submissionId)}
              className="mr-1 font-normal text-sky-800 no-underline"
              data-testid="not-significant"
              title={`Not significantly different from the run listed directly above (p = ${formatP(sig.versusAbove.pValue)} ≥ ${significance.level}, paired bootstrap over documents, ${significance.samples.toLocaleString("en")} samples). Click to compare the two runs.`}
            >
              ≈<span className="sr-only"> not significantly different from the run above, p = {formatP(sig.versusAbove.pValue)}</span>
            </a>
          )}
          <span data-testid="board-rank">
            {row.rank ?? (
              <span className="font-normal text-zinc-600" title={noRankReason(row)}>
                —
              </span>
            )}
          </span>
        </div>
      </td>
      <td className={FIXED.team.cell} data-testid="board-team">
        <div className={FIXED.team.box}>
          {teamHref ? (
            <a href={teamHref(row.team.id)} className="underline decoration-zinc-400 hover:decoration-zinc-800" title={`${row.team.name}: progress over time`}>
              {row.team.name}
            </a>
          ) : (
            row.team.name
          )}
          {row.own && (
            <span className="block text-xs font-semibold text-sky-900" data-testid="own-team">
              (your team)
            </span>
          )}
        </div>
      </td>
      <td className={FIXED.system.cell} data-testid="board-system">
        <SystemCell row={row} datasetName={datasetName} />
      </td>
      {columns.map((c) => (
        <ScoreCells key={c.key} column={c} row={row} sig={sig} significance={significance} rankedPhrase={rankedPhrase} rankDataset={rankDataset} marks={marks} />
      ))}
    </tr>
  );
}

/** The system cell: the run's name (linked to its page), its labels, paper and code links, and why it is unranked. */
function SystemCell({ row, datasetName }: { row: LeaderboardRow; datasetName: string | null }) {
  const labels = row.isBaseline || row.hidden || row.afterFreeze || (datasetName !== null && row.missing);
  return (
    <div className={FIXED.system.box}>
      <a href={submissionHref(row.submissionId)} className="font-medium underline">
        {row.disqualified ? <s data-testid="disqualified-system">{row.systemName}</s> : row.systemName}
      </a>
      {labels && (
        <span className="mt-0.5 flex flex-wrap gap-1">
          {row.isBaseline && (
            <span className="rounded bg-amber-100 px-1.5 py-0.5 text-xs font-medium text-amber-900" data-testid="baseline-label">
              baseline
            </span>
          )}
          {row.hidden && (
            <span className="rounded bg-zinc-700 px-1.5 py-0.5 text-xs font-medium text-white" data-testid="hidden-label" title="Hidden by the organizers: only they and the run's team see it.">
              hidden
            </span>
          )}
          {row.afterFreeze && (
            <span className="rounded bg-indigo-100 px-1.5 py-0.5 text-xs font-medium text-indigo-900" data-testid="after-freeze-label" title="Made after the leaderboard's freeze: scored, but shown to the organizers only.">
              after the freeze
            </span>
          )}
          {datasetName !== null && row.missing && <MissingMarker dataset={datasetName} />}
        </span>
      )}
      {(row.paperUrl || row.codeUrl) && (
        <span className="mt-0.5 flex gap-2 text-xs">
          {row.paperUrl && (
            <a href={row.paperUrl} target="_blank" rel="noopener noreferrer nofollow" className="text-zinc-700 underline">
              paper
            </a>
          )}
          {row.codeUrl && (
            <a href={row.codeUrl} target="_blank" rel="noopener noreferrer nofollow" className="text-zinc-700 underline">
              code
            </a>
          )}
        </span>
      )}
      {row.disqualified && (
        <span className="mt-0.5 block text-xs font-medium text-red-800" data-testid="disqualified-reason">
          disqualified: {row.disqualified.reason}
        </span>
      )}
      {row.selection === "latest-fallback" && (
        <span className="mt-0.5 block text-xs text-zinc-700" data-testid="selection-fallback">
          latest run: no final run chosen
        </span>
      )}
    </div>
  );
}

/** A row's cells of one score column (one per part for a metric with recall and precision). */
function ScoreCells({
  column: c,
  row,
  sig,
  significance,
  rankedPhrase,
  rankDataset,
  marks,
}: {
  column: BoardColumn;
  row: LeaderboardRow;
  sig: BoardSignificance["rows"][string] | null;
  significance: BoardSignificance | null;
  rankedPhrase: string;
  rankDataset: string | null;
  marks: CellMarks;
}) {
  const bg = c.ranked ? ` ${RANKED_BG}` : "";
  // The column's best: bold, said in words, marked for tests.
  const isBest = (part: ScorePart = "f1") => marks.bests[cellKey(c, part)]?.runs.includes(row.submissionId) ?? false;
  const bestProps = (part: ScorePart = "f1") => (isBest(part) ? { "data-best": "true" } : {});
  const bestClass = (part: ScorePart = "f1") => (isBest(part) ? " font-bold" : "");
  const bestWords = (part: ScorePart = "f1") => (isBest(part) ? <span className="sr-only"> ({marks.bestLabel})</span> : null);
  switch (c.kind) {
    case "metric":
      return (
        <>
          {c.parts.map((p) => {
            const cell = scoreCell(row.scores, c.metric, p);
            return (
              <td key={p} className={`${p === "f1" ? "lb-f" : "lb-rp"}${bg}${bestClass(p)}`} data-testid={`cell-${c.metric}-${p}`} {...bestProps(p)}>
                {cell ? <ScoreValue inheritNumerals value={cell.value} title={cell.title} /> : <Dash />}
                {bestWords(p)}
              </td>
            );
          })}
        </>
      );
    case "variant": {
      const cell = scoreCell(row.variants[c.variant.id] ?? {}, c.metric, "f1", settingInSentence(c.variant.label));
      return (
        <td className={`lb-f${bg}${bestClass()}`} data-testid={columnTestId("cell", c)} {...bestProps()}>
          {cell ? <ScoreValue inheritNumerals value={cell.value} title={cell.title} /> : <Dash />}
          {bestWords()}
        </td>
      );
    }
    case "dataset": {
      const cell = row.datasets[c.dataset.name];
      const name = c.dataset.name;
      const max = marks.bests[cellKey(c)]?.max;
      const heat = !c.ranked && max !== undefined && typeof cell?.conllF1 === "number" ? HEAT[heatLevel(cell.conllF1, max)] : "";
      return (
        <td className={`lb-f${bg}${bestClass()}${heat ? ` ${heat}` : ""}`} data-testid={columnTestId("cell", c)} {...bestProps()}>
          {cell?.conllF1 !== null && cell?.conllF1 !== undefined ? (
            <ScoreValue inheritNumerals value={cell.conllF1} title={cell.missing ? `No file for ${name} in this run: it counts as 0` : `CoNLL F1 on ${name} = ${cell.conllF1}`} />
          ) : (
            <Dash />
          )}
          {bestWords()}
          {cell?.missing && <MissingMarker dataset={name} />}
        </td>
      );
    }
    case "ranked-value":
      return (
        <td className={`lb-f${bg}${bestClass()}`} data-testid={columnTestId("cell", c)} {...bestProps()}>
          {row.value !== null ? <ScoreValue inheritNumerals value={row.value} title={`${rankedPhrase} on ${rankDataset} = ${row.value}`} /> : <Dash />}
          {bestWords()}
        </td>
      );
    case "interval":
      return (
        <td className="whitespace-nowrap text-right text-zinc-800" data-testid="cell-ci">
          {sig?.interval && significance ? (
            <span title={`95 % percentile bootstrap interval over documents (${significance.samples.toLocaleString("en")} samples)`}>
              {(sig.interval.lo * 100).toFixed(2)} – {(sig.interval.hi * 100).toFixed(2)}
            </span>
          ) : (
            <Dash />
          )}
        </td>
      );
    case "submitted":
      return (
        <td className="whitespace-nowrap text-zinc-700" data-testid="cell-submitted">
          <UtcTime date={row.submittedAt} />
        </td>
      );
  }
}

/** The visible marker of a dataset a run left out (it counts as 0). */
function MissingMarker({ dataset }: { dataset: string }) {
  return (
    <span className="ml-1 inline-block rounded bg-rose-100 px-1 py-0.5 text-xs font-medium text-rose-900" title={`This run has no file for the ${dataset} dataset: it counts as 0.`} data-testid="dataset-missing">
      missing
    </span>
  );
}
