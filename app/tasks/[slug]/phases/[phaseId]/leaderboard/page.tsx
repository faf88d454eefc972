import type { Metadata } from "next";
import { AccessDenied } from "../../../../../_components/access-denied";
import Form from "next/form";
import Link from "next/link";
import { notFound } from "next/navigation";
import { ForbiddenError, NotFoundError, UnauthorizedError, ValidationError } from "../../../../../../lib/errors";
import { getLeaderboard, type Leaderboard } from "../../../../../../lib/services/leaderboard";
import { boardSignificance, type BoardSignificance } from "../../../../../../lib/services/significance";
import type { BoardMetricsJson } from "../../../../../../lib/services/leaderboard";
import type { Viewer } from "../../../../../../lib/permissions";
import { getViewer } from "../../../../../../lib/session";
import { boardColumns, CONLL_PARTS, isLeaderboardMetric, LEADERBOARD_METRICS, METRIC_LABELS, shownMetrics, type LeaderboardMetric } from "../../../../../../lib/validations/metrics";
import { BoardSwitch } from "../../../../../_components/board-switch";
import { BoardMetricSelect } from "../../../../../_components/board-metric-select";
import { BoardTable, rankingPhrase, settingInSentence } from "../../../../../_components/board-table";
import { LeaderboardCharts } from "../../../../../_components/charts/leaderboard-charts";
import { metricHref } from "../../../../../_components/metric-link";
import { Breadcrumbs, Notice, secondaryButton, UtcTime } from "../../../../../_components/ui";

type Params = Promise<{ slug: string; phaseId: string }>;
type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export const metadata: Metadata = { title: "Leaderboard" };

/** The first value of a query parameter. */
function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** True for "1", "true", "yes". */
function flag(value: string | undefined): boolean {
  return value !== undefined && ["1", "true", "yes"].includes(value.toLowerCase());
}

/** The board state a URL describes. */
interface BoardQuery {
  metric?: LeaderboardMetric;
  /** a variant id of the task's evaluation profile; absent = the primary setting */
  variant?: string;
  /** a track id of the phase; absent = its first track (phases with tracks) */
  track?: string;
  /** a dataset name: that dataset's own board (phases with several datasets); absent = the phase-level board */
  dataset?: string;
  /** a dataset name ranking the phase-level board; absent = the macro-average */
  rankDataset?: string;
  all: boolean;
  rp: boolean;
  ci: boolean;
}

/** The page URL for a board state (only non-default parameters). */
function boardHref(base: string, q: BoardQuery): string {
  const params = new URLSearchParams();
  if (q.metric) params.set("metric", q.metric);
  if (q.variant) params.set("variant", q.variant);
  if (q.track) params.set("track", q.track);
  if (q.dataset) params.set("dataset", q.dataset);
  if (q.rankDataset) params.set("rankDataset", q.rankDataset);
  if (q.all) params.set("all", "1");
  if (q.rp) params.set("rp", "1");
  if (q.ci) params.set("ci", "1");
  const s = params.toString();
  return s ? `${base}?${s}` : base;
}

/**
 * A run's recall and precision on a metric, for the precision/recall chart. CoNLL has none
 * of its own: its point is the mean recall and the mean precision of MUC, B³ and CEAFe (as
 * the CoNLL F1 is their mean F1).
 */
function recallPrecision(scores: BoardMetricsJson, metric: LeaderboardMetric): { recall: number; precision: number } | null {
  if (metric === "conll") {
    const parts = CONLL_PARTS.map((m) => scores[m]);
    if (parts.some((p) => !p)) return null;
    const mean = (f: (p: NonNullable<(typeof parts)[number]>) => number) => parts.reduce((sum, p) => sum + f(p!), 0) / parts.length;
    return { recall: mean((p) => p.recall), precision: mean((p) => p.precision) };
  }
  const s = scores[metric];
  return s ? { recall: s.recall, precision: s.precision } : null;
}

/** The metrics of the F1 chart: the board's standard columns (no optional metrics). */
const CHART_METRICS = boardColumns("conll", () => false);

