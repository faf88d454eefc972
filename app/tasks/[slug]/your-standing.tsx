/**
 * "Your standing" on the task page (issue 11 §4): for the viewer's team in the task, per phase,
 * its best score so far on the task's primary metric (linked to that run), the runs it has left
 * today and in total (and when the daily count resets), and the time left until the phase
 * closes. Renders nothing for anonymous viewers and users without a team in the task (the
 * loader, `getTaskStanding` in lib/runs/standing.ts, answers null for them). Server-safe.
 *
 * Usage (from the task page): `<YourStanding standing={await getTaskStanding(viewer, task.id)} />`.
 */
import Link from "../../_components/link";
import type { PhaseStanding, TeamTaskStanding, QuotaStatus } from "@/lib/runs";
import { METRIC_LABELS } from "@/lib/validations/metrics";
import { Percent } from "../../_components/board-numbers";
import { UtcTime } from "../../_components/ui";

/** A duration for people, e.g. "3 days 4 hours", "5 hours 12 minutes", "40 minutes" (the two largest units). */
export function durationText(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const mins = minutes % 60;
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  if (days > 0) return hours > 0 ? `${unit(days, "day")} ${unit(hours, "hour")}` : unit(days, "day");
  if (hours > 0) return mins > 0 ? `${unit(hours, "hour")} ${unit(mins, "minute")}` : unit(hours, "hour");
  return minutes > 0 ? unit(minutes, "minute") : "less than a minute";
}

/** "2 of 5 left today, 18 of 20 in total", or "no limit". */
function quotaText(q: QuotaStatus): string {
  const today = q.dailyLimit === null ? "no daily limit" : `${q.remainingToday} of ${q.dailyLimit} left today`;
  const total = q.totalLimit === null ? "no total limit" : `${q.remainingTotal} of ${q.totalLimit} in total`;
  return `${today}, ${total}`;
}

/**
 * The viewer's team's standing in the task.
 *
 * @param standing from `getTaskStanding(viewer, task.id)`; null renders nothing
 */
export function YourStanding({ standing }: { standing: TeamTaskStanding | null }) {
  if (!standing || standing.phases.length === 0) return null;
  const metric = `${METRIC_LABELS[standing.metric]} F1`;
  return (
    <section aria-labelledby="your-standing-heading" className="rounded-lg border border-sky-200 bg-sky-50 p-5" data-testid="your-standing">
      <h2 id="your-standing-heading" className="text-base font-semibold text-zinc-900">
        Your standing: <span data-testid="your-standing-team">{standing.team.name}</span>
      </h2>
      <ul className="mt-3 space-y-3">
        {standing.phases.map((p) => (
          <PhaseLine key={p.phase.id} p={p} metric={metric} />
        ))}
      </ul>
    </section>
  );
}

/** One phase of the standing. */
function PhaseLine({ p, metric }: { p: PhaseStanding; metric: string }) {
  return (
    <li className="text-sm text-zinc-800" data-testid="your-standing-phase" data-phase-id={p.phase.id}>
      <h3 className="font-medium text-zinc-900">{p.phase.name} phase</h3>
      <dl className="mt-1 grid grid-cols-1 gap-x-4 gap-y-1 sm:grid-cols-[9rem_1fr]">
        <dt className="text-zinc-600">Best {metric}</dt>
        <dd data-testid="your-standing-best">
          {p.best ? (
            <>
              <Percent value={p.best.value} title={`${metric} = ${p.best.value}`} />{" "}
              <Link href={`/submissions/${encodeURIComponent(p.best.submissionId)}`} className="underline">
                {p.best.systemName}
              </Link>
            </>
          ) : (
            <span className="text-zinc-600">no scored run yet</span>
          )}
        </dd>
        <dt className="text-zinc-600">Runs left</dt>
        <dd data-testid="your-standing-quota">
          {p.state === "closed" ? (
            <span className="text-zinc-600">the phase is closed</span>
          ) : (
            <>
              {quotaText(p.quota)}
              {p.quota.dailyLimit !== null && (
                <span className="text-zinc-600">
                  {" "}
                  (the daily count resets at <UtcTime date={p.quota.resetsAt} />)
                </span>
              )}
              {p.trackQuotas.map((q) => (
                <span key={q.track?.id} className="block">
                  {q.track?.name} track: {quotaText(q)}
                </span>
              ))}
            </>
          )}
        </dd>
        <dt className="text-zinc-600">Time left</dt>
        <dd data-testid="your-standing-time">
          {p.state === "closed" ? (
            <>
              closed on <UtcTime date={p.phase.closesAt} />
            </>
          ) : p.state === "upcoming" ? (
            <>
              opens on <UtcTime date={p.phase.opensAt} />, closes on <UtcTime date={p.phase.closesAt} />
            </>
          ) : (
            <>
              closes in {durationText(p.timeLeftMs)} (<UtcTime date={p.phase.closesAt} />)
            </>
          )}
        </dd>
      </dl>
    </li>
  );
}
