/**
 * Tasks and phases: creation and changes (organizers, audited), and what a viewer sees.
 *
 * A new task is a DRAFT: only its organizers (and site admins) see it, and to anyone else it
 * does not exist (404), until an organizer publishes it (lib/tasks/lifecycle.ts, which
 * also archives it: an ARCHIVED task is public and read-only). Listing (./tasks-list.ts): published and archived
 * tasks for everyone, anonymous visitors included, plus the drafts the viewer organizes (site
 * admins: every draft). What is sensitive in a visible task (leaderboards, submissions, gold)
 * has its own visibility, applied per phase.
 *
 * Editing (organizers, audited, refused in an archived task): the task's title, description,
 * rules, licence and data source (`updateTask`); phases are added (`addPhase`), changed
 * (`updatePhase`, checked with `phaseSettingsProblems` on the phase as it would be), closed at
 * once (`closePhaseNow`) and deleted while no run exists in them (`deletePhase`).
 */
import { ConflictError, ForbiddenError, NotFoundError, UnauthorizedError, ValidationError } from "../errors";
import { assertCanManageTask, canCreateTask, leaderboardVisibleTo, taskStanding, type Viewer } from "../permissions";
import { parseInput } from "../validations/parse";
import {
  createTaskSchema,
  organizerEmailSchema,
  phaseInputSchema,
  phasePatchSchema,
  phaseSettingsProblems,
  SLUG_PATTERN,
  type PhaseInput,
} from "../validations/task";
import { taskPatchSchema } from "../validations/task-edit";
import { recordAudit } from "../audit";
import { assertTaskWritable, type TaskStatus } from "./lifecycle";
import { defaultDb, isUniqueViolation, isUuid, lockKey, type LeaderboardVisibility, type Phase, type SelectionRule } from "../db";
import type { ParticipantAnalysis } from "../generated/prisma/enums";
import { GOLD_META_SELECT, goldMeta, type GoldKeyMeta } from "./gold";
import { isPhaseOpen, loadPhase } from "./phases";
import { evaluationColumns, taskEvaluationView, type TaskEvaluationView } from "./evaluation-profile";
import { DATASET_ORDER, DATASET_SELECT, defaultDatasetData, toDatasetView, type DatasetFormat } from "./datasets";
import { TRACK_ORDER, TRACK_SELECT, type TrackView } from "./tracks";
import type { DocumentCheck } from "../validations/task";

/** A phase as a viewer sees it. */
export interface PhaseView {
  id: string;
  name: string;
  opensAt: Date;
  closesAt: Date;
  displayTimeZone: string;
  dailyLimit: number | null;
  totalLimit: number | null;
  leaderboardVisibility: LeaderboardVisibility;
  /** "live", "after_close" (teams see only their own scores until the phase closes) or "frozen" (see `LEADERBOARD_TIMINGS`) */
  leaderboardTiming: string;
  /** the freeze of a "frozen" leaderboard (runs made at or after it are shown to their team and the organizers only); null otherwise */
  frozenAt: Date | null;
  selectionRule: SelectionRule;
  /** TEAM_SELECTED: how many runs each team may mark as final */
  finalRunLimit: number;
  /** who besides the organizers sees the error analysis of the phase's runs (see `canViewErrorAnalysis`) */
  participantAnalysis: ParticipantAnalysis;
  /** on a hidden leaderboard (ORGANIZERS), whether teams see their own runs' per-document scores (see `canViewDocumentScores`) */
  teamDocumentScores: boolean;
  /** missing or unknown documents in a run: "warn" (the submitter confirms) or "error" (the upload is refused) */
  documentCheck: DocumentCheck;
  /**
   * the phase's tracks in order (issue 10 §5; empty for a phase without tracks): a run declares
   * one, each is ranked separately; a track with `dailyLimit` or `totalLimit` has its own quota
   */
  tracks: TrackView[];
  /** accepting submissions now */
  open: boolean;
  canViewLeaderboard: boolean;
  /**
   * the phase's datasets in order (issue 10 §1; at least one): a phase with one takes a plain
   * file; with several, a run is an archive holding each dataset's file under its `fileName`
   */
  datasets: PhaseDatasetView[];
  /** whether scoring can run (a dataset's gold key is active); says nothing about its content */
  hasGold: boolean;
  /** organizers only (absent for others): the active gold key's metadata of the first dataset that has one, or null */
  gold?: GoldKeyMeta | null;
}

