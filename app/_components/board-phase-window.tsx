/**
 * A phase's submission window: in UTC, in the phase's display zone, and in the reader's
 * local time (filled in by the browser). Server component.
 */
import { formatInZone } from "../../lib/validations/time";
import { UtcTime } from "./ui";
import { RunLocalTime } from "./run-local-time";

/** One instant three ways: UTC, the phase's zone (unless it is UTC) and the reader's zone. */
export function BoardInstant({ date, zone, testId }: { date: Date; zone: string; testId?: string }) {
  return (
    <span data-testid={testId}>
      <UtcTime date={date} />
      {zone !== "UTC" && <span className="text-zinc-600"> · {formatInZone(date, zone)}</span>}
      <span className="text-zinc-600">
        {" "}
        · your time: <RunLocalTime iso={date.toISOString()} />
      </span>
    </span>
  );
}

/** The window of a phase as a small definition list. */
export function BoardPhaseWindow({ opensAt, closesAt, zone }: { opensAt: Date; closesAt: Date; zone: string }) {
  return (
    <dl className="grid grid-cols-[5rem_1fr] gap-y-1 text-sm">
      <dt className="text-zinc-500">Opens</dt>
      <dd>
        <BoardInstant date={opensAt} zone={zone} testId="phase-opens" />
      </dd>
      <dt className="text-zinc-500">Closes</dt>
      <dd>
        <BoardInstant date={closesAt} zone={zone} testId="phase-closes" />
      </dd>
    </dl>
  );
}
