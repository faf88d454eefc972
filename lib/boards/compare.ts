/**
 * What the compare page offers before two runs are chosen: the phases whose runs the viewer
 * may compare, and the runs of one phase to pick from; and {@link loadComparePage}, which
 * decides from the query what the page shows. The comparison itself is `compareRuns`
 * (./significance.ts); the runs comparable with one given run are `listComparableRuns` there.
 *
 * Who sees which run is the rule of `submissionAccess` (lib/permissions.ts), written here as
 * one database condition ({@link visibleRunsWhere}) so that a phase of 10,000 runs is listed
 * with one query, not 10,000 checks: the task's organizers (and site admins) see every run;
 * the members of a run's team see it (outside a draft task); anyone else sees it when it is
 * `shownToOthers` (public, not withdrawn, not hidden, not made after the phase's freeze, and,
 * before an after-close phase closes, only baselines) and the phase's leaderboard is visible
 * to them. The test checks this condition against `submissionAccess` run by run.
 */
import { NotFoundError, ValidationError } from "../errors";
import { boardHiddenUntilClose, leaderboardVisibleTo, PHASE_VISIBILITY_SELECT, taskStanding, type PhaseTimingFacts, type PhaseVisibilityFacts, type TaskStanding, type Viewer } from "../permissions";
import { defaultDb, isUuid, type Db, type Prisma } from "../db";
import type { CompareQuery } from "../validations/compare-query";
import { compareRuns, listComparableRuns, type ComparableRun, type RunComparison } from "./significance";
import { listTasksForViewer } from "../tasks";

/** Most runs {@link listPhaseRunsToCompare} returns (the best by the primary metric). */
export const COMPARE_PICKER_LIMIT = 200;

/**
 * The condition on a phase's submissions that selects the scored runs a viewer may see (see
 * the module comment).
 *
 * @param viewer the viewer (null = anonymous)
 * @param phase the phase's id, visibility and timing facts
 * @param standing the viewer's standing in the phase's task (`taskStanding`)
 * @param now the moment the phase's timing is read at
 * @returns a Prisma `where` for `submission`, or null when the viewer may see no run of the phase
 */
export async function visibleRunsWhere(
  viewer: Viewer,
  phase: { id: string } & PhaseVisibilityFacts & PhaseTimingFacts,
  standing: TaskStanding,
  now: Date,
): Promise<Prisma.SubmissionWhereInput | null> {
  if (standing.hiddenDraft) return null;
  const scored: Prisma.SubmissionWhereInput = { phaseId: phase.id, status: "SCORED" };
  if (standing.isOrganizer) return scored;
  const visibleTo: Prisma.SubmissionWhereInput[] = [];
  if (await leaderboardVisibleTo(standing, phase.leaderboardVisibility)) {
    const frozenAt = phase.leaderboardTiming === "frozen" ? phase.frozenAt : null;
    visibleTo.push({
      visibility: "PUBLIC",
      withdrawnAt: null,
      hiddenAt: null,
      ...(frozenAt ? { createdAt: { lt: frozenAt } } : {}),
      ...(boardHiddenUntilClose(phase, now) ? { isBaseline: true } : {}),
    });
  }
  if (viewer) visibleTo.push({ team: { members: { some: { userId: viewer.userId } } } });
  return visibleTo.length === 0 ? null : { ...scored, OR: visibleTo };
}

/** A phase whose runs the viewer can compare. */
export interface ComparePhaseChoice {
  id: string;
  name: string;
  task: { slug: string; title: string };
  /** how many scored runs of the phase the viewer may see (at least 2) */
  runs: number;
}

/**
 * The phases in which the viewer may see at least two scored runs, i.e. could compare two:
 * in the tasks the viewer may see (`listTasksForViewer`: newest task first, archived tasks
 * last), each task's phases in their order.
 *
 * @param viewer the viewer (null = anonymous)
 * @param now the moment the phases' timing is read at (default: now)
 * @returns possibly empty
 */
export async function listComparePhases(viewer: Viewer, now: Date = new Date()): Promise<ComparePhaseChoice[]> {
  const db = defaultDb();
  const tasks = await listTasksForViewer(viewer, now);
  const phaseIds = tasks.flatMap((t) => t.phases.map((p) => p.id));
  if (phaseIds.length === 0) return [];
  const facts = new Map(
    (await db.phase.findMany({ where: { id: { in: phaseIds } }, select: { ...PHASE_VISIBILITY_SELECT, id: true } })).map((p) => [p.id, p]),
  );
  const choices: ComparePhaseChoice[] = [];
  for (const task of tasks) {
    const standing = await taskStanding(viewer, task.id, db);
    for (const p of task.phases) {
      const phase = facts.get(p.id);
      if (!phase) continue;
      const where = await visibleRunsWhere(viewer, phase, standing, now);
      const runs = where ? await db.submission.count({ where }) : 0;
      if (runs >= 2) choices.push({ id: p.id, name: p.name, task: { slug: task.slug, title: task.title }, runs });
    }
  }
  return choices;
}

/** A run to pick for a comparison. */
export interface CompareRunChoice {
  id: string;
  systemName: string;
  team: string;
  /** the run's track, when the phase has tracks and the run declared one */
  track: string | null;
  isBaseline: boolean;
  submittedAt: Date;
  /** the task's primary metric's F1 (fraction in [0, 1], primary setting; on several datasets their macro-average) */
  primary: number;
}

/** The runs of one phase to pick from. */
export interface ComparePhaseRuns {
  task: { slug: string; title: string; primaryMetric: string };
  phase: { id: string; name: string };
  /** best first by the primary metric (ties: earlier first), at most {@link COMPARE_PICKER_LIMIT} */
  runs: CompareRunChoice[];
  /** true when the phase has more runs the viewer may see than are listed */
  truncated: boolean;
}

