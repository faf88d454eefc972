/**
 * The leaderboard table: rank, team, system (linked to its submission page), submission time,
 * then F1 per metric (optionally recall and precision too), then, for a task whose evaluation
 * profile has secondary variants, one CoNLL F1 column per variant; the ranking column
 * highlighted. Every number has its exact value in the `title`. Column headers link to the
 * metric's explanation page. With significance facts, a run that is not significantly
 * different from the run listed directly above it carries a "≈" marker, and the 95 % interval of
 * the ranking metric can be shown. On the macro-averaged board of a phase with several datasets,
 * one CoNLL F1 column per dataset follows (a dataset a run left out shows 0 with a "missing"
 * marker), and a board ranked by one dataset highlights that dataset's column (or adds the
 * ranked value's column for another metric or setting). On a dataset's own board, a run that
 * left the dataset out is marked "missing". A run the organizers disqualified is struck through,
 * without a rank, with "disqualified: <reason>" under its system name.
 *
 * Leaderboard policy (issue 11 §2, §4): the viewer's own team's rows are highlighted (a sky
 * background, a visually hidden "your team" and `data-own="true"`); on a team-selected board a
 * team represented by its latest run because it chose no final run says "latest run: no final
 * run chosen" (`selection`); on the organizers' board a hidden run is marked "hidden" and a run
 * made after the freeze "after the freeze". Server-safe.
 */
import Link from "next/link";
import type { BoardDataset, BoardMetricsJson, LeaderboardRow } from "../../lib/services/leaderboard";
import type { BoardSignificance } from "../../lib/services/significance";
import { metricHref } from "./metric-link";
import { boardColumns, METRIC_LABELS, type LeaderboardMetric } from "../../lib/validations/metrics";
import { blancTitle, conllTitle, f1Title, Percent, ratioTitle } from "./board-numbers";
import { UtcTime } from "./ui";

/**
 * The board's metric columns for these rows (`boardColumns`: the standard metrics, Mentions
 * only when ranking by it, CoNLL, then the optional metrics some row has or the board ranks by).
 */
function boardMetrics(rows: readonly LeaderboardRow[], metric: LeaderboardMetric): LeaderboardMetric[] {
  return boardColumns(metric, (m) => rows.some((r) => r.scores[m] !== undefined));
}

type Part = "recall" | "precision" | "f1";

/** The parts (R, P, F1) a metric's column group has. CoNLL has only F1. */
function partsOf(metric: LeaderboardMetric, showRp: boolean): Part[] {
  return showRp && metric !== "conll" ? ["recall", "precision", "f1"] : ["f1"];
}

const PART_LABEL: Record<Part, string> = { recall: "R", precision: "P", f1: "F1" };
const PART_NAME: Record<Part, string> = { recall: "recall", precision: "precision", f1: "F1" };

/** `Partial match` → `partial match`: a variant label inside a sentence. */
export function settingInSentence(label: string): string {
  return label.charAt(0).toLowerCase() + label.slice(1);
}

/**
 * What ranks a board, for headings and captions: `"CoNLL F1"`; with the setting of a task that
 * has evaluation variants, `"CoNLL F1, partial match"` or `"CoNLL F1, primary setting"`.
 *
 * @param metric the ranking metric
 * @param setting the ranked variant's label (e.g. "Partial match"), `"primary"` for the primary
 *   setting of a task with variants, or null for a task without variants
 */
export function rankingPhrase(metric: LeaderboardMetric, setting: string | null): string {
  const base = `${METRIC_LABELS[metric]} F1`;
  if (setting === null) return base;
  return `${base}, ${setting === "primary" ? "primary setting" : settingInSentence(setting)}`;
}

