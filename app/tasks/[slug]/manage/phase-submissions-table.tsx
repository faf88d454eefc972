/** Every submission of a phase, for its organizers (private ones included), newest first. */
import Link from "next/link";
import type { SubmissionSummary } from "../../../../lib/services/submissions";
import { Table, UtcTime } from "../../../_components/ui";

const STATUS_STYLES: Record<SubmissionSummary["status"], string> = {
  QUEUED: "text-zinc-600",
  SCORING: "text-sky-700",
  SCORED: "text-emerald-700",
  FAILED: "text-red-700",
};

/**
 * A table of submissions: team, system, track (when `withTracks`), status (error message on
 * hover; "withdrawn" for a run its team withdrew, "disqualified" with the public reason for a
 * run the organizers disqualified), submission time, gold version, and a link to each.
 */
export function PhaseSubmissionsTable({ submissions, withTracks = false }: { submissions: SubmissionSummary[]; withTracks?: boolean }) {
  if (submissions.length === 0) return <p className="text-sm text-zinc-600">No submissions yet.</p>;
  return (
    <Table label="Submissions" columns={["Team", "System", ...(withTracks ? ["Track"] : []), "Status", "Submitted", "Gold", { label: "Details", srOnly: true }]}>
      {submissions.map((s) => (
        <tr key={s.id} data-testid="phase-submission-row">
          <td className="py-2 pr-4">{s.team.name}</td>
          <td className="py-2 pr-4">
            {s.systemName}
            {s.isBaseline && <span className="ml-2 rounded bg-zinc-100 px-1.5 py-0.5 text-xs text-zinc-600">baseline</span>}
            {s.visibility !== "PUBLIC" && <span className="ml-2 rounded bg-zinc-100 px-1.5 py-0.5 text-xs text-zinc-600">private</span>}
          </td>
          {withTracks && <td className="py-2 pr-4">{s.track?.name ?? "—"}</td>}
          <td className={`py-2 pr-4 font-medium ${STATUS_STYLES[s.status]}`} title={s.errorMessage ?? undefined}>
            {s.status.toLowerCase()}
            {s.withdrawnAt && (
              <span className="ml-2 rounded bg-zinc-700 px-1.5 py-0.5 text-xs font-medium text-white" data-testid="withdrawn-label" title="The team withdrew this run: it is on no leaderboard.">
                withdrawn
              </span>
            )}
            {s.disqualified && (
              <span className="ml-2 rounded bg-red-100 px-1.5 py-0.5 text-xs font-medium text-red-900" data-testid="disqualified-label" title={`Disqualified: ${s.disqualified.reason}`}>
                disqualified<span className="sr-only">: {s.disqualified.reason}</span>
              </span>
            )}
          </td>
          <td className="py-2 pr-4 text-zinc-600">
            <UtcTime date={s.submittedAt} />
          </td>
          <td className="py-2 pr-4 text-zinc-600">{s.goldVersion === null ? "—" : `v${s.goldVersion}`}</td>
          <td className="py-2 text-right">
            <Link href={`/submissions/${s.id}`} className="font-medium text-zinc-900 underline">
              Details
            </Link>
          </td>
        </tr>
      ))}
    </Table>
  );
}
