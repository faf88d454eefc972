/**
 * Submissions: upload (checked, stored, queued), one submission as a viewer sees it, and
 * lists for a team, for the viewer, and for organizers.
 *
 * Upload order (each step's error is final; nothing is stored, no quota used and no team
 * created or recorded before the last step): sign-in → phase exists → metadata → phase
 * window (baselines skip it) → track (`uploadTrack`: required in a phase with tracks, baselines
 * excepted; refused in a phase without) → team resolution (one team per user per task, see teams.ts)
 * → size → quota pre-check without a lock (cheap: an over-quota team is refused before its
 * file is read; the run's track's own quota when it has one, else the phase's, see `quota.ts`) → file validation with limits in the upload thread pool (`readUpload`,
 * never on the event loop) → document check against the phase's active gold key
 * (`checkRunDocuments`, `enforceDocumentCheck`: a mismatch is a 422 on a phase whose
 * `documentCheck` is "error", and a 409 with the warnings on one that warns unless the upload
 * confirms them; no check without an active gold key) → [personal team created if needed] →
 * one transaction: lock on (task, user)
 * and the user's task team recorded or checked, lock on (team, phase) and the quota checked
 * again (with the track's limits as they are now), insert QUEUED, audit → after commit, enqueue.
 * A track deleted meanwhile fails the insert's foreign key: a 422 on `track`, nothing stored.
 *
 * Baselines: only organizers may mark a submission as a baseline. Baselines skip the phase
 * window and the quota, do not count against it, and name any of the organizer's teams
 * (the one-team-per-task record neither applies to them nor is made by them).
 */
import { ForbiddenError, NotFoundError, ValidationError } from "../errors";
import { assertCanManageTask, canManageTask, canViewDocumentScores, isTeamMember, requireSignedIn, submissionAccess, type Viewer } from "../permissions";
import { enqueueAfterCommit } from "../queue";
import { packFile } from "../storage";
import { parseInput } from "../validations/parse";
import { submissionMetadataSchema, uploadConfirmationSchema, uploadTrackSchema } from "../validations/submission";
import { listTracks, TRACK_SELECT, uploadTrack } from "./tracks";
import { isLeaderboardMetric } from "../validations/metrics";
import { recordAudit } from "./audit";
import { defaultDb, isUuid, type Db, lockKey, type Prisma, type SubmissionStatus, type SubmissionVisibility } from "./db";
import { assertPhaseOpen, loadPhase } from "./phases";
import { assertQuotaLeft, quotaStatus } from "./quota";
import { blancRuleForRun, documentScoresToJson, scoresToJson, type MetricsJson } from "./scores";
import { claimTaskTeam, ensurePersonalTeam, findSubmittingTeam, findTaskTeam } from "./teams";
import { findActiveGold } from "./gold";
import { assertUploadSize, checkRunDocuments, cleanFileName, enforceDocumentCheck, readUpload, type GoldSource, type Warning } from "./uploads";
import type { RunEvaluation } from "../evaluation";

/** What an upload sends: the file and its metadata (see `submissionMetadataSchema`). */
export interface CreateSubmissionInput {
  viewer: Viewer;
  phaseId: string;
  /** team id or name; needed only by users in several teams */
  team?: string | null;
  /**
   * the run's track, by id or name: required in a phase with tracks (baselines may leave it
   * out), refused in a phase without
   */
  track?: string | null;
  fileName: string;
  bytes: Uint8Array;
  systemName: string;
  description?: string | null;
  paperUrl?: string | null;
  codeUrl?: string | null;
  isBaseline?: boolean;
  visibility?: SubmissionVisibility;
  /**
   * submit even when the run's document names do not match the gold key's (on a phase that
   * warns); a boolean, or the form value "true"/"false"
   */
  acknowledgeWarnings?: boolean | string | null;
  /** the upload time (default: now); for scripts and tests */
  now?: Date;
}

/** What an accepted upload answers: the new run's id and status, and the document warnings it was accepted with (confirmed; empty when its documents match the gold key's or there is none). */
export interface CreatedSubmission {
  id: string;
  status: SubmissionStatus;
  warnings: Warning[];
}

/**
 * The phase's active gold key as the document check needs it: its sha256 now, and its
 * stored file only when the upload pool has not cached its document ids. Null without one.
 */
