/**
 * The facts a run upload is checked against, loaded once (`createSubmission`'s first step):
 * the phase with its task and policy, the uploader and their standing in the task (organizer
 * or not, their teams, the team recorded for them), the phase's tracks and datasets, and the
 * active gold key of each dataset. The checks of `upload-checks.ts` are pure functions of it;
 * the quota, which depends on the team and track those checks choose, is loaded afterwards by
 * {@link loadUploadQuota}.
 */
import { canManageTask, requireConfirmedEmail, type SignedInViewer } from "../permissions";
import type { Db } from "../db";
import { loadPhase, type PhaseWithTask, listTracks, type TrackView, listDatasets, type DatasetView } from "../tasks";
import { listTeamsOf, taskTeamOf } from "../teams";
import { quotaStatus, type QuotaStatus } from "./quota";

/** A team as an upload names it. */
export interface UploadTeam {
  id: string;
  name: string;
}

/** What an upload is checked against (see the module comment). */
export interface UploadContext {
  /** the uploader (signed in; their e-mail address confirmed) */
  viewer: SignedInViewer;
  /** the phase with its task: status, window, limits, `documentCheck` */
  phase: PhaseWithTask;
  /** whether the uploader organizes the phase's task (`canManageTask`) */
  isOrganizer: boolean;
  /** the uploader's teams, oldest membership first (`listTeamsOf`) */
  teams: UploadTeam[];
  /** the team recorded for the uploader in the task (`taskTeamOf`), or null */
  taskTeam: UploadTeam | null;
  /** the phase's tracks in order */
  tracks: TrackView[];
  /** the phase's datasets in order (at least one) */
  datasets: DatasetView[];
  /** the sha256 of each dataset's active gold key, by dataset id (a dataset without one is absent) */
  activeGold: Map<string, string>;
}

/**
 * Loads an upload's {@link UploadContext}, one query after the other: the uploader's e-mail
 * confirmation first, then the phase (with its task), then the rest.
 *
 * @param viewer the signed-in uploader
 * @param phaseId the phase from the upload
 * @param db the shared client
 * @throws EmailNotConfirmedError (403) when the uploader's e-mail address is not confirmed;
 *   NotFoundError (404) for an unknown phase (also for malformed ids)
 */
export async function loadUploadContext(viewer: SignedInViewer, phaseId: string, db: Db): Promise<UploadContext> {
  await requireConfirmedEmail(viewer.userId, db);
  const phase = await loadPhase(phaseId, db);
  const isOrganizer = await canManageTask(viewer, phase.taskId, db);
  const teams = (await listTeamsOf(viewer.userId, db)).map((t) => ({ id: t.id, name: t.name }));
  const taskTeam = (await taskTeamOf(phase.taskId, viewer.userId, db))?.team ?? null;
  const tracks = await listTracks(phase.id, db);
  const datasets = await listDatasets(phase.id, db);
  const active = await db.goldKey.findMany({ where: { phaseId: phase.id, active: true }, select: { datasetId: true, sha256: true } });
  return { viewer, phase, isOrganizer, teams, taskTeam, tracks, datasets, activeGold: new Map(active.map((g) => [g.datasetId, g.sha256])) };
}

/**
 * The quota an upload's pre-check compares against (no lock: a team over its quota is refused
 * before its file is read): the chosen team's quota in the phase for the chosen track
 * (`quotaStatus`: the track's own when it has limits, else the phase's shared one).
 *
 * @param context the upload's context
 * @param plan what the checks chose: the team (null when a personal team is still to be
 *   created: it has used nothing, and limits are at least 1), the track, and whether the run
 *   is a baseline (baselines use no quota)
 * @param now the upload time (its UTC day)
 * @param db the shared client
 * @returns the quota, or null when there is nothing to check (a baseline, or no team yet)
 */
export async function loadUploadQuota(context: UploadContext, plan: { team: UploadTeam | null; track: TrackView | null; isBaseline: boolean }, now: Date, db: Db): Promise<QuotaStatus | null> {
  if (plan.isBaseline || !plan.team) return null;
  return quotaStatus(plan.team.id, context.phase.id, now, db, context.phase, plan.track);
}