/** How a board with one run per team picks each team's run, per selection rule. */
function selectionText(board: Leaderboard): string {
  switch (board.phase.selectionRule) {
    case "BEST":
      return board.evaluation.variants.length > 0
        ? "Each team is represented by its best run by the chosen metric and setting."
        : "Each team is represented by its best run by the chosen metric.";
    case "LATEST":
      return "Each team is represented by its most recent run.";
    case "TEAM_SELECTED": {
      const n = board.policy.finalRunLimit;
      return `Each team marks up to ${n} ${n === 1 ? "run" : "runs"} as final on the run's page, and is represented by the best of them by the chosen metric; a team that marked none is represented by its latest run, and its row says so.`;
    }
  }
}

/** The label of the "one run per team" half of the runs toggle. */
const ONE_PER_TEAM: Record<Leaderboard["phase"]["selectionRule"], string> = {
  BEST: "Best run per team",
  LATEST: "Latest run per team",
  TEAM_SELECTED: "Chosen run per team",
};

/**
 * The board for a URL's choices. A `variant` the task's evaluation profile does not have, or a
 * `track`, `dataset` or `rankDataset` the phase does not have, is not an error page: the board
 * is shown without that choice (ranked by the primary setting, for the phase's first track, the
 * phase-level board, ranked by the macro-average), with the service's reason in `errors`
 * under the parameter's name. Other errors propagate (401/403/404 are handled by the page).
 */
async function loadBoard(
  phaseId: string,
  viewer: Viewer,
  options: { metric: LeaderboardMetric | null; variant: string | null; track: string | null; dataset: string | null; rankDataset: string | null; allRuns: boolean },
): Promise<{ board: Leaderboard; errors: Partial<Record<"variant" | "track" | "dataset" | "rankDataset", string>> }> {
  const errors: Partial<Record<"variant" | "track" | "dataset" | "rankDataset", string>> = {};
  let current = options;
  // At most one retry per parameter: each failure drops the parameter it names.
  for (;;) {
    try {
      return { board: await getLeaderboard(phaseId, viewer, current), errors };
    } catch (error) {
      const fields = error instanceof ValidationError ? error.fieldErrors : [];
      const failed = (["variant", "track", "dataset", "rankDataset"] as const).find((name) => current[name] !== null && fields.some((f) => f.path === name));
      if (!failed) throw error;
      errors[failed] = fields.find((f) => f.path === failed)!.message;
      current = { ...current, [failed]: null };
    }
  }
}

/**
 * A phase's leaderboard: `?metric=` picks the ranking metric (default: the task's primary
 * metric), `?variant=` ranks by a secondary variant of the task's evaluation profile (default:
 * its primary setting), `?track=` shows one track's board in a phase with tracks (default: its
 * first track; a track switch links the others), `?dataset=` shows one dataset's own board and
 * `?rankDataset=` ranks the macro-averaged board by one dataset, in a phase with several
 * datasets (a dataset switch links the boards), `?all=1` lists every run instead of one per team, `?rp=1` shows recall and
 * precision. Visibility is enforced by `getLeaderboard` (401/403 become a message here,
 * unknown phases a 404), and so is the phase's leaderboard policy (issue 11 §2): a notice says
 * when the board is hidden until the phase closes or frozen, the viewer's team's rows are
 * highlighted, and a team-selected board says which teams chose no final run.
 */
