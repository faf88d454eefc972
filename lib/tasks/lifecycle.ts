/**
 * A task's lifecycle (issue 11 §1): DRAFT → PUBLISHED → ARCHIVED (and back to PUBLISHED).
 *
 * - DRAFT: what `createTask` makes. Only its organizers (and site admins) see it; to anyone
 *   else it does not exist (404: `taskStanding(...).hiddenDraft` in lib/permissions.ts).
 *   Organizers set it up: phases, datasets, gold keys, baselines.
 * - PUBLISHED: public (each phase's leaderboard visibility still applies). `publishTask`
 *   refuses until every check of {@link publishChecks} passes: every dataset of every phase
 *   has an active gold key; every phase's window (and freeze) is valid and at least one phase
 *   has not closed yet; the description is not empty.
 * - ARCHIVED: still public, but read-only: no runs, no gold uploads, no edits of the task or
 *   its phases ({@link assertTaskWritable}). `unarchiveTask` makes it PUBLISHED again.
 *
 * Every change is for the task's organizers (and site admins) and is audited in the same
 * transaction: `task.publish`, `task.archive`, `task.unarchive`.
 */
import { ConflictError, NotFoundError, ValidationError } from "../errors";
import { assertCanManageTask, type Viewer } from "../permissions";
import { phaseSettingsProblems } from "../validations/task";
import { formatUtc } from "../validations/time";
import { recordAudit } from "../audit";
import { defaultDb, isUuid, lockKey, type Db, type Prisma } from "../db";
import { DATASET_ORDER, isDefaultDataset } from "./datasets";
import { evaluationProfileSuggestion } from "./evaluation-profile";
import { assertTaskWritable } from "./state";

export { assertTaskWritable };

/** A task's state (`tasks.status`): the database's enum. */
import type { TaskStatus } from "../db";
export type { TaskStatus };

/** One check of the publishing checklist. */
export interface PublishCheck {
  /** stable id: "gold", "dates" or "description" (also the field path of the 422's field errors) */
  id: "gold" | "dates" | "description";
  /** what is checked, e.g. "Every phase has its gold key" */
  label: string;
  ok: boolean;
  /** why it passes or fails, one or more sentences naming the phases and datasets concerned */
  detail: string;
  /** where to fix a failing check: the console tab (`/tasks/{slug}/manage/{tab}`) and the link's text */
  fix?: { tab: "phases" | "gold"; label: string };
}

/** The task's state and its publishing checklist (see {@link publishChecks}). */
export interface PublishChecklist {
  status: TaskStatus;
  publishedAt: Date | null;
  archivedAt: Date | null;
  checks: PublishCheck[];
  /** every check passes (publishing would succeed if the task is a draft) */
  ready: boolean;
  /** non-blocking hints, e.g. that the gold suggests another evaluation profile (`evaluationProfileSuggestion`) */
  notes: string[];
}

/** The facts of a task the checks read. */
const CHECK_SELECT = {
  id: true,
  status: true,
  description: true,
  publishedAt: true,
  archivedAt: true,
  phases: {
    orderBy: [{ opensAt: "asc" }, { name: "asc" }],
    select: {
      name: true,
      opensAt: true,
      closesAt: true,
      leaderboardTiming: true,
      frozenAt: true,
      datasets: { orderBy: DATASET_ORDER, select: { name: true, fileName: true, language: true, goldKeys: { where: { active: true }, select: { id: true } } } },
    },
  },
} satisfies Prisma.TaskSelect;