/** One score cell's value and hover text, or null when the run lacks the metric. `setting` names a variant's setting in the text. */
function scoreCell(scores: BoardMetricsJson, metric: LeaderboardMetric, part: Part, setting?: string): { value: number; title: string } | null {
  if (metric === "conll") return scores.conll ? { value: scores.conll.f1, title: conllTitle(scores.conll.f1, setting) } : null;
  if (metric === "blanc") return scores.blanc ? { value: scores.blanc[part], title: blancTitle(scores.blanc, part) } : null;
  const s = scores[metric];
  if (!s) return null;
  if (part === "f1") return { value: s.f1, title: `${setting ? `${METRIC_LABELS[metric]} (${setting}) ` : ""}${f1Title(s)}` };
  return part === "recall"
    ? { value: s.recall, title: `${METRIC_LABELS[metric]} recall ${ratioTitle(s.recall_num, s.recall_den, s.recall)}` }
    : { value: s.precision, title: `${METRIC_LABELS[metric]} precision ${ratioTitle(s.precision_num, s.precision_den, s.precision)}` };
}

/** A column of a secondary variant: CoNLL F1, or the ranking metric when the board is ranked by that variant. */
interface VariantColumn {
  id: string;
  label: string;
  metric: LeaderboardMetric;
  ranked: boolean;
}

/**
 * The variant columns: each variant's CoNLL F1, in the profile's order; when the board is
 * ranked by a variant on another metric, that metric's column follows the variant's CoNLL F1.
 */
function variantColumns(variants: readonly { id: string; label: string }[], rankedVariant: string | null, metric: LeaderboardMetric): VariantColumn[] {
  return variants.flatMap((v) => {
    const conll: VariantColumn = { ...v, metric: "conll", ranked: v.id === rankedVariant && metric === "conll" };
    return v.id === rankedVariant && metric !== "conll" ? [conll, { ...v, metric, ranked: true }] : [conll];
  });
}

/**
 * The table.
 *
 * @param rows the board's rows in board order
 * @param metric the ranking metric (its columns are highlighted)
 * @param showRp show recall and precision next to each F1
 * @param significance the board's bootstrap facts (markers; intervals when computed), or null
 * @param teamHref the page of a team's progress in this phase
 * @param variants the secondary variants of the task's evaluation profile (`Leaderboard.evaluation.variants`):
 *   one CoNLL F1 column each, after the primary setting's columns (none: the table is as before)
 * @param rankedVariant the variant the board is ranked by (`Leaderboard.variant`), or null for the primary setting
 * @param variantHref the board ranked by a variant's CoNLL F1 (its column header links there)
 * @param trackName the board's track (`Leaderboard.track`), named in the table's caption; null or absent for a phase without tracks
 * @param datasets the datasets whose CoNLL F1 columns to show (`Leaderboard.datasets` on the
 *   macro-averaged board of a phase with several datasets; none otherwise)
 * @param rankDataset the dataset the board is ranked by (`Leaderboard.rankDataset`), or null
 * @param datasetHref the board ranked by a dataset's CoNLL F1 (its column header links there)
 * @param datasetName on a dataset's own board, its name (for the caption and the "missing" marker); else null
 */