async function activeGoldSource(phaseId: string, db: Db): Promise<GoldSource | null> {
  const active = await db.goldKey.findFirst({ where: { phaseId, active: true }, select: { sha256: true } });
  return active && { sha256: active.sha256, load: () => findActiveGold(phaseId, db) };
}

/**
 * Accepts an upload: checks it, stores it QUEUED, and enqueues it for scoring (see the
 * module comment for the order of the checks).
 *
 * @returns the new submission's id, its status (QUEUED) and the document warnings it was
 *   accepted with (`CreatedSubmission`)
 * @throws UnauthorizedError (401) when anonymous; NotFoundError (404) for an unknown phase;
 *   ValidationError (422) for bad metadata; for no `track` in a phase with tracks (not a
 *   baseline), an unknown one, or one in a phase without tracks (field `track`, the message
 *   lists the choices; also when the track is deleted during the upload); an unreadable file (`formatErrors` with line and
 *   column) or, for users in several teams without a team recorded in the task, no `team`;
 *   DocumentMismatchError (422, a ValidationError with `warnings`) when the run's document
 *   names do not match the active gold key's and the phase's `documentCheck` is "error";
 *   ConflictError (409, `warnings`, `acknowledgeWith`) when they do not match on a phase that
 *   warns and `acknowledgeWarnings` is not set;
 *   ForbiddenError (403) for naming a team one is not in, naming another team than the one
 *   recorded for the user in the task ("You submit for team X in this task; ask the
 *   organizers to change it."), or a baseline by a non-organizer; PhaseClosedError (409)
 *   outside the window (message in UTC); TooLargeError (413, message in MB);
 *   QuotaExceededError (429, before the file is read when the team is already over);
 *   RateLimitedError (429) when a personal team would be created and the user created too
 *   many teams lately; ValidationError (422) also when the file takes too long or too much
 *   memory to read, and ServiceBusyError (503) when the upload pool is full (see
 *   `validateUpload`)
 */
export async function createSubmission(input: CreateSubmissionInput): Promise<CreatedSubmission> {
  const viewer = requireSignedIn(input.viewer, "Please sign in (or use an API token) to submit.");
  const now = input.now ?? new Date();
  const db = defaultDb();
  const phase = await loadPhase(input.phaseId, db);
  const meta = parseInput(
    submissionMetadataSchema,
    {
      systemName: input.systemName,
      description: input.description ?? undefined,
      paperUrl: input.paperUrl,
      codeUrl: input.codeUrl,
      team: input.team,
      isBaseline: input.isBaseline ?? false,
      visibility: input.visibility ?? "PUBLIC",
    },
    "submission",
  );
  const { acknowledgeWarnings } = parseInput(uploadConfirmationSchema, { acknowledgeWarnings: input.acknowledgeWarnings }, "submission");
  const { track: trackRef } = parseInput(uploadTrackSchema, { track: input.track }, "submission");
  if (meta.isBaseline && !(await canManageTask(viewer, phase.taskId, db))) {
    throw new ForbiddenError("Only the organizers of this task can submit baselines.");
  }
  if (!meta.isBaseline) assertPhaseOpen(phase, now);
  const track = uploadTrack(await listTracks(phase.id, db), trackRef, meta.isBaseline);
  const existingTeam = meta.isBaseline
    ? await findSubmittingTeam(viewer.userId, meta.team, db)
    : await findTaskTeam(viewer.userId, phase.taskId, meta.team, db);
  assertUploadSize(input.bytes.byteLength);
  const fileName = cleanFileName(input.fileName);
  // Pre-check without the lock: a team over its quota is refused before its file is read.
  // (A personal team still to be created has used nothing; limits are at least 1.)
  if (!meta.isBaseline && existingTeam) {
    assertQuotaLeft(await quotaStatus(existingTeam.id, phase.id, now, db, phase, track), existingTeam.name, phase.name);
  }
  const { documents } = await readUpload(input.bytes, fileName);
  const check = await checkRunDocuments(documents, fileName, await activeGoldSource(phase.id, db));
  enforceDocumentCheck(check, phase.documentCheck, acknowledgeWarnings, fileName);
  const stored = packFile(input.bytes);
  const team = existingTeam ?? (await ensurePersonalTeam(viewer.userId));

  const trackGone = () => ValidationError.field("track", `The track "${track?.name}" was deleted while the run was uploaded; choose another track.`);
  const id = await db.$transaction(async (tx) => {
    // Lock order: (task, user) before (team, phase), in every transaction that takes both.
    const recorded = meta.isBaseline ? false : await claimTaskTeam(tx, phase.taskId, viewer.userId, team);
    await lockKey(tx, `quota:${team.id}:${phase.id}`);
    // The track's limits as they are now (an organizer may have changed them meanwhile).
    const current = track && (await tx.track.findUnique({ where: { id: track.id }, select: TRACK_SELECT }));
    if (track && !current) throw trackGone();
    if (!meta.isBaseline) assertQuotaLeft(await quotaStatus(team.id, phase.id, now, tx, phase, current), team.name, phase.name);
    const row = await tx.submission.create({
      data: {
        phaseId: phase.id,
        trackId: track?.id ?? null,
        teamId: team.id,
        submitterId: viewer.userId,
        systemName: meta.systemName,
        description: meta.description,
        paperUrl: meta.paperUrl,
        codeUrl: meta.codeUrl,
        fileName,
        sha256: stored.sha256,
        gzip: stored.gzip,
        size: stored.size,
        status: "QUEUED",
        isBaseline: meta.isBaseline,
        visibility: meta.visibility,
        createdAt: now,
      },
      select: { id: true },
    });
    await recordAudit(tx, {
      actorId: viewer.userId,
      action: "submission.create",
      targetType: "submission",
      targetId: row.id,
      data: {
        phaseId: phase.id,
        teamId: team.id,
        fileName,
        sha256: stored.sha256,
        size: stored.size,
        isBaseline: meta.isBaseline,
        ...(track ? { trackId: track.id, track: track.name } : {}),
        ...(recorded ? { taskTeamRecorded: true } : {}),
        // Submitted despite document warnings (confirmed): how many documents did not match.
        ...(check && check.warnings.length > 0 ? { documentWarnings: { unmatched: check.unmatched, missing: check.missing } } : {}),
      },
    });
    return row.id;
  }).catch((error: unknown) => {
    // The track was deleted after the check above: the insert's foreign key refuses the run.
    if (track && isForeignKeyViolation(error)) throw trackGone();
    throw error;
  });
  await enqueueAfterCommit([id], `new submission ${id}`);
  return { id, status: "QUEUED", warnings: check?.warnings ?? [] };
}

