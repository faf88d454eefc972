/** One phase on the task page: state, window, limits, tracks, rules (document check included) and the links the viewer may use. */
import Link from "../../_components/link";
import type { ReactNode } from "react";
import type { PhaseView } from "@/lib/tasks";
import { formatUtc } from "@/lib/validations/time";
import { TaskPhaseBadge, phaseState } from "../../_components/task-phase-badge";
import { PhaseWindow } from "../../_components/phase-window";
import { secondaryButton, primaryButton } from "../../_components/ui";

const VISIBILITY_TEXT = {
  PUBLIC: "public",
  PARTICIPANTS: "participants and organizers",
  ORGANIZERS: "organizers only",
} as const;

/** What the phase's document check means for a submitter. */
const DOCUMENT_CHECK_TEXT: Record<PhaseView["documentCheck"], string> = {
  warn: "must match the gold key's; you are shown any that do not, and confirm before the run counts",
  error: "must match the gold key's; a run with unknown or missing documents is refused",
};

/** "5 runs per day (UTC days) · 100 in total", or "none". */
function limitsText(phase: Pick<PhaseView, "dailyLimit" | "totalLimit">): string {
  const parts: string[] = [];
  if (phase.dailyLimit !== null) parts.push(`${phase.dailyLimit} run${phase.dailyLimit === 1 ? "" : "s"} per day (daily counts reset at 00:00 UTC)`);
  if (phase.totalLimit !== null) parts.push(`${phase.totalLimit} run${phase.totalLimit === 1 ? "" : "s"} in total`);
  return parts.length > 0 ? parts.join(" · ") : "no limit";
}

/** A track's own limits for the card ("3 runs per day · 10 in total"), or null when it shares the phase's. */
function trackLimitsText(track: PhaseView["tracks"][number]): string | null {
  const parts: string[] = [];
  if (track.dailyLimit !== null) parts.push(`${track.dailyLimit} run${track.dailyLimit === 1 ? "" : "s"} per day`);
  if (track.totalLimit !== null) parts.push(`${track.totalLimit} run${track.totalLimit === 1 ? "" : "s"} in total`);
  return parts.length > 0 ? parts.join(" · ") : null;
}

/** The phase's tracks: name, description and own limits; each is ranked separately. */
function PhaseTracks({ tracks }: { tracks: PhaseView["tracks"] }) {
  return (
    <div>
      <p>Every run declares one; each track is ranked on its own board.</p>
      <ul className="mt-1 list-disc space-y-0.5 pl-5">
        {tracks.map((t) => {
          const limits = trackLimitsText(t);
          return (
            <li key={t.id} data-testid="phase-track">
              <span className="font-medium text-zinc-900">{t.name}</span>
              {t.description && <>: {t.description}</>}
              {limits && <span className="text-zinc-600"> (its own limits per team: {limits})</span>}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

/** How the board picks each team's run, per selection rule (`finalRunLimit`: TEAM_SELECTED's N). */
const SELECTION_TEXT: Record<PhaseView["selectionRule"], (finalRunLimit: number) => string> = {
  BEST: () => "ranks each team's best scored run",
  LATEST: () => "ranks each team's latest scored run",
  TEAM_SELECTED: (n) => `each team chooses up to ${n} final run${n === 1 ? "" : "s"} and its best chosen run is ranked (its latest run when it chooses none)`,
};

/** The board's timing, as a sentence after the selection rule ("" when live). */
function TIMING_TEXT(phase: Pick<PhaseView, "leaderboardTiming" | "frozenAt">): string {
  if (phase.leaderboardTiming === "after_close") return "; hidden until the phase closes (each team sees only its own runs)";
  if (phase.leaderboardTiming === "frozen" && phase.frozenAt) return `; frozen at ${formatUtc(phase.frozenAt)} (later runs are scored but not shown)`;
  return "";
}

/**
 * A phase of a task as a card.
 *
 * @param slug the task's slug (for links)
 * @param signedIn whether the viewer is signed in ("Submit a run" needs it)
 * @param isOrganizer whether the viewer organizes the task ("Manage", gold status)
 * @param results the phase's final results line (a server component such as `PhaseResultsLink`), if any
 */
export function TaskPhaseCard({
  phase,
  slug,
  now,
  signedIn,
  isOrganizer,
  results,
}: {
  phase: PhaseView;
  slug: string;
  now: Date;
  signedIn: boolean;
  isOrganizer: boolean;
  results?: ReactNode;
}) {
  const state = phaseState(phase, now);
  const base = `/tasks/${encodeURIComponent(slug)}`;
  const phaseBase = `${base}/phases/${phase.id}`;
  return (
    <li className="rounded-lg border border-zinc-200 bg-white p-5 shadow-sm" data-testid="phase-card" aria-label={`Phase ${phase.name}`}>
      <div className="flex flex-wrap items-center gap-3">
        <h3 className="text-base font-semibold text-zinc-900">{phase.name}</h3>
        <TaskPhaseBadge state={state} />
        <span className="text-xs text-zinc-500">display zone: {phase.displayTimeZone === "AoE" ? "AoE (Anywhere on Earth, UTC−12)" : phase.displayTimeZone}</span>
      </div>
      <div className="mt-3">
        <PhaseWindow opensAt={phase.opensAt} closesAt={phase.closesAt} zone={phase.displayTimeZone} />
      </div>
      <dl className="mt-3 grid grid-cols-[8.5rem_1fr] gap-y-1 text-sm">
        <dt className="text-zinc-500">Limits per team</dt>
        <dd data-testid="phase-limits">
          {limitsText(phase)}
          {phase.tracks.some((t) => trackLimitsText(t) !== null) && "; tracks with limits of their own count only their runs, against those"}
        </dd>
        {phase.tracks.length > 0 && (
          <>
            <dt className="text-zinc-500">Tracks</dt>
            <dd data-testid="phase-tracks">
              <PhaseTracks tracks={phase.tracks} />
            </dd>
          </>
        )}
        <dt className="text-zinc-500">Leaderboard</dt>
        <dd>
          {VISIBILITY_TEXT[phase.leaderboardVisibility]}; {SELECTION_TEXT[phase.selectionRule](phase.finalRunLimit)}
          {TIMING_TEXT(phase)}
        </dd>
        <dt className="text-zinc-500">Document names</dt>
        <dd data-testid="phase-document-check">{DOCUMENT_CHECK_TEXT[phase.documentCheck]}</dd>
        <dt className="text-zinc-500">Scoring</dt>
        <dd>
          {isOrganizer && phase.gold
            ? `gold key v${phase.gold.version} active`
            : phase.hasGold
              ? "ready"
              : "waiting for the organizers to upload the gold key; runs are queued until then"}
        </dd>
      </dl>
      {results}
      <div className="mt-4 flex flex-wrap gap-2">
        {state === "open" && signedIn && (
          <Link href={`${phaseBase}/submit`} className={primaryButton}>
            Submit a run
          </Link>
        )}
        {state === "open" && !signedIn && (
          <Link href={`/signin?callbackUrl=${encodeURIComponent(base)}`} className={secondaryButton}>
            Sign in to submit
          </Link>
        )}
        {phase.canViewLeaderboard && (
          <Link href={`${phaseBase}/leaderboard`} className={secondaryButton}>
            Leaderboard
          </Link>
        )}
        {isOrganizer && (
          <Link href={`${base}/manage/phases#phase-${phase.id}`} className={secondaryButton}>
            Manage
          </Link>
        )}
      </div>
    </li>
  );
}