export function BoardTable({
  rows,
  metric,
  showRp,
  significance = null,
  teamHref,
  variants = [],
  rankedVariant = null,
  variantHref,
  trackName = null,
  datasets = [],
  rankDataset = null,
  datasetHref,
  datasetName = null,
}: {
  rows: LeaderboardRow[];
  metric: LeaderboardMetric;
  showRp: boolean;
  significance?: BoardSignificance | null;
  teamHref?: (teamId: string) => string;
  variants?: readonly { id: string; label: string }[];
  rankedVariant?: string | null;
  variantHref?: (variantId: string) => string;
  trackName?: string | null;
  datasets?: readonly Pick<BoardDataset, "name" | "scored">[];
  rankDataset?: string | null;
  datasetHref?: (name: string) => string;
  datasetName?: string | null;
}) {
  const metrics = boardMetrics(rows, metric);
  // A board ranked by a dataset ranks none of the phase-level columns.
  const extra = variantColumns(variants, rankDataset === null ? rankedVariant : null, metric);
  const rankedLabel = variants.find((v) => v.id === rankedVariant)?.label ?? null;
  const showCi = significance !== null && Object.values(significance.rows).some((r) => r.interval !== null);
  const highlight = (m: LeaderboardMetric) => (m === metric && rankedVariant === null && rankDataset === null ? "bg-amber-50" : "");
  const rankedPhrase = rankingPhrase(metric, variants.length === 0 ? null : (rankedLabel ?? "primary"));
  // The dataset column ranks the board when ranked by its primary CoNLL F1; else the ranked value gets a column of its own.
  const datasetConllRanked = rankDataset !== null && metric === "conll" && rankedVariant === null;
  const rankedValueColumn = rankDataset !== null && !datasetConllRanked;
  const th = "px-2 py-2 font-medium";
  return (
    <div className="relative overflow-x-auto rounded-lg border border-zinc-200 bg-white shadow-sm">
      <table className="w-full text-sm" data-testid="leaderboard-table">
        <caption className="sr-only">
          Leaderboard{datasetName !== null && ` of the ${datasetName} dataset`}
          {trackName !== null && ` of the ${trackName} track`} ranked by {rankedPhrase}
          {rankDataset !== null && ` on the ${rankDataset} dataset`}
          {showRp ? ", with recall and precision" : ""}
        </caption>
        <thead className="border-b border-zinc-200 text-xs uppercase tracking-wide text-zinc-500">
          <tr>
            <th scope="col" rowSpan={showRp ? 2 : 1} className={`${th} text-right`}>
              Rank
            </th>
            <th scope="col" rowSpan={showRp ? 2 : 1} className={`${th} text-left`}>
              Team
            </th>
            <th scope="col" rowSpan={showRp ? 2 : 1} className={`${th} text-left`}>
              System
            </th>
            <th scope="col" rowSpan={showRp ? 2 : 1} className={`${th} text-left`}>
              Submitted (UTC)
            </th>
            {metrics.map((m) =>
              showRp ? (
                <th
                  key={m}
                  scope={m === "conll" ? "col" : "colgroup"}
                  colSpan={partsOf(m, true).length}
                  rowSpan={m === "conll" ? 2 : 1}
                  className={`${th} text-center normal-case ${highlight(m)}`}
                  data-testid={`col-${m}`}
                  aria-sort={highlight(m) ? "descending" : undefined}
                >
                  <MetricHeader metric={m} label={`${METRIC_LABELS[m]}${m === "conll" ? " F1" : ""}`} />
                  {highlight(m) && <RankedBy />}
                </th>
              ) : (
                <th
                  key={m}
                  scope="col"
                  className={`${th} text-right normal-case ${highlight(m)}`}
                  data-testid={`col-${m}`}
                  aria-sort={highlight(m) ? "descending" : undefined}
                >
                  <MetricHeader metric={m} label={`${METRIC_LABELS[m]} F1`} />
                  {highlight(m) && <RankedBy />}
                </th>
              ),
            )}
            {extra.map((c) => (
              <th
                key={`${c.id}-${c.metric}`}
                scope="col"
                rowSpan={showRp ? 2 : 1}
                className={`${th} min-w-[6.5rem] max-w-[9rem] text-right normal-case${c.ranked ? " bg-amber-50" : ""}`}
                data-testid={c.metric === "conll" ? `col-variant-${c.id}` : `col-variant-${c.id}-${c.metric}`}
                aria-sort={c.ranked ? "descending" : undefined}
              >
                <VariantHeader column={c} href={c.metric === "conll" && !c.ranked ? variantHref?.(c.id) : undefined} />
                {c.ranked && <RankedBy />}
              </th>
            ))}
            {datasets.map((d) => {
              const ranked = datasetConllRanked && d.name === rankDataset;
              return (
                <th
                  key={`dataset-${d.name}`}
                  scope="col"
                  rowSpan={showRp ? 2 : 1}
                  className={`${th} min-w-[5.5rem] text-right normal-case${ranked ? " bg-amber-50" : ""}`}
                  data-testid={`col-dataset-${d.name}`}
                  aria-sort={ranked ? "descending" : undefined}
                >
                  <DatasetHeader name={d.name} scored={d.scored} href={ranked ? undefined : datasetHref?.(d.name)} />
                  {ranked && <RankedBy />}
                </th>
              );
            })}
            {rankedValueColumn && (
              <th scope="col" rowSpan={showRp ? 2 : 1} className={`${th} min-w-[6.5rem] text-right normal-case bg-amber-50`} data-testid="col-dataset-ranked" aria-sort="descending">
                <span className="block">{rankDataset}</span> <span className="block font-normal text-zinc-500">{rankedPhrase}</span>
                <RankedBy />
              </th>
            )}
            {showCi && (
              <th scope="col" rowSpan={showRp ? 2 : 1} className={`${th} text-right normal-case`} data-testid="col-ci">
                95 % interval ({METRIC_LABELS[metric]} F1)
              </th>
            )}
          </tr>
          {showRp && (
            <tr>
              {metrics
                .filter((m) => m !== "conll")
                .flatMap((m) =>
                  partsOf(m, true).map((p) => (
                    <th key={`${m}-${p}`} scope="col" className={`${th} text-right ${highlight(m)}`} data-testid={`col-${m}-${p}`}>
                      <abbr title={`${METRIC_LABELS[m]} ${PART_NAME[p]}`} className="no-underline">
                        {PART_LABEL[p]}
                      </abbr>
                    </th>
                  )),
                )}
            </tr>
          )}
        </thead>
        <tbody className="divide-y divide-zinc-100">
          {rows.map((row) => {
            const sig = significance?.rows[row.submissionId] ?? null;
            return (
            <tr
              key={row.submissionId}
              data-testid="board-row"
              data-submission-id={row.submissionId}
              data-p-value={sig?.versusAbove ? String(sig.versusAbove.pValue) : undefined}
              data-disqualified={row.disqualified ? "true" : undefined}
              data-own={row.own ? "true" : undefined}
              data-hidden={row.hidden ? "true" : undefined}
              data-after-freeze={row.afterFreeze ? "true" : undefined}
              data-selection={row.selection ?? undefined}
              className={
                row.own
                  ? `bg-sky-50 shadow-[inset_4px_0_0_0_rgb(3_105_161)]${row.disqualified || row.hidden ? " text-zinc-500" : ""}`
                  : row.disqualified || row.hidden
                    ? "text-zinc-500"
                    : row.isBaseline
                      ? "bg-zinc-50 text-zinc-700"
                      : ""
              }
            >
              <td className="whitespace-nowrap px-2 py-2 text-right font-semibold tabular-nums">
                {sig?.versusAbove && !sig.versusAbove.significant && significance && (
                  <Link
                    href={`/compare?a=${encodeURIComponent(sig.versusAbove.submissionId)}&b=${encodeURIComponent(row.submissionId)}`}
                    className="mr-1 font-normal text-sky-700 no-underline"
                    data-testid="not-significant"
                    title={`Not significantly different from the run listed directly above (p = ${formatP(sig.versusAbove.pValue)} ≥ ${significance.level}, paired bootstrap over documents, ${significance.samples.toLocaleString("en")} samples). Click to compare the two runs.`}
                  >
                    ≈<span className="sr-only"> not significantly different from the run above, p = {formatP(sig.versusAbove.pValue)}</span>
                  </Link>
                )}
                <span data-testid="board-rank">
                  {row.rank ?? (
                    <span
                      className="font-normal text-zinc-400"
                      title={
                        row.disqualified
                          ? "Disqualified by the organizers: not ranked."
                          : row.hidden
                            ? "Hidden by the organizers: not ranked, and on no one else's board."
                            : row.own && !row.isBaseline && row.value !== null
                              ? "Ranks appear when the phase closes."
                              : row.isBaseline
                            ? "Baselines are reference points and take no rank."
                            : "No score for this metric."
                      }
                    >
                      —
                    </span>
                  )}
                </span>
              </td>
              <td className="px-2 py-2" data-testid="board-team">
                {row.own && <span className="sr-only">your team: </span>}
                {teamHref ? (
                  <Link href={teamHref(row.team.id)} className="underline decoration-zinc-300 hover:decoration-zinc-700" title={`${row.team.name}: progress over time`}>
                    {row.team.name}
                  </Link>
                ) : (
                  row.team.name
                )}
              </td>
              <td className="px-2 py-2" data-testid="board-system">
                <Link href={`/submissions/${row.submissionId}`} className="whitespace-nowrap font-medium underline">
                  {row.disqualified ? <s data-testid="disqualified-system">{row.systemName}</s> : row.systemName}
                </Link>
                {row.isBaseline && (
                  <span className="ml-2 rounded bg-amber-100 px-1.5 py-0.5 text-xs font-medium text-amber-900" data-testid="baseline-label">
                    baseline
                  </span>
                )}
                {row.hidden && (
                  <span className="ml-2 rounded bg-zinc-700 px-1.5 py-0.5 text-xs font-medium text-white" data-testid="hidden-label" title="Hidden by the organizers: only they and the run's team see it.">
                    hidden
                  </span>
                )}
                {row.afterFreeze && (
                  <span
                    className="ml-2 rounded bg-indigo-100 px-1.5 py-0.5 text-xs font-medium text-indigo-900"
                    data-testid="after-freeze-label"
                    title="Made after the leaderboard's freeze: scored, but shown to the organizers only."
                  >
                    after the freeze
                  </span>
                )}
                {datasetName !== null && row.missing && <MissingMarker dataset={datasetName} />}
                {(row.paperUrl || row.codeUrl) && (
                  <span className="ml-2 space-x-2 text-xs">
                    {row.paperUrl && (
                      <a href={row.paperUrl} target="_blank" rel="noopener noreferrer nofollow" className="text-zinc-600 underline">
                        paper
                      </a>
                    )}
                    {row.codeUrl && (
                      <a href={row.codeUrl} target="_blank" rel="noopener noreferrer nofollow" className="text-zinc-600 underline">
                        code
                      </a>
                    )}
                  </span>
                )}
                {row.disqualified && (
                  <span className="mt-0.5 block max-w-xs text-xs font-medium text-red-800" data-testid="disqualified-reason">
                    disqualified: {row.disqualified.reason}
                  </span>
                )}
                {row.selection === "latest-fallback" && (
                  <span className="mt-0.5 block text-xs text-zinc-600" data-testid="selection-fallback">
                    latest run: no final run chosen
                  </span>
                )}
              </td>
              <td className="whitespace-nowrap px-2 py-2 text-zinc-600">
                <UtcTime date={row.submittedAt} />
              </td>
              {metrics.flatMap((m) =>
                partsOf(m, showRp).map((p) => {
                  const c = scoreCell(row.scores, m, p);
                  return (
                    <td key={`${m}-${p}`} className={`px-2 py-2 text-right ${highlight(m)} ${p === "f1" ? "font-medium" : "text-zinc-600"}`} data-testid={`cell-${m}-${p}`}>
                      {c ? <Percent value={c.value} title={c.title} /> : <span className="text-zinc-400">—</span>}
                    </td>
                  );
                }),
              )}
              {extra.map((c) => {
                const cell = scoreCell(row.variants[c.id] ?? {}, c.metric, "f1", settingInSentence(c.label));
                return (
                  <td
                    key={`${c.id}-${c.metric}`}
                    className={`px-2 py-2 text-right font-medium${c.ranked ? " bg-amber-50" : ""}`}
                    data-testid={c.metric === "conll" ? `cell-variant-${c.id}` : `cell-variant-${c.id}-${c.metric}`}
                  >
                    {cell ? <Percent value={cell.value} title={cell.title} /> : <span className="text-zinc-400">—</span>}
                  </td>
                );
              })}
              {datasets.map((d) => {
                const cell = row.datasets[d.name];
                const ranked = datasetConllRanked && d.name === rankDataset;
                return (
                  <td key={`dataset-${d.name}`} className={`whitespace-nowrap px-2 py-2 text-right font-medium${ranked ? " bg-amber-50" : ""}`} data-testid={`cell-dataset-${d.name}`}>
                    {cell?.conllF1 !== null && cell?.conllF1 !== undefined ? (
                      <Percent value={cell.conllF1} title={cell.missing ? `No file for ${d.name} in this run: it counts as 0` : `CoNLL F1 on ${d.name} = ${cell.conllF1}`} />
                    ) : (
                      <span className="text-zinc-400">—</span>
                    )}
                    {cell?.missing && <MissingMarker dataset={d.name} />}
                  </td>
                );
              })}
              {rankedValueColumn && (
                <td className="px-2 py-2 text-right font-medium bg-amber-50" data-testid="cell-dataset-ranked">
                  {row.value !== null ? <Percent value={row.value} title={`${rankedPhrase} on ${rankDataset} = ${row.value}`} /> : <span className="text-zinc-400">—</span>}
                </td>
              )}
              {showCi && (
                <td className="whitespace-nowrap px-2 py-2 text-right tabular-nums text-zinc-700" data-testid="cell-ci">
                  {sig?.interval ? (
                    <span title={`95 % percentile bootstrap interval over documents (${significance!.samples.toLocaleString("en")} samples)`}>
                      {(sig.interval.lo * 100).toFixed(2)} – {(sig.interval.hi * 100).toFixed(2)}
                    </span>
                  ) : (
                    <span className="text-zinc-400">—</span>
                  )}
                </td>
              )}
            </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** A p-value for people: 3 decimals, or "< 0.001". */
function formatP(p: number): string {
  return p < 0.001 ? "< 0.001" : p.toFixed(3);
}

/** A column header linking to the metric's explanation page. */
function MetricHeader({ metric, label }: { metric: LeaderboardMetric; label: string }) {
  return (
    <Link href={metricHref(metric)} className="underline decoration-zinc-300 decoration-dotted underline-offset-2 hover:decoration-zinc-700" title={`What is ${METRIC_LABELS[metric]}?`} data-testid={`metric-link-${metric}`}>
      {label}
    </Link>
  );
}

/**
 * A variant column's header: the variant's label over the metric, e.g. "Partial match" /
 * "CoNLL F1", wrapping in a narrow column (the table scrolls sideways on small screens); the
 * full name is in the `title`. With `href`, it links to the board ranked by that column.
 */
function VariantHeader({ column, href }: { column: VariantColumn; href?: string }) {
  const metricLabel = `${METRIC_LABELS[column.metric]} F1`;
  const content = (
    <>
      <span className="block">{column.label}</span>{" "}
      <span className="block font-normal text-zinc-500">{metricLabel}</span>
    </>
  );
  const title = `${metricLabel} under the ${settingInSentence(column.label)} setting (a secondary variant of the task's evaluation profile)`;
  if (!href) return <span title={title}>{content}</span>;
  return (
    <Link
      href={href}
      className="inline-block underline decoration-zinc-300 decoration-dotted underline-offset-2 hover:decoration-zinc-700"
      title={`${title}. Rank by this column.`}
      data-testid={`variant-link-${column.id}`}
    >
      {content}
    </Link>
  );
}

/** A dataset column's header: its name over "CoNLL F1"; with `href`, a link ranking the board by it. */
function DatasetHeader({ name, scored, href }: { name: string; scored: boolean; href?: string }) {
  const content = (
    <>
      <span className="block">{name}</span> <span className="block font-normal text-zinc-500">CoNLL F1</span>
    </>
  );
  const title = scored ? `CoNLL F1 on the ${name} dataset` : `The ${name} dataset has no gold key yet: not counted in the macro-average`;
  if (!href) return <span title={title}>{content}</span>;
  return (
    <Link href={href} className="inline-block underline decoration-zinc-300 decoration-dotted underline-offset-2 hover:decoration-zinc-700" title={`${title}. Rank by this dataset.`} data-testid={`dataset-link-${name}`}>
      {content}
    </Link>
  );
}

/** The visible marker of a dataset a run left out (it counts as 0). */
function MissingMarker({ dataset }: { dataset: string }) {
  return (
    <span
      className="ml-1 rounded bg-rose-100 px-1 py-0.5 text-xs font-medium text-rose-900"
      title={`This run has no file for the ${dataset} dataset: it counts as 0.`}
      data-testid="dataset-missing"
    >
      missing
    </span>
  );
}

/** The "ranked by this column" marker of a header. */
function RankedBy() {
  return (
    <span aria-hidden="true" className="ml-1 text-amber-700" title="Ranked by this column">
      ▼
    </span>
  );
}