/** True when `error` is Prisma's foreign-key violation (P2003). */
function isForeignKeyViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "P2003";
}

/** One submission as a viewer sees it. Fields marked "team and organizers" are absent for others. */
export interface SubmissionView {
  id: string;
  status: SubmissionStatus;
  systemName: string;
  description: string;
  paperUrl: string | null;
  codeUrl: string | null;
  isBaseline: boolean;
  visibility: SubmissionVisibility;
  team: { id: string; name: string };
  task: { id: string; slug: string; title: string; primaryMetric: string };
  phase: { id: string; name: string; displayTimeZone: string };
  /** the track the run declared, or null (a phase without tracks; a baseline shown on every track's board) */
  track: { id: string; name: string } | null;
  submittedAt: Date;
  startedAt: Date | null;
  scoredAt: Date | null;
  /** gold key version and scorer version that produced `scores` (null before the first scoring) */
  goldVersion: number | null;
  scorerVersion: string | null;
  /**
   * the evaluation profile and settings the scores come from (`submissions.evaluation`,
   * `RunEvaluation` of `lib/evaluation.ts`: `{profile, label, primary, variants}`); null until scored
   */
  evaluation: RunEvaluation | null;
  /**
   * the scorer's warnings from the last scoring (`submissions.warnings`: `{code, message,
   * file?, line?, document?}` of `scoring/types.ts`, about the response: missing and
   * response-only documents, repeated mentions, the response reader's warnings); empty
   * before scoring and after a failure
   */
  warnings: Warning[];
  /** team and organizers: who uploaded it */
  submitter?: { id: string; name: string };
  /** team and organizers: the uploaded file */
  file?: { name: string; sha256: string; size: number };
  /** team and organizers: scoring attempts so far */
  attempts?: number;
  /** team and organizers: why it failed (null unless FAILED) */
  error?: { stage: string | null; message: string | null; location: unknown } | null;
  /** corpus scores (CLI JSON shape); null when there are none yet. After a new gold key they are the previous version's until rescored. */
  scores: MetricsJson | null;
  /**
   * per-document scores when the viewer may see them (`canViewDocumentScores`: organizers;
   * whoever may see the run's error analysis; the run's team, except on a phase whose
   * leaderboard is hidden unless the phase's `teamDocumentScores` is on); else null
   */
  perDocument: { document: string; metrics: MetricsJson }[] | null;
  /**
   * true when the viewer is the run's team and per-document scores are withheld because the
   * phase's leaderboard is hidden (teams get corpus-level scores only there): pages say so
   */
  perDocumentWithheld: boolean;
  viewerIsTeamMember: boolean;
  viewerIsOrganizer: boolean;
}

