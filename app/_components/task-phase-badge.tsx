/** The state of a phase's submission window at a given time. */
export type PhaseState = "open" | "upcoming" | "closed";

/**
 * Whether a phase is open, upcoming or closed at `now` (opensAt ≤ now < closesAt is open).
 */
export function phaseState(phase: { opensAt: Date; closesAt: Date }, now: Date): PhaseState {
  if (now.getTime() < phase.opensAt.getTime()) return "upcoming";
  if (now.getTime() < phase.closesAt.getTime()) return "open";
  return "closed";
}

const STYLES: Record<PhaseState, string> = {
  open: "border-emerald-200 bg-emerald-50 text-emerald-800",
  upcoming: "border-sky-200 bg-sky-50 text-sky-800",
  closed: "border-zinc-200 bg-zinc-100 text-zinc-600",
};

/** A small pill saying "open", "upcoming" or "closed". */
export function TaskPhaseBadge({ state }: { state: PhaseState }) {
  return (
    <span className={`inline-flex items-center rounded-full border px-2 py-0.5 text-xs font-medium ${STYLES[state]}`} data-testid="phase-state">
      {state}
    </span>
  );
}
