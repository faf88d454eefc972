/** Phase lookups and the submission window, shared by the task, gold, submission and leaderboard services. */
import { NotFoundError, PhaseClosedError } from "../errors";
import { canManageTask, requireSignedIn, type SignedInViewer, type Viewer } from "../permissions";
import { formatUtc } from "../validations/time";
import { defaultDb, isUuid, type Db, type Phase, type Task } from "../db";

/** A phase with its task. */
export type PhaseWithTask = Phase & { task: Task };

/**
 * Loads a phase and its task.
 *
 * @throws NotFoundError (404) when there is no such phase (also for malformed ids)
 */
export async function loadPhase(phaseId: string, db: Db = defaultDb()): Promise<PhaseWithTask> {
  const phase = isUuid(phaseId) ? await db.phase.findUnique({ where: { id: phaseId }, include: { task: true } }) : null;
  if (!phase) throw new NotFoundError("No such phase.");
  return phase;
}

/**
 * Whether a phase accepts submissions at `now`: opensAt ≤ now < closesAt (both UTC instants).
 */
export function isPhaseOpen(phase: Pick<Phase, "opensAt" | "closesAt">, now: Date): boolean {
  return phase.opensAt.getTime() <= now.getTime() && now.getTime() < phase.closesAt.getTime();
}

/**
 * Throws unless the phase is open at `now`.
 *
 * @throws PhaseClosedError (409) whose message gives the window in UTC
 */
export function assertPhaseOpen(phase: Pick<Phase, "name" | "opensAt" | "closesAt">, now: Date): void {
  if (isPhaseOpen(phase, now)) return;
  const window = `It accepts submissions from ${formatUtc(phase.opensAt)} until ${formatUtc(phase.closesAt)}.`;
  const state = now < phase.opensAt ? "has not opened yet" : "is closed";
  throw new PhaseClosedError(`The ${phase.name} phase ${state}. ${window}`, {
    opensAt: phase.opensAt.toISOString(),
    closesAt: phase.closesAt.toISOString(),
  });
}

/**
 * A phase its task's organizers manage, for the console's services.
 *
 * @param viewer who asks
 * @param phaseId the phase (a malformed id is a 404 like an unknown one)
 * @param db client or transaction (default: the shared client)
 * @returns the signed-in organizer and the phase with its task
 * @throws UnauthorizedError (401) when anonymous; NotFoundError (404) for an unknown phase and
 *   for a viewer who does not organize its task (the same answer)
 */
export async function loadManagedPhase(viewer: Viewer, phaseId: string, db: Db = defaultDb()): Promise<{ user: SignedInViewer; phase: PhaseWithTask }> {
  const user = requireSignedIn(viewer, "Please sign in as an organizer of this task.");
  const phase = await loadPhase(phaseId, db);
  if (!(await canManageTask(user, phase.taskId, db))) throw new NotFoundError("No such phase.");
  return { user, phase };
}