/**
 * One submission, if the viewer may see it (see `canViewSubmission`). Never includes gold
 * content or gold metadata.
 *
 * @param id the submission id (any string: a malformed id is a 404 like an unknown one)
 * @param viewer the viewer (null = anonymous)
 * @returns the {@link SubmissionView}: submitter, file, attempts and error only for the team
 *   and the organizers; per-document scores as `canViewDocumentScores` allows
 * @throws NotFoundError (404) when it does not exist or the viewer may not see it (the same
 *   answer, so that other teams' private runs stay unknown)
 */
export async function getSubmissionForViewer(id: string, viewer: Viewer): Promise<SubmissionView> {
  const db = defaultDb();
  const s = isUuid(id)
    ? await db.submission.findUnique({
        where: { id },
        omit: { gzip: true },
        include: {
          team: { select: { id: true, name: true } },
          track: { select: { id: true, name: true } },
          submitter: { select: { id: true, name: true } },
          phase: { include: { task: { select: { id: true, slug: true, title: true, primaryMetric: true } } } },
          scores: { where: { variant: "" } },
        },
      })
    : null;
  const access = s ? await submissionAccess(viewer, s, db) : null;
  if (!s || !access?.visible) throw new NotFoundError("No such submission.");
  const { isOrganizer: viewerIsOrganizer, isTeamMember: viewerIsTeamMember } = access;
  const insider = viewerIsOrganizer || viewerIsTeamMember;
  // Per-document denominators are gold statistics, and per-document scores of a hidden test
  // set let a team probe the gold: see `canViewDocumentScores`.
  const showDocuments = await canViewDocumentScores(access, s.phase);
  const documentRows = showDocuments ? await db.documentScore.findMany({ where: { submissionId: s.id } }) : [];
  return {
    id: s.id,
    status: s.status,
    systemName: s.systemName,
    description: s.description,
    paperUrl: s.paperUrl,
    codeUrl: s.codeUrl,
    isBaseline: s.isBaseline,
    visibility: s.visibility,
    team: s.team,
    task: s.phase.task,
    phase: { id: s.phase.id, name: s.phase.name, displayTimeZone: s.phase.displayTimeZone },
    track: s.track,
    submittedAt: s.createdAt,
    startedAt: s.startedAt,
    scoredAt: s.scoredAt,
    goldVersion: s.goldVersion,
    scorerVersion: s.scorerVersion,
    evaluation: storedEvaluation(s.evaluation),
    warnings: storedWarnings(s.warnings),
    ...(insider
      ? {
          submitter: s.submitter,
          file: { name: s.fileName, sha256: s.sha256, size: s.size },
          attempts: s.attempts,
          error: s.status === "FAILED" ? { stage: s.errorStage, message: s.errorMessage, location: s.errorLocation } : null,
        }
      : {}),
    scores: s.scores.length > 0 ? scoresToJson(s.scores) : null,
    perDocument: showDocuments && documentRows.length > 0 ? documentScoresToJson(documentRows, await blancRuleForRun(db, s)) : null,
    perDocumentWithheld: viewerIsTeamMember && !showDocuments,
    viewerIsTeamMember,
    viewerIsOrganizer,
  };
}

/**
 * The scorer's warnings as stored (`submissions.warnings`, written by the worker): the
 * well-formed entries of the JSON array, each with only the {@link Warning} fields.
 */
function storedWarnings(json: Prisma.JsonValue): Warning[] {
  if (!Array.isArray(json)) return [];
  const warnings: Warning[] = [];
  for (const item of json) {
    if (typeof item !== "object" || item === null || Array.isArray(item)) continue;
    const { code, message, file, line, document } = item as Record<string, unknown>;
    if (typeof code !== "string" || typeof message !== "string") continue;
    warnings.push({
      code,
      message,
      ...(typeof file === "string" ? { file } : {}),
      ...(typeof line === "number" ? { line } : {}),
      ...(typeof document === "string" ? { document } : {}),
    });
  }
  return warnings;
}