/**
 * The scored runs of a phase that the viewer may see (see the module comment), best first by
 * the task's primary metric, for the compare page's pickers.
 *
 * @param viewer the viewer (null = anonymous)
 * @param phaseId the phase
 * @param now the moment the phase's timing is read at (default: now)
 * @param db client or transaction (default: the shared client)
 * @returns the phase, its task and up to {@link COMPARE_PICKER_LIMIT} runs (none when the
 *   viewer may see none, e.g. a hidden board)
 * @throws NotFoundError (404) when the phase does not exist (a malformed id included) or its
 *   task is a draft the viewer does not organize
 */
export async function listPhaseRunsToCompare(viewer: Viewer, phaseId: string, now: Date = new Date(), db: Db = defaultDb()): Promise<ComparePhaseRuns> {
  const phase = isUuid(phaseId)
    ? await db.phase.findUnique({
        where: { id: phaseId },
        select: { ...PHASE_VISIBILITY_SELECT, id: true, name: true, task: { select: { slug: true, title: true, primaryMetric: true } } },
      })
    : null;
  if (!phase) throw new NotFoundError("No such phase.");
  const standing = await taskStanding(viewer, phase.taskId, db);
  if (standing.hiddenDraft) throw new NotFoundError("No such phase.");
  const base = { task: phase.task, phase: { id: phase.id, name: phase.name } };
  const where = await visibleRunsWhere(viewer, phase, standing, now);
  if (!where) return { ...base, runs: [], truncated: false };
  // The ranking index (phase, variant, metric, f1 desc) serves "best first".
  const rows = await db.score.findMany({
    where: { phaseId: phase.id, variant: "", metric: phase.task.primaryMetric, submission: where },
    orderBy: [{ f1: "desc" }, { submission: { createdAt: "asc" } }, { submissionId: "asc" }],
    take: COMPARE_PICKER_LIMIT + 1,
    select: {
      f1: true,
      submission: { select: { id: true, systemName: true, isBaseline: true, createdAt: true, team: { select: { name: true } }, track: { select: { name: true } } } },
    },
  });
  return {
    ...base,
    runs: rows.slice(0, COMPARE_PICKER_LIMIT).map(({ f1, submission: s }) => ({
      id: s.id,
      systemName: s.systemName,
      team: s.team.name,
      track: s.track?.name ?? null,
      isBaseline: s.isBaseline,
      submittedAt: s.createdAt,
      primary: f1,
    })),
    truncated: rows.length > COMPARE_PICKER_LIMIT,
  };
}

/** The first run chosen, when the page asks for the second. */
export interface CompareFirstRun {
  id: string;
  systemName: string;
  team: string;
  phase: { id: string; name: string };
}

/**
 * What the compare page shows for a query: the comparison, or a picker (with the reason
 * when the runs asked for cannot be compared):
 *
 * - `comparison`: both runs given and comparable (`compareRuns`);
 * - `second`: one run given (`a`, else `b`), or two that cannot be compared: the runs it can
 *   be compared with (`listComparableRuns`);
 * - `runs`: a phase given, no runs: the phase's runs ({@link listPhaseRunsToCompare});
 * - `phases`: nothing given, or no run to compare the given one with: the phases ({@link listComparePhases}).
 */
export type ComparePage =
  | { kind: "comparison"; comparison: RunComparison }
  | { kind: "second"; error: string | null; first: CompareFirstRun; comparable: ComparableRun[] }
  | { kind: "runs"; error: string | null; phase: ComparePhaseRuns }
  | { kind: "phases"; error: string | null; phases: ComparePhaseChoice[] };

/**
 * Decides and loads what the compare page shows (see {@link ComparePage}).
 *
 * @param viewer the viewer (null = anonymous)
 * @param query the parsed query (`compareQuerySchema`): `a`, `b`, `phase`, `samples`
 * @param now the moment phases' timing is read at (default: now)
 * @throws NotFoundError (404) when a given run or phase does not exist or is hidden from the
 *   viewer; ValidationError never (runs that cannot be compared give a picker with the reason)
 */
export async function loadComparePage(viewer: Viewer, query: CompareQuery, now: Date = new Date()): Promise<ComparePage> {
  const first = query.a ?? query.b;
  if (query.a && query.b) {
    try {
      return { kind: "comparison", comparison: await compareRuns(viewer, query.a, query.b, { samples: query.samples }) };
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      return secondOrPhases(viewer, query.a, error.message, now);
    }
  }
  if (first) return secondOrPhases(viewer, first, null, now);
  if (query.phase) return { kind: "runs", error: null, phase: await listPhaseRunsToCompare(viewer, query.phase, now) };
  return { kind: "phases", error: null, phases: await listComparePhases(viewer, now) };
}

/** The second-run picker for `firstId`, or the phase picker when no run can be compared with it. */
async function secondOrPhases(viewer: Viewer, firstId: string, error: string | null, now: Date): Promise<ComparePage> {
  const comparable = await listComparableRuns(viewer, firstId, now); // 404 unless the viewer may see the run
  if (comparable.length === 0) {
    return {
      kind: "phases",
      error: error ?? "No other run can be compared with this one yet: it must be scored, and so must another run of its phase that you may see (against the same gold key version).",
      phases: await listComparePhases(viewer, now),
    };
  }
  const s = await defaultDb().submission.findUniqueOrThrow({
    where: { id: firstId },
    select: { id: true, systemName: true, team: { select: { name: true } }, phase: { select: { id: true, name: true } } },
  });
  return { kind: "second", error, first: { id: s.id, systemName: s.systemName, team: s.team.name, phase: s.phase }, comparable };
}