/** The checks for a loaded task (pure). */
function checksFor(
  task: { description: string; phases: { name: string; opensAt: Date; closesAt: Date; leaderboardTiming: string; frozenAt: Date | null; datasets: { name: string; fileName: string; language: string; goldKeys: unknown[] }[] }[] },
  now: Date,
): PublishCheck[] {
  const phases = task.phases;
  const missing = phases.flatMap((p) => {
    const without = p.datasets.filter((d) => d.goldKeys.length === 0).map((d) => d.name);
    if (without.length === 0) return [];
    return [p.datasets.length === 1 ? `phase "${p.name}"` : `phase "${p.name}" (dataset${without.length === 1 ? "" : "s"} ${without.join(", ")})`];
  });
  // Phases where the automatic "main" dataset, untouched and without gold, sits beside named ones.
  const autoMain = phases.filter((p) => p.datasets.length > 1 && p.datasets.some((d) => d.goldKeys.length === 0 && isDefaultDataset(d))).map((p) => p.name);
  const gold: PublishCheck = {
    id: "gold",
    label: "Every phase has its gold key",
    ok: missing.length === 0 && phases.length > 0,
    detail:
      phases.length === 0
        ? "The task has no phase."
        : missing.length === 0
          ? `Each dataset of ${phases.length === 1 ? "the phase" : `all ${phases.length} phases`} has an active gold key.`
          : `No active gold key for ${missing.join(", ")}. Upload it on the Gold tab.${autoMain.length > 0 ? ` ${autoMainExplanation(autoMain)}` : ""}`,
    ...(missing.length > 0 ? { fix: autoMain.length > 0 ? { tab: "phases" as const, label: "Rename or delete “main” in the phase’s datasets" } : { tab: "gold" as const, label: "Upload gold keys" } } : {}),
  };

  const dateProblems = phases.flatMap((p) =>
    phaseSettingsProblems(p).map((problem) => `phase "${p.name}": ${problem.path === "frozenAt" ? "the freeze time" : "the closing time"} ${problem.message}`),
  );
  const stillOpen = phases.some((p) => p.closesAt.getTime() > now.getTime());
  if (phases.length > 0 && !stillOpen) dateProblems.push(`every phase has closed (the last on ${formatUtc(new Date(Math.max(...phases.map((p) => p.closesAt.getTime()))))}): move a closing time into the future`);
  const dates: PublishCheck = {
    id: "dates",
    label: "The dates make sense",
    ok: phases.length > 0 && dateProblems.length === 0,
    detail:
      phases.length === 0
        ? "The task has no phase."
        : dateProblems.length === 0
          ? `Every phase closes after it opens, and ${phases.filter((p) => p.closesAt.getTime() > now.getTime()).length} of ${phases.length} ${phases.length === 1 ? "has" : "have"} not closed yet.`
          : `${capitalize(dateProblems.join("; "))}.`,
  };

  const described = task.description.trim() !== "";
  const description: PublishCheck = {
    id: "description",
    label: "The description is not empty",
    ok: described,
    detail: described ? "Teams read it on the task page." : "Write what the task is about, its data and how runs are scored (task details above).",
  };
  return [gold, dates, description];
}