/** The evaluation record as stored (`submissions.evaluation`, written by the worker), or null when absent or not a record. */
function storedEvaluation(json: Prisma.JsonValue): RunEvaluation | null {
  if (typeof json !== "object" || json === null || Array.isArray(json)) return null;
  const record = json as Record<string, unknown>;
  return typeof record.label === "string" && typeof record.profile === "string" && Array.isArray(record.variants) ? (record as unknown as RunEvaluation) : null;
}

/** A submission in a list. */
export interface SubmissionSummary {
  id: string;
  status: SubmissionStatus;
  systemName: string;
  team: { id: string; name: string };
  submitter: { id: string; name: string };
  phase: { id: string; name: string };
  /** the run's track, or null */
  track: { id: string; name: string } | null;
  task: { slug: string; primaryMetric: string };
  submittedAt: Date;
  scoredAt: Date | null;
  isBaseline: boolean;
  visibility: SubmissionVisibility;
  goldVersion: number | null;
  /** F1 of the task's primary metric, when scored */
  primaryF1: number | null;
  /** the error message when FAILED */
  errorStage: string | null;
  errorMessage: string | null;
}

/** Most rows a list returns. */
export const MAX_LIST = 1000;

/** The submissions matching `where` (already authorized by the caller), newest first, at most `limit` (clamped to 1..{@link MAX_LIST}). */
async function listSubmissions(where: Prisma.SubmissionWhereInput, limit: number): Promise<SubmissionSummary[]> {
  const rows = await defaultDb().submission.findMany({
    where,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: Math.max(1, Math.min(limit, MAX_LIST)),
    select: {
      id: true,
      status: true,
      systemName: true,
      createdAt: true,
      scoredAt: true,
      isBaseline: true,
      visibility: true,
      goldVersion: true,
      errorStage: true,
      errorMessage: true,
      team: { select: { id: true, name: true } },
      submitter: { select: { id: true, name: true } },
      track: { select: { id: true, name: true } },
      phase: { select: { id: true, name: true, task: { select: { slug: true, primaryMetric: true } } } },
      scores: { where: { variant: "" }, select: { metric: true, f1: true } },
    },
  });
  return rows.map(({ scores, createdAt, phase, ...r }) => {
    const primary = isLeaderboardMetric(phase.task.primaryMetric) ? phase.task.primaryMetric : "conll";
    return {
      ...r,
      phase: { id: phase.id, name: phase.name },
      task: phase.task,
      submittedAt: createdAt,
      primaryF1: scores.find((x) => x.metric === primary)?.f1 ?? null,
    };
  });
}

/**
 * A team's submissions, newest first (members only).
 *
 * @param phaseId only this phase, when given
 * @param limit at most this many (default and maximum {@link MAX_LIST})
 * @throws UnauthorizedError (401) when anonymous; NotFoundError (404) when the viewer is not a member
 */
export async function listSubmissionsForTeam(viewer: Viewer, teamId: string, phaseId?: string, limit = MAX_LIST): Promise<SubmissionSummary[]> {
  const user = requireSignedIn(viewer);
  if (!isUuid(teamId) || !(await isTeamMember(user.userId, teamId))) throw new NotFoundError("No such team among yours.");
  if (phaseId !== undefined && !isUuid(phaseId)) return [];
  return listSubmissions({ teamId, ...(phaseId ? { phaseId } : {}) }, limit);
}

/**
 * The submissions of all the viewer's teams in a phase, newest first (for the submit page).
 *
 * @throws UnauthorizedError (401) when anonymous; NotFoundError (404) for an unknown phase
 */
export async function listSubmissionsForViewer(viewer: Viewer, phaseId: string, limit = MAX_LIST): Promise<SubmissionSummary[]> {
  const user = requireSignedIn(viewer);
  await loadPhase(phaseId);
  return listSubmissions({ phaseId, team: { members: { some: { userId: user.userId } } } }, limit);
}

/**
 * Every submission of a phase, newest first (organizers only), private ones included.
 *
 * @throws UnauthorizedError (401), ForbiddenError (403) unless the viewer organizes the
 *   task; NotFoundError (404) for an unknown phase
 */
export async function listSubmissionsForPhase(viewer: Viewer, phaseId: string, limit = MAX_LIST): Promise<SubmissionSummary[]> {
  const db = defaultDb();
  const phase = await loadPhase(phaseId, db);
  await assertCanManageTask(viewer, phase.taskId, db);
  return listSubmissions({ phaseId }, limit);
}