export default async function LeaderboardPage({ params, searchParams }: { params: Params; searchParams: SearchParams }) {
  const { slug, phaseId } = await params;
  const sp = await searchParams;
  const rawMetric = first(sp.metric);
  const badMetric = rawMetric !== undefined && rawMetric !== "" && !isLeaderboardMetric(rawMetric);
  const rawVariant = first(sp.variant);
  const rawTrack = first(sp.track);
  const rawDataset = first(sp.dataset);
  const rawRankDataset = first(sp.rankDataset);
  const query: BoardQuery = {
    metric: rawMetric && isLeaderboardMetric(rawMetric) ? rawMetric : undefined,
    variant: rawVariant || undefined,
    track: rawTrack || undefined,
    dataset: rawDataset || undefined,
    rankDataset: rawRankDataset || undefined,
    all: flag(first(sp.all)),
    rp: flag(first(sp.rp)),
    ci: flag(first(sp.ci)),
  };
  const base = `/tasks/${encodeURIComponent(slug)}/phases/${encodeURIComponent(phaseId)}/leaderboard`;

  let board: Leaderboard;
  let errors: Awaited<ReturnType<typeof loadBoard>>["errors"];
  try {
    ({ board, errors } = await loadBoard(phaseId, await getViewer(), {
      metric: query.metric ?? null,
      variant: query.variant ?? null,
      track: query.track ?? null,
      dataset: query.dataset ?? null,
      rankDataset: query.rankDataset ?? null,
      allRuns: query.all,
    }));
  } catch (error) {
    if (error instanceof NotFoundError) notFound();
    if (error instanceof UnauthorizedError || error instanceof ForbiddenError) {
      return <AccessDenied title="Leaderboard" testId="board-denied" message={error.message} signIn={error instanceof UnauthorizedError ? boardHref(base, query) : null} />;
    }
    throw error;
  }
  if (board.task.slug !== slug) notFound();
  // Per-document scores (the bootstrap's input) are stored for the primary setting only.
  const significance: BoardSignificance | null = board.variant === null ? await boardSignificance(board, { intervals: query.ci }) : null;

  const metric = board.metric;
  const variants = board.evaluation.variants;
  const rankedVariant = variants.find((v) => v.id === board.variant) ?? null;
  // "CoNLL F1", or with the setting for tasks with variants: "CoNLL F1, partial match".
  const rankedBy = rankingPhrase(metric, variants.length === 0 ? null : (rankedVariant?.label ?? "primary"));
  const variantError = errors.variant ?? null;
  const trackError = errors.track ?? null;
  const multi = board.datasets.length > 1;
  const counted = board.datasets.filter((d) => d.scored);
  const apiQuery = new URLSearchParams({ metric });
  if (board.variant !== null) apiQuery.set("variant", board.variant);
  if (board.track !== null) apiQuery.set("track", board.track.id);
  if (board.dataset !== null) apiQuery.set("dataset", board.dataset.name);
  if (board.rankDataset !== null) apiQuery.set("rankDataset", board.rankDataset);
  if (board.allRuns) apiQuery.set("allRuns", "1");
  const api = `/api/v1/phases/${encodeURIComponent(board.phase.id)}/leaderboard`;
  // The shown track is kept in every link (also the default one: links stay valid when the order changes).
  const state: BoardQuery = {
    metric: query.metric,
    variant: board.variant ?? undefined,
    track: board.track?.id,
    dataset: board.dataset?.name,
    rankDataset: board.rankDataset ?? undefined,
    all: board.allRuns,
    rp: query.rp,
    ci: query.ci,
  };
  // The charts show the first 8 ranked runs of the board (8 distinct colours), in the ranked
  // setting; disqualified runs (and, for organizers, hidden runs) are not ranked and not charted.
  const settingScores = (r: Leaderboard["rows"][number]): BoardMetricsJson => (board.variant === null ? r.scores : (r.variants[board.variant] ?? {}));
  const chartRuns = board.rows
    .filter((r) => r.value !== null && !r.disqualified && !r.hidden)
    .slice(0, 8)
    .map((r) => {
      const scores = settingScores(r);
      const primary = recallPrecision(scores, metric);
      return {
        id: r.submissionId,
        label: `${r.team.name} · ${r.systemName}${r.isBaseline ? " (baseline)" : ""}`,
        metrics: CHART_METRICS.filter((m) => scores[m]).map((m) => ({
          metric: m,
          label: METRIC_LABELS[m],
          f1: scores[m]?.f1 ?? 0,
        })),
        primary: primary ? { recall: primary.recall, precision: primary.precision } : null,
      };
    });
  const taskHref = `/tasks/${encodeURIComponent(board.task.slug)}`;
  const phaseBase = `${taskHref}/phases/${encodeURIComponent(board.phase.id)}`;
  // Optional metrics are offered when some run has them (or the board ranks by one).
  const selectable = shownMetrics(LEADERBOARD_METRICS, (m) => m === metric || board.rows.some((r) => r.scores[m] !== undefined));
  const submitHref = `${taskHref}/phases/${encodeURIComponent(board.phase.id)}/submit`;

  return (
    <div className="space-y-6">
      <header className="space-y-1">
        <Breadcrumbs links={[{ href: taskHref, label: board.task.title }]} />
        <h1 className="text-2xl font-semibold tracking-tight">
          Leaderboard: {board.phase.name} phase
          {board.dataset && (
            <>
              , <span data-testid="board-dataset">{board.dataset.name}</span> dataset
            </>
          )}
          {board.track && (
            <>
              , <span data-testid="board-track">{board.track.name}</span> track
            </>
          )}
        </h1>
        {board.track && (
          <p className="text-sm text-zinc-700" data-testid="board-track-note">
            {board.track.description && <>{board.track.description} </>}Each track is ranked separately: this board ranks the runs of the{" "}
            {board.track.name} track, with the baselines as reference rows.
          </p>
        )}
        <p className="text-sm text-zinc-700">
          Ranked by <span className="font-medium" data-testid="ranked-by">{rankedBy}</span>
          {metric === board.task.primaryMetric && board.variant === null && " (the task's primary metric)"}.{" "}
          {board.allRuns ? "All runs are listed." : selectionText(board)} Baselines are listed for reference and take no rank.
        </p>
        <BoardPolicyNotice board={board} />
        {multi && !board.dataset && (
          <p className="text-sm text-zinc-700" data-testid="macro-note">
            The score is the macro-average of CoNLL F1 over the {counted.length} datasets; a dataset a run left out counts as 0.
            {counted.length < board.datasets.length &&
              ` (${listOf(board.datasets.filter((d) => !d.scored).map((d) => d.name))} ${board.datasets.length - counted.length === 1 ? "has" : "have"} no gold key yet and ${board.datasets.length - counted.length === 1 ? "is" : "are"} not counted.)`}{" "}
            {board.rankDataset ? (
              <>
                This board is ranked by the <span data-testid="ranked-dataset">{board.rankDataset}</span> dataset alone.
              </>
            ) : (
              "Each dataset's column can rank the board."
            )}
          </p>
        )}
        {board.dataset && (
          <p className="text-sm text-zinc-700" data-testid="dataset-note">
            The scores of the {board.dataset.name} dataset alone{board.dataset.language && ` (${board.dataset.language})`}, every metric; a run that left it
            out is marked missing and counts as 0.
          </p>
        )}
        {variants.length > 0 && (
          <p className="text-sm text-zinc-700" data-testid="evaluation-profile">
            Primary setting: {board.evaluation.label}. The columns {listOf(variants.map((v) => v.label))} give the CoNLL F1 of each run under the
            profile&apos;s secondary {variants.length === 1 ? "variant" : "variants"}; the board can be ranked by any of them.
          </p>
        )}
      </header>

      {badMetric && (
        <Notice kind="error">
          “{rawMetric}” is not a metric. Choose one of: {LEADERBOARD_METRICS.map((m) => METRIC_LABELS[m]).join(", ")}. Showing the default ranking.
        </Notice>
      )}

      {trackError && (
        <Notice kind="error">
          “{rawTrack}” is not a track of this phase: choose one of {listOf(board.tracks.map((t) => t.name))}. Showing the {board.track?.name} track.
        </Notice>
      )}

      {(errors.dataset || errors.rankDataset) && (
        <Notice kind="error">
          {errors.dataset ?? errors.rankDataset} Showing the {errors.dataset ? "board of all datasets" : "macro-average ranking"}.
        </Notice>
      )}

      {variantError && (
        <Notice kind="error">
          “{rawVariant}” is not an evaluation setting of this task:{" "}
          {variants.length > 0 ? `choose one of ${listOf(variants.map((v) => `${v.label} (${v.id})`))}` : "it has no secondary variants"}. Showing the primary
          setting.
        </Notice>
      )}

      <div className="flex flex-wrap items-end gap-x-6 gap-y-3 rounded-lg border border-zinc-200 bg-white p-4 shadow-sm">
        {board.track && board.tracks.length > 0 && (
          <BoardSwitch
            label="Track"
            testId="track-switch"
            choices={board.tracks.map((t) => ({ key: t.id, label: t.name, href: boardHref(base, { ...state, track: t.id }), current: t.id === board.track?.id }))}
          />
        )}
        {multi && (
          <BoardSwitch
            label="Dataset"
            testId="dataset-switch"
            choices={[
              { key: "", label: "All datasets (macro-average)", href: boardHref(base, { ...state, dataset: undefined, rankDataset: undefined }), current: board.dataset === null },
              ...board.datasets.map((d) => ({
                key: `d-${d.name}`,
                label: d.name,
                title: d.language ? `${d.name} (${d.language})` : undefined,
                href: boardHref(base, { ...state, dataset: d.name, rankDataset: undefined }),
                current: board.dataset?.name === d.name,
              })),
            ]}
          />
        )}
        <Form action={base} className="flex flex-wrap items-end gap-2" aria-label={variants.length > 0 ? "Ranking metric and setting" : "Ranking metric"}>
          <div className="space-y-1">
            <label htmlFor="board-metric" className="block text-sm font-medium text-zinc-800">
              Rank by
            </label>
            <BoardMetricSelect key={metric} value={metric} metrics={selectable.map((m) => ({ value: m, label: `${METRIC_LABELS[m]} F1` }))} />
          </div>
          {variants.length > 0 && (
            <div className="space-y-1">
              <label htmlFor="board-variant" className="block text-sm font-medium text-zinc-800">
                Setting
              </label>
              <BoardMetricSelect
                key={board.variant ?? ""}
                id="board-variant"
                name="variant"
                value={board.variant ?? ""}
                metrics={[{ value: "", label: "Primary setting" }, ...variants.map((v) => ({ value: v.id, label: v.label }))]}
              />
            </div>
          )}
          {multi && !board.dataset && (
            <div className="space-y-1">
              <label htmlFor="board-rank-dataset" className="block text-sm font-medium text-zinc-800">
                Over
              </label>
              <BoardMetricSelect
                key={board.rankDataset ?? ""}
                id="board-rank-dataset"
                name="rankDataset"
                value={board.rankDataset ?? ""}
                metrics={[{ value: "", label: "All datasets (macro-average)" }, ...board.datasets.map((d) => ({ value: d.name, label: `${d.name} only` }))]}
              />
            </div>
          )}
          {board.track && <input type="hidden" name="track" value={board.track.id} />}
          {board.dataset && <input type="hidden" name="dataset" value={board.dataset.name} />}
          {board.allRuns && <input type="hidden" name="all" value="1" />}
          {query.rp && <input type="hidden" name="rp" value="1" />}
          <button type="submit" className={secondaryButton}>
            Apply
          </button>
        </Form>

        <nav aria-label="Runs shown" className="flex rounded-md border border-zinc-300 text-sm">
          <ToggleLink href={boardHref(base, { ...state, all: false })} current={!board.allRuns}>
            {ONE_PER_TEAM[board.phase.selectionRule]}
          </ToggleLink>
          <ToggleLink href={boardHref(base, { ...state, all: true })} current={board.allRuns}>
            All runs
          </ToggleLink>
        </nav>

        <Link href={boardHref(base, { ...state, rp: !query.rp })} className={secondaryButton} data-testid="toggle-rp">
          {query.rp ? "Hide recall and precision" : "Show recall and precision"}
        </Link>

        {significance && (
          <Link href={boardHref(base, { ...state, ci: !query.ci })} className={secondaryButton} data-testid="toggle-ci">
            {query.ci ? "Hide 95 % intervals" : `Show 95 % intervals (${METRIC_LABELS[metric]} F1)`}
          </Link>
        )}

        <p className="ml-auto space-x-3 text-sm">
          <a href={`${api}?${apiQuery}`} className="underline">
            JSON
          </a>
          <a href={`${api}?${apiQuery}&format=csv`} className="underline">
            CSV
          </a>
        </p>
      </div>

      {board.rows.length === 0 ? (
        <p className="text-sm text-zinc-600" data-testid="board-empty">
          {board.policy.ownTeamOnly
            ? "No runs to show you yet: until the phase closes, each team sees only its own scored runs."
            : board.track
              ? `No scored runs yet in the ${board.track.name} track.`
              : "No scored runs yet in this phase."}{" "}
          <Link href={submitHref} className="underline">
            Submit a run
          </Link>
          .
        </p>
      ) : (
        <>
          <BoardTable
            rows={board.rows}
            metric={metric}
            showRp={query.rp}
            significance={significance}
            teamHref={(teamId) => `${phaseBase}/teams/${encodeURIComponent(teamId)}`}
            variants={variants}
            rankedVariant={board.variant}
            variantHref={(variant) => boardHref(base, { ...state, metric: "conll", variant })}
            trackName={board.track?.name ?? null}
            datasets={multi && !board.dataset ? board.datasets : []}
            rankDataset={board.rankDataset}
            datasetHref={(rankDataset) => boardHref(base, { ...state, metric: "conll", variant: undefined, rankDataset })}
            datasetName={multi ? (board.dataset?.name ?? null) : null}
          />
          <section aria-labelledby="significance" className="space-y-1 text-sm text-zinc-600">
            <h2 id="significance" className="font-medium text-zinc-800">
              Significance
            </h2>
            {significance === null ? (
              <p data-testid="significance-note">
                Significance markers and intervals come from a paired bootstrap over per-document scores, which are stored for the primary setting
                only, so they are not shown when the board is ranked by {rankedVariant ? `the ${settingInSentence(rankedVariant.label)} setting` : "a variant"}.{" "}
                <Link href={boardHref(base, { ...state, variant: undefined })} className="underline">
                  Rank by the primary setting
                </Link>{" "}
                to see them.
              </p>
            ) : (
              <p data-testid="significance-note">
                <span className="text-sky-700">≈</span> marks a run whose {METRIC_LABELS[metric]} F1 is not significantly different from the run
                listed directly above it (two-sided p ≥ {significance.level}; baselines count as reference points), by a paired bootstrap over documents (Koehn 2004; Berg-Kirkpatrick et al.
                2012) with {significance.samples.toLocaleString("en")} samples and the fixed seed {significance.seed}. Click a marker to compare the two
                runs.{" "}
                {multi &&
                  (board.dataset || board.rankDataset
                    ? `The bootstrap resamples the documents of the ${board.dataset?.name ?? board.rankDataset} dataset. `
                    : "For the macro-average, each sample resamples the documents within each dataset (a dataset a run left out counts as 0 in every sample). ")}
                {query.ci && "Intervals are 95 % percentile bootstrap intervals of the run's F1 over documents."}{" "}
                <Link href={metricHref(metric)} className="underline">
                  How {METRIC_LABELS[metric]} is computed
                </Link>
                .
              </p>
            )}
          </section>
          {chartRuns.length > 0 && rankedVariant && (
            <p className="text-sm text-zinc-600" data-testid="charts-setting">
              The charts show the {settingInSentence(rankedVariant.label)} setting, by which the board is ranked.
            </p>
          )}
          {chartRuns.length > 0 && (
            <LeaderboardCharts
              runs={chartRuns}
              primaryLabel={`${metric === "conll" ? "CoNLL (mean of MUC, B³ and CEAFe)" : METRIC_LABELS[metric]}${rankedVariant ? `, ${settingInSentence(rankedVariant.label)}` : ""}`}
            />
          )}
        </>
      )}

      <section aria-labelledby="tie-policy" className="space-y-1 text-sm text-zinc-600">
        <h2 id="tie-policy" className="font-medium text-zinc-800">
          Ties
        </h2>
        <p data-testid="tie-policy">{board.tiePolicy}</p>
        <p>
          Percentages have 2 decimals; hover over a number to see its exact value. Times are in UTC (the phase&apos;s time zone is{" "}
          {board.phase.displayTimeZone}).
        </p>
      </section>
    </div>
  );
}