/** Why an untouched "main" dataset blocks publishing, and the fix. */
function autoMainExplanation(phaseNames: readonly string[]): string {
  const where = phaseNames.map((n) => `"${n}"`).join(", ");
  return `The dataset "main" of phase${phaseNames.length === 1 ? "" : "s"} ${where} is the one every phase starts with; next to your named datasets it expects a gold key of its own. Delete it (or rename it to one of your datasets) on the Phases tab.`;
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** Loads the task for the checks, or throws 404. */
async function loadForChecks(taskId: string, db: Db) {
  const task = isUuid(taskId) ? await db.task.findUnique({ where: { id: taskId }, select: CHECK_SELECT }) : null;
  if (!task) throw new NotFoundError("No such task.");
  return task;
}

/** @throws NotFoundError (404) unless a task has this id */
async function assertTaskExists(taskId: string, db: Db): Promise<void> {
  const found = isUuid(taskId) && (await db.task.findUnique({ where: { id: taskId }, select: { id: true } }));
  if (!found) throw new NotFoundError("No such task.");
}

/**
 * The task's state and its publishing checklist, for the overview tab (organizers): each
 * check with whether it passes and why, in the order gold, dates, description; and the
 * non-blocking notes (the gold suggests the CRAC profile: `evaluationProfileSuggestion`).
 *
 * @param now the time for "at least one phase has not closed yet" (default: now)
 * @throws UnauthorizedError (401), ForbiddenError (403, not an organizer), NotFoundError (404, no task)
 */
export async function publishChecks(actor: Viewer, taskId: string, now: Date = new Date()): Promise<PublishChecklist> {
  const db = defaultDb();
  await assertTaskExists(taskId, db);
  await assertCanManageTask(actor, taskId, db);
  const task = await loadForChecks(taskId, db);
  const checks = checksFor(task, now);
  const suggestion = await evaluationProfileSuggestion(taskId, db);
  const notes = suggestion ? [`${suggestion.message} (${suggestion.label}); change it under Evaluation on this tab. Publishing does not need it.`] : [];
  return { status: task.status, publishedAt: task.publishedAt, archivedAt: task.archivedAt, checks, ready: checks.every((c) => c.ok), notes };
}

/**
 * Publishes a draft task (organizers): it becomes visible to everyone. Every check of
 * {@link publishChecks} must pass, read again in the transaction. Sets `publishedAt`; writes
 * `task.publish`.
 *
 * @param now the publishing time (default: now)
 * @returns the new status and publishing time
 * @throws UnauthorizedError (401), ForbiddenError (403), NotFoundError (404);
 *   ValidationError (422) listing every failed check in its message, with one field error per
 *   failed check (path "gold", "dates" or "description"; nothing changes); ConflictError (409)
 *   when the task is not a draft (already published, or archived)
 */
export async function publishTask(actor: Viewer, taskId: string, now: Date = new Date()): Promise<{ status: "PUBLISHED"; publishedAt: Date }> {
  const db = defaultDb();
  await assertTaskExists(taskId, db);
  const user = await assertCanManageTask(actor, taskId, db);
  return db.$transaction(async (tx) => {
    // Gold uploads lock `gold:<phase>`; the lifecycle locks the task, so two publishes do not race.
    await lockKey(tx, `task-lifecycle:${taskId}`);
    const task = await loadForChecks(taskId, tx);
    if (task.status === "PUBLISHED") throw new ConflictError("This task is already published.");
    if (task.status === "ARCHIVED") throw new ConflictError("This task is archived: unarchive it instead of publishing it.");
    const failed = checksFor(task, now).filter((c) => !c.ok);
    if (failed.length > 0) {
      throw new ValidationError(`The task cannot be published yet: ${failed.map((c) => `${c.label.toLowerCase()}: ${c.detail}`).join(" ")}`, {
        fieldErrors: failed.map((c) => ({ path: c.id, message: c.detail })),
      });
    }
    await tx.task.update({ where: { id: taskId }, data: { status: "PUBLISHED", publishedAt: now, archivedAt: null } });
    await recordAudit(tx, { actorId: user.userId, action: "task.publish", targetType: "task", targetId: taskId, data: { from: "DRAFT", to: "PUBLISHED" } });
    return { status: "PUBLISHED" as const, publishedAt: now };
  });
}

/**
 * Archives a published task (organizers): it stays public but becomes read-only (no runs, no
 * gold uploads, no edits of the task or its phases). Sets `archivedAt`; writes `task.archive`.
 *
 * @param now the archiving time (default: now)
 * @throws UnauthorizedError (401), ForbiddenError (403), NotFoundError (404); ConflictError
 *   (409) for a draft (publish it first; a draft nobody sees needs no archive) or a task
 *   already archived
 */
export async function archiveTask(actor: Viewer, taskId: string, now: Date = new Date()): Promise<{ status: "ARCHIVED"; archivedAt: Date }> {
  const db = defaultDb();
  await assertTaskExists(taskId, db);
  const user = await assertCanManageTask(actor, taskId, db);
  return db.$transaction(async (tx) => {
    await lockKey(tx, `task-lifecycle:${taskId}`);
    const task = await tx.task.findUniqueOrThrow({ where: { id: taskId }, select: { status: true } });
    if (task.status === "DRAFT") throw new ConflictError("A draft cannot be archived: publish it first.");
    if (task.status === "ARCHIVED") throw new ConflictError("This task is already archived.");
    await tx.task.update({ where: { id: taskId }, data: { status: "ARCHIVED", archivedAt: now } });
    await recordAudit(tx, { actorId: user.userId, action: "task.archive", targetType: "task", targetId: taskId, data: { from: "PUBLISHED", to: "ARCHIVED" } });
    return { status: "ARCHIVED" as const, archivedAt: now };
  });
}

/**
 * Makes an archived task published again (organizers): it can take runs and edits again.
 * Clears `archivedAt`; writes `task.unarchive`.
 *
 * @throws UnauthorizedError (401), ForbiddenError (403), NotFoundError (404); ConflictError
 *   (409) when the task is not archived
 */
export async function unarchiveTask(actor: Viewer, taskId: string): Promise<{ status: "PUBLISHED" }> {
  const db = defaultDb();
  await assertTaskExists(taskId, db);
  const user = await assertCanManageTask(actor, taskId, db);
  return db.$transaction(async (tx) => {
    await lockKey(tx, `task-lifecycle:${taskId}`);
    const task = await tx.task.findUniqueOrThrow({ where: { id: taskId }, select: { status: true } });
    if (task.status !== "ARCHIVED") throw new ConflictError("This task is not archived.");
    await tx.task.update({ where: { id: taskId }, data: { status: "PUBLISHED", archivedAt: null } });
    await recordAudit(tx, { actorId: user.userId, action: "task.unarchive", targetType: "task", targetId: taskId, data: { from: "ARCHIVED", to: "PUBLISHED" } });
    return { status: "PUBLISHED" as const };
  });
}
