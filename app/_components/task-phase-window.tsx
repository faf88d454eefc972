/**
 * A phase's opening or closing time in the three forms the design asks for: UTC, the
 * phase's display zone (e.g. AoE), and the reader's local time (filled in by the browser).
 */
import { formatInZone } from "../../lib/validations/time";
import { TaskLocalTime } from "./task-local-time";
import { UtcTime } from "./ui";

/** One instant: UTC, then the display zone (unless it is UTC), then the reader's local time. */
export function TaskInstant({ date, zone }: { date: Date; zone: string }) {
  return (
    <span className="inline-flex flex-wrap items-baseline gap-x-2">
      <span className="font-medium text-zinc-900">
        <UtcTime date={date} />
      </span>
      {zone !== "UTC" && <span className="text-zinc-700">· {formatInZone(date, zone)}</span>}
      <TaskLocalTime iso={date.toISOString()} prefix="· your time: " />
    </span>
  );
}

/** The submission window of a phase as a small definition list (opens / closes). */
export function TaskPhaseWindow({ opensAt, closesAt, zone }: { opensAt: Date; closesAt: Date; zone: string }) {
  return (
    <dl className="grid grid-cols-[4.5rem_1fr] gap-y-1 text-sm">
      <dt className="text-zinc-500">Opens</dt>
      <dd data-testid="phase-opens">
        <TaskInstant date={opensAt} zone={zone} />
      </dd>
      <dt className="text-zinc-500">Closes</dt>
      <dd data-testid="phase-closes">
        <TaskInstant date={closesAt} zone={zone} />
      </dd>
    </dl>
  );
}