/** A dataset of a phase as a viewer sees it (names, languages, file names and formats are public). */
export interface PhaseDatasetView {
  id: string;
  /** e.g. "en_gum" */
  name: string;
  /** e.g. "en"; "" when not given */
  language: string;
  /** the file name a run's archive holds it under */
  fileName: string;
  format: DatasetFormat;
  position: number;
  /** whether the dataset has an active gold key (it counts in the macro-average); says nothing about its content */
  hasGold: boolean;
  /** organizers only (absent for others): its active gold key's metadata, or null */
  gold?: GoldKeyMeta | null;
}

/** A task as a viewer sees it. */
export interface TaskView {
  id: string;
  slug: string;
  title: string;
  /** markdown */
  description: string;
  primaryMetric: string;
  /** how runs are scored: the evaluation profile, its label and its secondary variants */
  evaluation: TaskEvaluationView;
  dataLicense: string | null;
  dataSource: string | null;
  organizers: { id: string; name: string }[];
  isOrganizer: boolean;
  phases: PhaseView[];
  /** DRAFT (seen by its organizers only), PUBLISHED, or ARCHIVED (public, read-only) */
  status: TaskStatus;
  /** markdown: the task's rules, shown on the task page ("" when none) */
  rules: string;
  /** when it was (last) published; null for a draft */
  publishedAt: Date | null;
  /** when it was archived; null unless archived */
  archivedAt: Date | null;
}

/** The order of a task's phases: opening time, then name. */
export const PHASE_ORDER = [{ opensAt: "asc" as const }, { name: "asc" as const }];

/** The refusal of {@link createTask} for a signed-in account that may not create tasks. */
export const CREATE_TASK_REFUSED =
  "Only site admins and accounts with the organizer role can create tasks. Ask a site admin to give your account the organizer role.";

/**
 * Creates a task with its phases, as a DRAFT: only its organizers see it until one of them
 * publishes it (`publishTask` in ./task-lifecycle.ts, which checks the gold keys, the dates and
 * the description). Only site admins and accounts with the site role ORGANIZER create tasks
 * (`canCreateTask`); the creator becomes an organizer. Writes `task.create` (with the phases)
 * to the audit log.
 *
 * @param actor the acting user
 * @param input see `createTaskSchema` (slug, title, description, primaryMetric, the evaluation
 *   profile (`evaluationProfile`: conll2012 by default, crac or custom; custom also takes
 *   `mentionMatching`, `keepSingletons` and `zeroMatching`), dataLicense, dataSource, phases
 *   with UTC times, display zone, limits, visibility, selection rule, participant analysis,
 *   team per-document scores, document check)
 * @returns the new task's id and slug
 * @throws UnauthorizedError (401), ForbiddenError (403, neither a site admin nor an organizer), ValidationError (422:
 *   field errors, including a taken slug and an incomplete custom profile)
 */
