/**
 * A phase's "Final results" line for the task page (issue 11 §2): a link to the newest published
 * snapshot with its date, and, when there are several, to the list. Renders nothing when the
 * phase has none or the viewer may not see its results (`latestSnapshot`). Server component.
 *
 *   <PhaseResultsLink phaseId={phase.id} viewer={viewer} />
 */
import Link from "../../_components/link";
import type { Viewer } from "@/lib/permissions";
import { latestSnapshot } from "@/lib/boards";
import { UtcTime } from "../../_components/ui";

/**
 * The line.
 *
 * @param phaseId the phase
 * @param viewer the page's viewer (null = anonymous)
 */
export async function PhaseResultsLink({ phaseId, viewer }: { phaseId: string; viewer: Viewer }) {
  const latest = await latestSnapshot(viewer, phaseId);
  if (!latest) return null;
  return (
    <p className="mt-3 text-sm text-zinc-700" data-testid="phase-results-link">
      <Link href={latest.href} className="font-medium text-zinc-900 underline">
        Final results
      </Link>{" "}
      published <UtcTime date={latest.createdAt} />
      {latest.count > 1 && (
        <>
          {" "}
          (snapshot #{latest.number};{" "}
          <Link href={latest.resultsHref} className="underline">
            all {latest.count} snapshots
          </Link>
          )
        </>
      )}
      .
    </p>
  );
}
