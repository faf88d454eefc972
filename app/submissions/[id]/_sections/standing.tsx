/** The run's standing on its phase's board, as the submission page says it. */
import Link from "@/app/_components/link";
import { runRankSentence, type RunRank } from "@/lib/runs";
import { runRankLinks } from "@/lib/view-models/submission-view";

/** "Rank 3 of 12 by CoNLL F1." (or why the run has none), with a link to the board and, when another run counts for the team, to that run. */
export function RunRankLine({ rank, boardHref }: { rank: RunRank; boardHref: string }) {
  const links = runRankLinks(rank, boardHref);
  return (
    <p className="text-sm text-zinc-800" data-testid="run-rank" data-rank={rank.kind === "ranked" ? String(rank.rank) : undefined}>
      <span className={rank.kind === "ranked" ? "font-semibold" : undefined}>{runRankSentence(rank)}</span>{" "}
      {links.counted && (
        <>
          <Link href={links.counted} className="underline">
            Open the counted run
          </Link>
          {" · "}
        </>
      )}
      <Link href={links.board} className="underline">
        Leaderboard
      </Link>
    </p>
  );
}