export async function createTask(actor: Viewer, input: unknown): Promise<{ id: string; slug: string }> {
  if (!actor) throw new UnauthorizedError("Please sign in as a site admin or an organizer to create a task.");
  if (!canCreateTask(actor)) throw new ForbiddenError(CREATE_TASK_REFUSED);
  const data = parseInput(createTaskSchema, input, "task");
  const evaluation = evaluationColumns(data);
  const db = defaultDb();
  const slugTaken = ValidationError.field("slug", `The address /${data.slug} is already used by another task.`);
  if (await db.task.findUnique({ where: { slug: data.slug }, select: { id: true } })) throw slugTaken;
  try {
    return await db.$transaction(async (tx) => {
      const task = await tx.task.create({
        data: {
          slug: data.slug,
          // Explicit, though it is the column's default: nobody but the organizers sees a new task.
          status: "DRAFT",
          title: data.title,
          description: data.description,
          primaryMetric: data.primaryMetric,
          ...evaluation,
          dataLicense: data.dataLicense,
          dataSource: data.dataSource,
          organizers: { create: { userId: actor.userId } },
          phases: { create: data.phases.map((phase) => ({ ...phase, datasets: { create: defaultDatasetData(evaluation) } })) },
        },
        include: { phases: { select: { id: true, name: true } } },
      });
      await recordAudit(tx, {
        actorId: actor.userId,
        action: "task.create",
        targetType: "task",
        targetId: task.id,
        data: { slug: task.slug, title: task.title, primaryMetric: task.primaryMetric, evaluation, phases: data.phases.map(auditPhase) },
      });
      return { id: task.id, slug: task.slug };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw slugTaken;
    throw error;
  }
}

/** A phase's settings for the audit log (times as ISO strings). */
function auditPhase(p: Partial<PhaseInput>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(p)) as Record<string, unknown>;
}

/**
 * Adds a phase to a task (organizers). The phase gets the task's default dataset ("main").
 * Writes `phase.create`.
 *
 * @param input see `phaseInputSchema` (name, opensAt and closesAt with a zone, and optional
 *   settings with their defaults)
 * @returns the new phase
 * @throws UnauthorizedError, ForbiddenError, NotFoundError (no task), ValidationError (bad
 *   fields, or a phase of that name exists), ConflictError (409, archived task)
 */
export async function addPhase(actor: Viewer, taskId: string, input: unknown): Promise<Phase> {
  const db = defaultDb();
  await assertTaskExists(taskId);
  const user = await assertCanManageTask(actor, taskId, db);
  const data = parseInput(phaseInputSchema, input, "phase");
  try {
    return await db.$transaction(async (tx) => {
      const task = await tx.task.findUniqueOrThrow({ where: { id: taskId }, select: { status: true, evaluationProfile: true, mentionMatching: true, keepSingletons: true, zeroMatching: true } });
      assertTaskWritable(task, "add phases");
      const { status: _status, ...evaluation } = task;
      const phase = await tx.phase.create({ data: { ...data, taskId, datasets: { create: defaultDatasetData(evaluation) } } });
      await recordAudit(tx, { actorId: user.userId, action: "phase.create", targetType: "phase", targetId: phase.id, data: { taskId, ...auditPhase(data) } });
      return phase;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw ValidationError.field("name", `This task already has a phase named "${data.name}".`);
    throw error;
  }
}

/**
 * Changes a phase's settings (organizers). The phase as it would be after the change must
 * pass `phaseSettingsProblems` (it closes after it opens; a "frozen" leaderboard has a freeze
 * time within the window; other timings have none). Switching the timing away from "frozen"
 * without sending `frozenAt` clears the freeze time. Writes `phase.update` with each changed
 * field's old and new value.
 *
 * @param patch any subset of the phase fields (see `phasePatchSchema`), e.g.
 *   `{documentCheck: "error"}` to refuse runs with missing or unknown documents, or
 *   `{leaderboardTiming: "frozen", frozenAt: "2026-12-01T12:00:00Z"}`
 * @returns the updated phase
 * @throws UnauthorizedError, ForbiddenError, NotFoundError (no phase), ValidationError (422,
 *   field errors, e.g. `frozenAt` "required when the leaderboard freezes"), ConflictError
 *   (409, archived task)
 */
export async function updatePhase(actor: Viewer, phaseId: string, patch: unknown): Promise<Phase> {
  const db = defaultDb();
  const phase = await loadPhase(phaseId, db);
  const user = await assertCanManageTask(actor, phase.taskId, db, "No such phase.");
  const changes = parseInput(phasePatchSchema, patch, "phase");
  assertTaskWritable(phase.task, "change its phases");
  if (changes.leaderboardTiming !== undefined && changes.leaderboardTiming !== "frozen" && changes.frozenAt === undefined) changes.frozenAt = null;
  const merged = {
    opensAt: changes.opensAt ?? phase.opensAt,
    closesAt: changes.closesAt ?? phase.closesAt,
    leaderboardTiming: changes.leaderboardTiming ?? phase.leaderboardTiming,
    frozenAt: changes.frozenAt !== undefined ? changes.frozenAt : phase.frozenAt,
  };
  const problems = phaseSettingsProblems(merged);
  if (problems.length > 0) {
    const label = (path: string) => (path === "frozenAt" ? "Freeze time" : path === "closesAt" ? "Closing time" : path);
    throw new ValidationError(`${label(problems[0].path)} ${problems[0].message}.`, { fieldErrors: problems });
  }
  const diff = changedFields(phase, changes);
  if (Object.keys(diff).length === 0) return stripTask(phase);
  try {
    return await db.$transaction(async (tx) => {
      const updated = await tx.phase.update({ where: { id: phaseId }, data: changes });
      await recordAudit(tx, { actorId: user.userId, action: "phase.update", targetType: "phase", targetId: phaseId, data: { taskId: phase.taskId, changes: diff } });
      return updated;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw ValidationError.field("name", `This task already has a phase named "${changes.name}".`);
    throw error;
  }
}

/** Each field of `changes` whose value differs from `before`'s, as `{from, to}`. */
function changedFields<T extends object>(before: T, changes: Partial<Record<keyof T, unknown>>): Record<string, { from: unknown; to: unknown }> {
  const diff: Record<string, { from: unknown; to: unknown }> = {};
  for (const [key, value] of Object.entries(changes) as [keyof T & string, unknown][]) {
    const old = before[key];
    if (value === undefined || sameValue(old, value)) continue;
    diff[key] = { from: old, to: value };
  }
  return diff;
}

/**
 * Closes an open phase at once (organizers): its closing time becomes `now`, so no run is
 * accepted from then on. A freeze time still ahead (a "frozen" board whose freeze would now
 * fall at or after the close) is dropped: the board becomes "live", which shows exactly the
 * runs the freeze would have shown, as all of them were made before it. Writes `phase.update`
 * (with `reason: "closed now"`).
 *
 * @param now the closing time (default: now)
 * @returns the updated phase
 * @throws UnauthorizedError, ForbiddenError, NotFoundError (no phase), ConflictError (409: the
 *   phase is not open at `now`, or the task is archived)
 */
export async function closePhaseNow(actor: Viewer, phaseId: string, now: Date = new Date()): Promise<Phase> {
  const db = defaultDb();
  const phase = await loadPhase(phaseId, db);
  const user = await assertCanManageTask(actor, phase.taskId, db, "No such phase.");
  assertTaskWritable(phase.task, "close its phases");
  if (!isPhaseOpen(phase, now)) {
    const state = now.getTime() < phase.opensAt.getTime() ? "has not opened yet" : "is already closed";
    throw new ConflictError(`The ${phase.name} phase ${state}; only an open phase can be closed now. Change its dates instead.`);
  }
  const changes: { closesAt: Date; leaderboardTiming?: string; frozenAt?: null } = { closesAt: now };
  if (phase.leaderboardTiming === "frozen" && phase.frozenAt !== null && phase.frozenAt.getTime() >= now.getTime()) {
    changes.leaderboardTiming = "live";
    changes.frozenAt = null;
  }
  const diff = changedFields(phase, changes);
  return db.$transaction(async (tx) => {
    const updated = await tx.phase.update({ where: { id: phaseId }, data: changes });
    await recordAudit(tx, { actorId: user.userId, action: "phase.update", targetType: "phase", targetId: phaseId, data: { taskId: phase.taskId, changes: diff, reason: "closed now" } });
    return updated;
  });
}

/**
 * Deletes a phase (organizers) with its datasets, gold keys and tracks, while it has no runs
 * at all (baselines, withdrawn and failed runs count) and is not the task's last phase.
 * Writes `phase.delete` with `{taskId, name}` (the audit log finds a deleted phase's events
 * by them).
 *
 * @throws UnauthorizedError, ForbiddenError, NotFoundError (no phase), ConflictError (409:
 *   the phase has runs (the message says how many), it is the task's only phase, a result
 *   snapshot exists, or the task is archived)
 */
export async function deletePhase(actor: Viewer, phaseId: string): Promise<{ id: string; taskId: string; name: string }> {
  const db = defaultDb();
  const phase = await loadPhase(phaseId, db);
  const user = await assertCanManageTask(actor, phase.taskId, db, "No such phase.");
  assertTaskWritable(phase.task, "delete its phases");
  return db.$transaction(async (tx) => {
    // The phase row's lock waits for a run being inserted (its foreign key holds a share lock
    // on the row) and blocks new ones, so the count below is final: no run is deleted with the
    // phase. The gold lock orders the delete after a gold upload in progress.
    await lockKey(tx, `gold:${phase.id}`);
    await tx.$queryRaw`SELECT 1 FROM "phases" WHERE "id" = ${phaseId}::uuid FOR UPDATE`;
    const runs = await tx.submission.count({ where: { phaseId } });
    if (runs > 0) {
      throw new ConflictError(`The ${phase.name} phase has ${runs} run${runs === 1 ? "" : "s"} (baselines and withdrawn runs included): a phase with runs cannot be deleted. Close it instead.`);
    }
    const phases = await tx.phase.count({ where: { taskId: phase.taskId } });
    if (phases <= 1) throw new ConflictError(`The ${phase.name} phase is the task's only phase: add another phase before deleting it.`);
    if ((await tx.resultSnapshot.count({ where: { phaseId } })) > 0) throw new ConflictError(`The ${phase.name} phase has published result snapshots: it cannot be deleted.`);
    await tx.phase.delete({ where: { id: phaseId } });
    await recordAudit(tx, { actorId: user.userId, action: "phase.delete", targetType: "phase", targetId: phaseId, data: { taskId: phase.taskId, name: phase.name } });
    return { id: phaseId, taskId: phase.taskId, name: phase.name };
  });
}

/** A task's editable fields, as `updateTask` returns them. */
export interface TaskDetails {
  id: string;
  slug: string;
  title: string;
  /** markdown */
  description: string;
  /** markdown */
  rules: string;
  dataLicense: string | null;
  dataSource: string | null;
  status: TaskStatus;
}

const TASK_DETAILS_SELECT = { id: true, slug: true, title: true, description: true, rules: true, dataLicense: true, dataSource: true, status: true } as const;

/**
 * Changes a task's own fields (organizers): title, description (markdown), rules (markdown),
 * data licence and data source (see `taskPatchSchema`: strict, any subset; "" or null clears
 * the licence and the source). Writes `task.update` with each changed field's old and new
 * value; an unchanged patch writes nothing.
 *
 * @returns the task's fields after the change
 * @throws UnauthorizedError (401), ForbiddenError (403), NotFoundError (404, no task),
 *   ValidationError (422, field errors; unknown fields too), ConflictError (409, archived task)
 */
export async function updateTask(actor: Viewer, taskId: string, patch: unknown): Promise<TaskDetails> {
  const db = defaultDb();
  await assertTaskExists(taskId);
  const user = await assertCanManageTask(actor, taskId, db);
  const changes = parseInput(taskPatchSchema, patch, "task");
  return db.$transaction(async (tx) => {
    const task = await tx.task.findUniqueOrThrow({ where: { id: taskId }, select: TASK_DETAILS_SELECT });
    assertTaskWritable(task, "edit it");
    const diff = changedFields(task, changes);
    if (Object.keys(diff).length === 0) return task;
    const updated = await tx.task.update({ where: { id: taskId }, data: changes, select: TASK_DETAILS_SELECT });
    await recordAudit(tx, { actorId: user.userId, action: "task.update", targetType: "task", targetId: taskId, data: { changes: diff } });
    return updated;
  });
}

/** @throws NotFoundError (404) unless a task has this id */
async function assertTaskExists(taskId: string): Promise<void> {
  const found = isUuid(taskId) && (await defaultDb().task.findUnique({ where: { id: taskId }, select: { id: true } }));
  if (!found) throw new NotFoundError("No such task.");
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  return a === b;
}

function stripTask<P extends Phase>(phase: P & { task?: unknown }): Phase {
  const { task: _task, ...rest } = phase;
  return rest;
}

/**
 * Makes a registered user an organizer of a task (organizers). Adding an existing organizer
 * changes nothing and writes no event; otherwise writes `task.organizer.add`.
 *
 * @param email the user's e-mail address (any case)
 * @returns the organizer's id and name, and whether they were added now
 * @throws UnauthorizedError, ForbiddenError, NotFoundError (no task, or no user with that
 *   address), ValidationError (malformed address)
 */
export async function addOrganizer(actor: Viewer, taskId: string, email: string): Promise<{ userId: string; name: string; added: boolean }> {
  const db = defaultDb();
  await assertTaskExists(taskId);
  const user = await assertCanManageTask(actor, taskId, db);
  const { email: address } = parseInput(organizerEmailSchema, { email }, "e-mail address");
  const target = await db.user.findUnique({ where: { email: address }, select: { id: true, name: true } });
  if (!target) throw new NotFoundError(`No account uses ${address}. Ask them to sign up first.`);
  return db.$transaction(async (tx) => {
    const existing = await tx.taskOrganizer.findUnique({ where: { taskId_userId: { taskId, userId: target.id } } });
    if (existing) return { userId: target.id, name: target.name, added: false };
    await tx.taskOrganizer.create({ data: { taskId, userId: target.id } });
    await recordAudit(tx, { actorId: user.userId, action: "task.organizer.add", targetType: "task", targetId: taskId, data: { userId: target.id } });
    return { userId: target.id, name: target.name, added: true };
  });
}

/**
 * A task as the viewer sees it: its fields, organizers (names), and per phase its datasets and
 * tracks, whether it is open at `now`, whether the viewer can see its leaderboard, whether a
 * gold key is active (per dataset too), and, for organizers only, the active gold keys'
 * metadata (never their content).
 *
 * A draft is seen by its organizers (and site admins) only; the view says the task's status,
 * rules and publishing and archiving times.
 *
 * @param slug the task's slug
 * @param viewer the viewer (null = anonymous)
 * @param now the time for `open` (default: now)
 * @throws NotFoundError (404) when no task has this slug, or it is a draft the viewer does not organize
 */
export async function getTaskForViewer(slug: string, viewer: Viewer, now: Date = new Date()): Promise<TaskView> {
  const db = defaultDb();
  // A string that is not slug-shaped names no task (and might hold characters the database refuses).
  if (!SLUG_PATTERN.test(slug)) throw new NotFoundError("No such task.");
  const task = await db.task.findUnique({
    where: { slug },
    include: {
      organizers: { orderBy: { createdAt: "asc" }, select: { user: { select: { id: true, name: true } } } },
      phases: {
        orderBy: PHASE_ORDER,
        include: {
          datasets: { orderBy: DATASET_ORDER, select: { ...DATASET_SELECT, goldKeys: { where: { active: true }, select: GOLD_META_SELECT } } },
          tracks: { orderBy: TRACK_ORDER, select: TRACK_SELECT },
        },
      },
    },
  });
  if (!task) throw new NotFoundError("No such task.");
  // One organizer check and at most one participant check for all phases.
  const standing = await taskStanding(viewer, task.id, db);
  if (standing.hiddenDraft) throw new NotFoundError("No such task.");
  const isOrganizer = standing.isOrganizer;
  const phases: PhaseView[] = [];
  for (const { datasets: datasetRows, createdAt: _c, updatedAt: _u, taskId: _t, ...phase } of task.phases) {
    const datasets: PhaseDatasetView[] = datasetRows.map(({ goldKeys, ...row }) => {
      const { phaseId: _p, ...view } = toDatasetView(row);
      const active = goldKeys[0] ?? null;
      return { ...view, hasGold: active !== null, ...(isOrganizer ? { gold: active && goldMeta(active) } : {}) };
    });
    const active = datasets.find((d) => d.hasGold) ?? null;
    phases.push({
      ...phase,
      documentCheck: phase.documentCheck as DocumentCheck,
      datasets,
      open: isPhaseOpen(phase, now),
      canViewLeaderboard: await leaderboardVisibleTo(standing, phase.leaderboardVisibility),
      hasGold: active !== null,
      ...(isOrganizer ? { gold: active?.gold ?? null } : {}),
    });
  }
  return {
    id: task.id,
    slug: task.slug,
    title: task.title,
    description: task.description,
    primaryMetric: task.primaryMetric,
    evaluation: taskEvaluationView(task),
    dataLicense: task.dataLicense,
    dataSource: task.dataSource,
    organizers: task.organizers.map((o) => o.user),
    isOrganizer,
    phases,
    status: task.status,
    rules: task.rules,
    publishedAt: task.publishedAt,
    archivedAt: task.archivedAt,
  };
}

/**
 * One phase as the viewer sees it (as on its task's page: `PhaseView`, with its tracks), with
 * its task's id, slug and title.
 *
 * @param phaseId the phase id (a malformed id is a 404 like an unknown one)
 * @param viewer the viewer (null = anonymous)
 * @param now the time for `open` (default: now)
 * @throws NotFoundError (404) when no phase has this id, or its task is a draft the viewer does not organize
 */
export async function getPhaseForViewer(phaseId: string, viewer: Viewer, now: Date = new Date()): Promise<{ task: { id: string; slug: string; title: string }; phase: PhaseView }> {
  const { task } = await loadPhase(phaseId);
  // A hidden draft's phase is an unknown phase (not "No such task.", which would tell it exists).
  const view = await getTaskForViewer(task.slug, viewer, now).catch((error: unknown) => {
    throw error instanceof NotFoundError ? new NotFoundError("No such phase.") : error;
  });
  const phase = view.phases.find((p) => p.id === phaseId.toLowerCase());
  if (!phase) throw new NotFoundError("No such phase.");
  return { task: { id: view.id, slug: view.slug, title: view.title }, phase };
}

/**
 * How many runs each phase of a task has, baselines, withdrawn and failed runs included
 * (organizers: the phases tab shows "Delete phase" only where this is 0; `deletePhase` checks
 * again).
 *
 * @returns phase id → number of runs (every phase of the task, 0 included)
 * @throws UnauthorizedError (401), ForbiddenError (403), NotFoundError (404, no task)
 */
export async function phaseRunCounts(actor: Viewer, taskId: string): Promise<Record<string, number>> {
  const db = defaultDb();
  await assertTaskExists(taskId);
  await assertCanManageTask(actor, taskId, db);
  const phases = await db.phase.findMany({ where: { taskId }, select: { id: true, _count: { select: { submissions: true } } } });
  return Object.fromEntries(phases.map((p) => [p.id, p._count.submissions]));
}
