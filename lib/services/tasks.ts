/**
 * Tasks and phases: creation and changes (organizers, audited), and what a viewer sees.
 *
 * Listing: every task is listed to everyone, anonymous visitors included. The data model has
 * no draft or hidden flag on tasks; what is sensitive (leaderboards, submissions, gold) has
 * its own visibility, which is applied per phase.
 */
import { ForbiddenError, NotFoundError, UnauthorizedError, ValidationError } from "../errors";
import { assertCanManageTask, isSiteAdmin, leaderboardVisibleTo, taskStanding, type Viewer } from "../permissions";
import { parseInput } from "../validations/parse";
import {
  createTaskSchema,
  organizerEmailSchema,
  phaseInputSchema,
  phasePatchSchema,
  phaseWindowProblem,
  type PhaseInput,
} from "../validations/task";
import { recordAudit } from "./audit";
import { defaultDb, isUniqueViolation, isUuid, type LeaderboardVisibility, type Phase, type SelectionRule } from "./db";
import type { ParticipantAnalysis } from "../generated/prisma/enums";
import { GOLD_META_SELECT, goldMeta, type GoldKeyMeta } from "./gold";
import { isPhaseOpen, loadPhase } from "./phases";
import { evaluationColumns, taskEvaluationView, type TaskEvaluationView } from "./task-evaluation";
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
  selectionRule: SelectionRule;
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
}

/** One task in the public list (`GET /api/v1/tasks`). */
export interface TaskListItem {
  id: string;
  slug: string;
  title: string;
  phases: { id: string; name: string; opensAt: Date; closesAt: Date; open: boolean }[];
}

const PHASE_ORDER = [{ opensAt: "asc" as const }, { name: "asc" as const }];

/**
 * Creates a task with its phases. Only site admins create tasks; the creator becomes an
 * organizer. Writes `task.create` (with the phases) to the audit log.
 *
 * @param actor the acting user
 * @param input see `createTaskSchema` (slug, title, description, primaryMetric, the evaluation
 *   profile (`evaluationProfile`: conll2012 by default, crac or custom; custom also takes
 *   `mentionMatching`, `keepSingletons` and `zeroMatching`), dataLicense, dataSource, phases
 *   with UTC times, display zone, limits, visibility, selection rule, participant analysis,
 *   team per-document scores, document check)
 * @returns the new task's id and slug
 * @throws UnauthorizedError (401), ForbiddenError (403, not an admin), ValidationError (422:
 *   field errors, including a taken slug and an incomplete custom profile)
 */
export async function createTask(actor: Viewer, input: unknown): Promise<{ id: string; slug: string }> {
  if (!actor) throw new UnauthorizedError("Please sign in as a site admin to create a task.");
  if (!isSiteAdmin(actor)) throw new ForbiddenError("Only site admins can create tasks.");
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
 * Adds a phase to a task (organizers). Writes `phase.create`.
 *
 * @throws UnauthorizedError, ForbiddenError, NotFoundError (no task), ValidationError (bad
 *   fields, or a phase of that name exists)
 */
export async function addPhase(actor: Viewer, taskId: string, input: unknown): Promise<Phase> {
  const db = defaultDb();
  await assertTaskExists(taskId);
  const user = await assertCanManageTask(actor, taskId, db);
  const data = parseInput(phaseInputSchema, input, "phase");
  try {
    return await db.$transaction(async (tx) => {
      const task = await tx.task.findUniqueOrThrow({ where: { id: taskId }, select: { evaluationProfile: true, mentionMatching: true, keepSingletons: true, zeroMatching: true } });
      const phase = await tx.phase.create({ data: { ...data, taskId, datasets: { create: defaultDatasetData(task) } } });
      await recordAudit(tx, { actorId: user.userId, action: "phase.create", targetType: "phase", targetId: phase.id, data: { taskId, ...auditPhase(data) } });
      return phase;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw ValidationError.field("name", `This task already has a phase named "${data.name}".`);
    throw error;
  }
}

/**
 * Changes a phase's settings (organizers). The merged window must still close after it
 * opens. Writes `phase.update` with each changed field's old and new value.
 *
 * @param patch any subset of the phase fields (see `phasePatchSchema`), e.g.
 *   `{documentCheck: "error"}` to refuse runs with missing or unknown documents
 * @returns the updated phase
 * @throws UnauthorizedError, ForbiddenError, NotFoundError (no phase), ValidationError
 */
export async function updatePhase(actor: Viewer, phaseId: string, patch: unknown): Promise<Phase> {
  const db = defaultDb();
  const phase = await loadPhase(phaseId, db);
  const user = await assertCanManageTask(actor, phase.taskId, db);
  const changes = parseInput(phasePatchSchema, patch, "phase");
  const problem = phaseWindowProblem(changes.opensAt ?? phase.opensAt, changes.closesAt ?? phase.closesAt);
  if (problem) throw ValidationError.field("closesAt", `Closing time ${problem}.`);
  const diff: Record<string, { from: unknown; to: unknown }> = {};
  for (const [key, value] of Object.entries(changes) as [keyof typeof changes, unknown][]) {
    const before = phase[key];
    if (value === undefined || sameValue(before, value)) continue;
    diff[key] = { from: before, to: value };
  }
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
 * @param slug the task's slug
 * @param viewer the viewer (null = anonymous)
 * @param now the time for `open` (default: now)
 * @throws NotFoundError (404) when no task has this slug
 */
export async function getTaskForViewer(slug: string, viewer: Viewer, now: Date = new Date()): Promise<TaskView> {
  const db = defaultDb();
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
  };
}

/**
 * Every task with its phases, newest task first (public: see the module comment).
 *
 * @param _viewer the viewer; unused while every task is public, kept so callers need not change
 * @param now the time for `open` (default: now)
 */
export async function listTasksForViewer(_viewer: Viewer, now: Date = new Date()): Promise<TaskListItem[]> {
  const tasks = await defaultDb().task.findMany({
    orderBy: [{ createdAt: "desc" }, { slug: "asc" }],
    select: { id: true, slug: true, title: true, phases: { orderBy: PHASE_ORDER, select: { id: true, name: true, opensAt: true, closesAt: true } } },
  });
  return tasks.map((t) => ({ ...t, phases: t.phases.map((p) => ({ ...p, open: isPhaseOpen(p, now) })) }));
}

/**
 * One phase as the viewer sees it (as on its task's page: `PhaseView`, with its tracks), with
 * its task's id, slug and title.
 *
 * @param phaseId the phase id (a malformed id is a 404 like an unknown one)
 * @param viewer the viewer (null = anonymous)
 * @param now the time for `open` (default: now)
 * @throws NotFoundError (404) when no phase has this id
 */
export async function getPhaseForViewer(phaseId: string, viewer: Viewer, now: Date = new Date()): Promise<{ task: { id: string; slug: string; title: string }; phase: PhaseView }> {
  const { task } = await loadPhase(phaseId);
  const view = await getTaskForViewer(task.slug, viewer, now);
  const phase = view.phases.find((p) => p.id === phaseId.toLowerCase());
  if (!phase) throw new NotFoundError("No such phase.");
  return { task: { id: view.id, slug: view.slug, title: view.title }, phase };
}
