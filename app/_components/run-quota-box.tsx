/**
 * The submit page's quota box: runs left today and in total for the submitting team, and
 * when the daily count resets (00:00 UTC), in UTC and in the reader's local time. When some
 * track of the phase has limits of its own, the runs left per track: each such track's own,
 * and the phase's limits shared by the other tracks. Server component; the local time is
 * formatted in the browser by `LocalTime`.
 */
import type { QuotaStatus, TrackQuota } from "@/lib/runs";
import { LocalTime } from "./local-time";
import { UtcTime } from "./ui";

/** "3 of 5 left" / "no limit (2 used)". */
function left(remaining: number | null, limit: number | null, used: number): string {
  if (limit === null) return `no limit (${used} used)`;
  return `${remaining ?? 0} of ${limit} left`;
}

/** One team's quota as a definition list. */
function RunQuotaFigures({ quota }: { quota: QuotaStatus }) {
  return (
    <dl className="grid grid-cols-[8rem_minmax(0,1fr)] gap-y-1 text-sm">
      <dt className="text-zinc-600">Today</dt>
      <dd data-testid="quota-today" className="tabular-nums">
        {left(quota.remainingToday, quota.dailyLimit, quota.usedToday)}
      </dd>
      <dt className="text-zinc-600">In total</dt>
      <dd data-testid="quota-total" className="tabular-nums">
        {left(quota.remainingTotal, quota.totalLimit, quota.usedTotal)}
      </dd>
    </dl>
  );
}

/** `"LLM"`, `"LLM and open"`, `"a, b and c"`. */
function names(tracks: readonly TrackQuota[]): string {
  const list = tracks.map((t) => t.track.name);
  return list.length <= 1 ? (list[0] ?? "") : `${list.slice(0, -1).join(", ")} and ${list[list.length - 1]}`;
}

/** "No runs are left …" for a used-up quota, else nothing. */
function usedUp(quota: QuotaStatus): string | null {
  if (quota.remainingTotal === 0) return "No runs are left in total.";
  if (quota.remainingToday === 0) return "No runs are left today.";
  return null;
}

/**
 * A team's quota per track: each track with limits of its own, then the phase's limits shared
 * by the other tracks (when there are any).
 */
function RunTrackQuotas({ shared, tracks }: { shared: QuotaStatus; tracks: readonly TrackQuota[] }) {
  const sharing = tracks.filter((t) => !t.ownLimits);
  const parts = [
    ...tracks.filter((t) => t.ownLimits).map((t) => ({ key: t.track.id, title: `${t.track.name} track (its own limits)`, quota: t.quota })),
    ...(sharing.length > 0
      ? [{ key: "shared", title: `${sharing.length === 1 ? `${names(sharing)} track` : `${names(sharing)} tracks`} (the phase's limits${sharing.length > 1 ? ", shared" : ""})`, quota: shared }]
      : []),
  ];
  return (
    <div className="space-y-3">
      {parts.map((p) => (
        <div key={p.key} data-testid="quota-track">
          <h3 className="text-sm font-medium text-zinc-800">{p.title}</h3>
          <RunQuotaFigures quota={p.quota} />
          {usedUp(p.quota) && <p className="text-sm text-red-700">{usedUp(p.quota)}</p>}
        </div>
      ))}
    </div>
  );
}

/**
 * The quota box.
 *
 * @param quotas one entry per team shown: a single entry for the submitting team (team
 *   null when a personal team would be created), or one per team when the user must choose;
 *   `tracks` is the team's quota per track (`ViewerQuota.tracks`) when some track of the phase
 *   has limits of its own, else null or absent
 * @param resetsAt the next 00:00 UTC
 */
export function RunQuotaBox({
  quotas,
  resetsAt,
}: {
  quotas: { team: string | null; quota: QuotaStatus; tracks?: TrackQuota[] | null }[];
  resetsAt: Date;
}) {
  const exhausted = quotas.length === 1 && !quotas[0].tracks && (quotas[0].quota.remainingToday === 0 || quotas[0].quota.remainingTotal === 0);
  return (
    <section aria-labelledby="quota-heading" className="rounded-lg border border-zinc-200 bg-white p-4 shadow-sm" data-testid="quota-box">
      <h2 id="quota-heading" className="text-sm font-semibold text-zinc-900">
        Runs left
      </h2>
      <div className="mt-2 space-y-3">
        {quotas.map(({ team, quota, tracks }) => (
          <div key={team ?? "personal"}>
            {quotas.length > 1 && <p className="text-sm font-medium text-zinc-800">{team}</p>}
            {tracks ? <RunTrackQuotas shared={quota} tracks={tracks} /> : <RunQuotaFigures quota={quota} />}
          </div>
        ))}
      </div>
      {exhausted && (
        <p className="mt-2 text-sm text-red-700">
          {quotas[0].quota.remainingTotal === 0 ? "No runs are left in this phase." : "No runs are left today."}
        </p>
      )}
      <p className="mt-3 text-xs text-zinc-600" data-testid="quota-reset">
        Daily counts reset at 00:00 UTC. Next reset: <UtcTime date={resetsAt} /> (your time:{" "}
        <LocalTime iso={resetsAt.toISOString()} testId="quota-reset-local" />
        ). Runs that fail because of a platform problem do not count.
      </p>
    </section>
  );
}
