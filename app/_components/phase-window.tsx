/**
 * A phase's times in the three forms the design asks for: UTC, the phase's display zone
 * (e.g. AoE), and the reader's local time (filled in by the browser). Server component.
 */
import { formatInZone } from "@/lib/validations/time";
import { LocalTime } from "./local-time";
import { UtcTime } from "./ui";

/** One instant: UTC, then the display zone (unless it is UTC), then the reader's local time. */
export function Instant({ date, zone, testId }: { date: Date; zone: string; testId?: string }) {
  return (
    <span className="inline-flex flex-wrap items-baseline gap-x-2" data-testid={testId}>
      <span className="font-medium text-zinc-900">
        <UtcTime date={date} />
      </span>
      {zone !== "UTC" && <span className="text-zinc-700">· {formatInZone(date, zone)}</span>}
      <span className="text-zinc-500">
        · your time: <LocalTime iso={date.toISOString()} testId="local-time" withWeekday />
      </span>
    </span>
  );
}

/** The submission window of a phase as a small definition list (opens / closes). */
export function PhaseWindow({ opensAt, closesAt, zone }: { opensAt: Date; closesAt: Date; zone: string }) {
  return (
    <dl className="grid grid-cols-[4.5rem_1fr] gap-y-1 text-sm">
      <dt className="text-zinc-500">Opens</dt>
      <dd>
        <Instant date={opensAt} zone={zone} testId="phase-opens" />
      </dd>
      <dt className="text-zinc-500">Closes</dt>
      <dd>
        <Instant date={closesAt} zone={zone} testId="phase-closes" />
      </dd>
    </dl>
  );
}
