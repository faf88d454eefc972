/**
 * A phase's leaderboard, 50 rows a page (issue 12 §1, §2). The query (one zod schema shared with
 * the API, `lib/validations/leaderboard-query.ts`): `?metric=` ranks by a metric (default: the
 * task's primary metric; a column header sets it), `?variant=` by a secondary variant of the
 * task's evaluation profile, `?track=` shows a track's board, `?dataset=` a dataset's own board
 * and `?rankDataset=` ranks the macro-averaged board by one dataset, `?all=1` lists every run,
 * `?rp=1` shows recall and precision, `?ci=1` the 95 % intervals, `?team=` keeps the teams whose
 * name contains it (ranks stay the whole board's), `?cursor=` is the page after a "Next" link.
 * `?columns=all` shows every metric on the macro-averaged board of a phase with several
 * datasets, which otherwise shows the compact set (the ranking value, the macro-averaged CoNLL
 * F1 and one column per dataset: issue 24 §1).
 *
 * A "Skip to results" link (visible on focus) comes first in the page's content; it moves the
 * focus to the results region (`#board-results`: the table, or the sentence of an empty board).
 *
 * Visibility and the phase's leaderboard policy are enforced by `getLeaderboard` (401/403
 * become a message here, unknown phases a 404); significance markers are read from storage
 * (`readBoardSignificance`: no bootstrap on a page view). What the page shows is shaped by
 * `leaderboardView` (lib/view-models/leaderboard-view.ts); the parts live next to this file. The
 * table is rendered once per board version (`CachedBoardTable`, issue 26 §3). Anonymous readers
 * of one address whose requests overlap share one load of the board and its significance
 * (`loadPageBoard`).
 */
import type { Metadata } from "next";
import Link from "@/app/_components/link";
import { notFound } from "next/navigation";
import { leaderboardHref } from "@/lib/hrefs";
import { leaderboardView } from "@/lib/view-models/leaderboard-view";
import { leaderboardTitle } from "@/lib/view-models/leaderboard-text";
import { requestedLinkState } from "@/lib/view-models/board-links";
import { AccessDenied } from "@/app/_components/access-denied";
import { CachedBoardTable } from "@/app/_components/cached-board-table";
import { DatasetHeatmap } from "@/app/_components/charts/dataset-heatmap";
import { LeaderboardCharts } from "@/app/_components/charts/leaderboard-charts";
import { BoardControls } from "./board-controls";
import { BoardHeader } from "./board-header";
import { PagerNav, TeamSearch } from "./board-pager";
import { SignificanceSection } from "./board-significance";
import { loadPageBoard, searchKey } from "./load-board";

type Params = Promise<{ slug: string; phaseId: string }>;
type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** Title: "Leaderboard · <phase> phase · <task>" (just "Leaderboard" for a board the viewer may not see; "Not found" for a phase of another task). */
export async function generateMetadata({ params, searchParams }: { params: Params; searchParams: SearchParams }): Promise<Metadata> {
  const { slug, phaseId } = await params;
  const { loaded } = await loadPageBoard(phaseId, searchKey(await searchParams));
  if (loaded.kind === "denied") return { title: "Leaderboard" };
  return { title: loaded.board.task.slug === slug ? leaderboardTitle(loaded.board.phase.name, loaded.board.task.title) : "Not found" };
}

/** The page; see the module comment. */
export default async function LeaderboardPage({ params, searchParams }: { params: Params; searchParams: SearchParams }) {
  const { slug, phaseId } = await params;
  const search = searchKey(await searchParams);
  const { parsed, loaded } = await loadPageBoard(phaseId, search);
  if (loaded.kind === "denied") {
    const here = leaderboardHref(slug, phaseId, requestedLinkState(parsed.query));
    return <AccessDenied title="Leaderboard" testId="board-denied" message={loaded.message} signIn={loaded.signIn ? here : null} />;
  }
  const { board, errors, significance } = loaded;
  if (board.task.slug !== slug) notFound();
  const view = leaderboardView(board, parsed, errors, significance, {
    columns: new URLSearchParams(search).get("columns"),
  });
  const multi = board.datasets.length > 1;

  return (
    <div className="min-w-0 space-y-4">
      <a
        href="#board-results"
        className="sr-only rounded-md bg-white text-sm font-medium text-zinc-900 shadow-md focus:not-sr-only focus:fixed focus:px-4 focus:py-2 focus:left-4 focus:top-3 focus:z-50 focus:outline-none focus:ring-2 focus:ring-zinc-900"
        data-testid="skip-to-results"
      >
        Skip to results
      </a>
      <BoardHeader board={board} view={view} />
      <BoardControls controls={view.controls} />
      {view.empty !== null ? (
        <p id="board-results" tabIndex={-1} className="text-sm text-zinc-700 focus:outline-none" data-testid="board-empty">
          {view.empty}{" "}
          <Link href={view.submitHref} className="underline">
            Submit a run
          </Link>
          .
        </p>
      ) : (
        <>
          <TeamSearch pager={view.pager} />
          <section
            id="board-results"
            tabIndex={-1}
            aria-label="Results"
            className="space-y-2 rounded-lg focus:outline-none focus-visible:ring-2 focus-visible:ring-zinc-500"
            data-testid="board-results"
          >
            {view.noMatch !== null && (
              <p className="text-sm text-zinc-700 [overflow-wrap:anywhere]" data-testid="board-no-match">
                {view.noMatch}
              </p>
            )}
            {board.rows.length > 0 && (
              <>
                <p className="text-xs text-zinc-700" data-testid="board-legend">
                  {view.legend}
                </p>
                <CachedBoardTable
                  rows={board.rows}
                  metric={board.metric}
                  showRp={parsed.query.rp}
                  significance={view.tableSignificance}
                  columns={view.columns}
                  best={view.best}
                  bestLabel={view.bestLabel}
                  teamProgress={{ slug, phaseId: board.phase.id }}
                  variants={board.evaluation.variants}
                  rankedVariant={board.variant}
                  trackName={board.track?.name ?? null}
                  datasets={multi && !board.dataset ? board.datasets : []}
                  rankDataset={board.rankDataset}
                  datasetName={multi ? (board.dataset?.name ?? null) : null}
                />
              </>
            )}
          </section>
          <PagerNav pager={view.pager} />
          <SignificanceSection view={view.significance} metric={board.metric} />
          {view.charts.runs.length > 0 && view.charts.settingNote && (
            <p className="text-sm text-zinc-700" data-testid="charts-setting">
              {view.charts.settingNote}
            </p>
          )}
          <DatasetHeatmap runs={view.charts.runs} datasets={view.charts.datasets} setting={view.charts.heatmapSetting} />
          <LeaderboardCharts runs={view.charts.runs} primaryLabel={view.charts.primaryLabel} primaryMetric={board.metric} />
        </>
      )}

      <section aria-labelledby="tie-policy" className="space-y-1 text-sm text-zinc-700">
        <h2 id="tie-policy" className="font-medium text-zinc-900">
          Ties
        </h2>
        <p data-testid="tie-policy">{board.tiePolicy}</p>
        <p>
          Scores are percentages with 2 decimals; hover over a number to see its exact value. Times are in UTC (the phase&apos;s time zone is{" "}
          {board.phase.displayTimeZone}).
        </p>
      </section>
    </div>
  );
}
