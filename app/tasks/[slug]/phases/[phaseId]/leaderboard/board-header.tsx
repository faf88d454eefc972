/**
 * The leaderboard page's header: the way back to the task, the title (phase, dataset, track),
 * one line saying what is ranked (`view.headline`, e.g. "Macro-average CoNLL F1 over 6
 * datasets · CRAC primary setting · best run per team"), the board's policy notice (hidden
 * until the close, frozen), and an "About this ranking" disclosure with the rest: how teams
 * are represented, the notes of tracks, multi-dataset phases and tasks with evaluation
 * variants, and the zeros metric when the gold has none; then the notices about the address's
 * parameters that could not be used. Server-safe.
 */
import type { Leaderboard } from "@/lib/boards";
import type { LeaderboardView } from "@/lib/view-models/leaderboard-view";
import { listOf, NO_ZEROS } from "@/lib/view-models/leaderboard-text";
import { Breadcrumbs, Notice, UtcTime } from "@/app/_components/ui";

/**
 * The header.
 *
 * @param board the board shown
 * @param view its view (`leaderboardView`)
 */
export function BoardHeader({ board, view }: { board: Leaderboard; view: LeaderboardView }) {
  const variants = board.evaluation.variants;
  const multi = board.datasets.length > 1;
  const counted = board.datasets.filter((d) => d.scored);
  const unscored = board.datasets.filter((d) => !d.scored);
  return (
    <>
      <header className="space-y-1">
        <Breadcrumbs links={[{ href: view.taskHref, label: board.task.title }]} />
        <h1 className="text-2xl font-semibold tracking-tight [overflow-wrap:anywhere]">
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
        <p className="text-sm font-medium text-zinc-800 [overflow-wrap:anywhere]" data-testid="board-headline">
          {view.headline.map((segment, i) =>
            segment.mark === "ranked" ? (
              <span key={i} data-testid="ranked-by">
                {segment.text}
              </span>
            ) : segment.mark === "dataset" ? (
              <span key={i} data-testid="ranked-dataset">
                {segment.text}
              </span>
            ) : (
              segment.text
            ),
          )}
        </p>
        <BoardPolicyNotice board={board} />
        <details className="group text-sm text-zinc-700" data-testid="board-about">
          <summary className="cursor-pointer text-zinc-800 underline decoration-zinc-400 underline-offset-2 hover:decoration-zinc-800">About this ranking</summary>
          <div className="mt-1 max-w-prose space-y-1">
            {board.track && (
              <p data-testid="board-track-note">
                {board.track.description && <>{board.track.description} </>}Each track is ranked separately: this board ranks the runs of the {board.track.name}{" "}
                track, with the baselines as reference rows.
              </p>
            )}
            <p>
              Ranked by {view.rankedBy}
              {view.isTaskPrimary && " (the task's primary metric)"}. {view.selection} Baselines are listed for reference and take no rank.
            </p>
            {multi && !board.dataset && (
              <p data-testid="macro-note">
                The score is the macro-average of CoNLL F1 over the {counted.length} datasets; a dataset a run left out counts as 0.
                {unscored.length > 0 &&
                  ` (${listOf(unscored.map((d) => d.name))} ${unscored.length === 1 ? "has" : "have"} no gold key yet and ${unscored.length === 1 ? "is" : "are"} not counted.)`}{" "}
                {board.rankDataset ? `This board is ranked by the ${board.rankDataset} dataset alone.` : "Each dataset's column can rank the board."}
                {view.columnSet === "compact" && " The other metrics and the secondary settings are under “All metrics”."}
              </p>
            )}
            {board.dataset && (
              <p data-testid="dataset-note">
                The scores of the {board.dataset.name} dataset alone{board.dataset.language && ` (${board.dataset.language})`}, every metric; a run that left it
                out is marked missing and counts as 0.
              </p>
            )}
            {variants.length > 0 && (
              <p data-testid="evaluation-profile">
                Primary setting: {board.evaluation.label}. The columns {listOf(variants.map((v) => v.label))} give the CoNLL F1 of each run under the
                profile&apos;s secondary {variants.length === 1 ? "variant" : "variants"}; the board can be ranked by any of them.
              </p>
            )}
            {view.goldZeros === false && (
              <p data-testid="zeros-note">
                Zeros: {NO_ZEROS}
                {multi && !board.dataset ? " (no dataset's gold key has a zero anaphor)" : " (its gold key has no zero anaphors)"}, so its column is left out.
              </p>
            )}
          </div>
        </details>
      </header>
      {view.notices.map((notice) => (
        <Notice key={notice} kind="error">
          <span className="block [overflow-wrap:anywhere]">{notice}</span>
        </Notice>
      ))}
    </>
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