/**
 * What the phase's leaderboard timing does to this board, said to the viewer (nothing for a
 * live board): hidden until the phase closes, or frozen; organizers are told what they see
 * that others do not.
 */
function BoardPolicyNotice({ board }: { board: Leaderboard }) {
  const { policy } = board;
  if (policy.final) return null;
  if (policy.timing === "after_close" && board.generatedAt < policy.closesAt) {
    return (
      <div data-testid="board-policy">
        <Notice kind="info">
          {policy.organizerView ? (
            <>
              Until the phase closes on <UtcTime date={policy.closesAt} />, each team sees only its own runs (and the baselines) on this board. As an
              organizer you see every run.
            </>
          ) : (
            <>
              The leaderboard is hidden until the phase closes on <UtcTime date={policy.closesAt} />; you see only your team&apos;s runs.
            </>
          )}
        </Notice>
      </div>
    );
  }
  if (policy.timing === "frozen" && policy.frozenAt) {
    return (
      <div data-testid="board-policy">
        <Notice kind="info">
          Frozen since <UtcTime date={policy.frozenAt} />: later runs are scored but not shown.
          {policy.organizerView && " As an organizer you see them too, marked “after the freeze”."}
        </Notice>
      </div>
    );
  }
  return null;
}

/** `["a", "b", "c"]` → `"a, b and c"`. */
function listOf(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

/** One half of a two-way toggle, as a link (`aria-current` marks the active one). */
function ToggleLink({ href, current, children }: { href: string; current: boolean; children: string }) {
  return (
    <Link
      href={href}
      aria-current={current ? "page" : undefined}
      className={`px-3 py-1.5 first:rounded-l-md last:rounded-r-md ${current ? "bg-zinc-900 font-medium text-white" : "text-zinc-700 hover:bg-zinc-100"}`}
    >
      {children}
    </Link>
  );
}

