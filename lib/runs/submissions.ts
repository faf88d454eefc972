/**
 * Submissions: upload (checked, stored, queued), one submission as a viewer sees it, and
 * lists for a team, for the viewer, and for organizers.
 *
 * An upload (`createSubmission`) is one sequence: load its context once (`upload-context.ts`:
 * the phase and task with their policy, the uploader, their teams and their team in the task,
 * the tracks, the datasets, the active gold keys), run the pure checks on it
 * (`upload-checks.ts`), load the chosen team's quota and pre-check it, read and validate the
 * files in the upload pool and check their documents (`run-files.ts`), then write once.
 *
 * Upload order (each step's error is final; nothing is stored, no quota used and no team
 * created or recorded before the last step): sign-in → e-mail confirmed → phase exists (a draft task's phase
 * exists for its organizers only; an archived task takes no runs, 409) → metadata → phase
 * window (baselines skip it) → track (`uploadTrack`: required in a phase with tracks, baselines
 * excepted; refused in a phase without) → team resolution (one team per user per task, see teams.ts)
 * → size → the upload's shape (a phase with several datasets takes an archive only: a plain
 * file is a 422 naming the expected files; cheap, by the file name) → quota pre-check without
 * a lock (cheap: an over-quota team is refused before its file is read; the run's track's own
 * quota when it has one, else the phase's, see `quota.ts`) → reading the run's files
 * ({@link readRunFiles}: a plain file, or an archive read in memory by `lib/uploads/archive.ts`, at
 * most 10× the upload cap uncompressed, its files paired with the phase's datasets by name;
 * each file's extension must fit its dataset's format) → file validation with limits in the
 * upload thread pool (`readUpload`, never on the event loop; one file after the other; an
 * error names the file inside the archive, its line and column) → document check of each
 * dataset's file against that dataset's active gold key (`checkRunDocuments`,
 * `enforceDocumentCheck`: warnings of all datasets together, each prefixed with its dataset on a
 * phase with several; a mismatch is a 422 on a phase whose `documentCheck` is "error", and a
 * 409 with the warnings on one that warns unless the upload confirms them; no check for a
 * dataset without an active gold key) → [personal team created if needed] →
 * one transaction: lock on (task, user)
 * and the user's task team recorded or checked, lock on (team, phase) and the quota checked
 * again (with the track's limits as they are now), insert QUEUED with one SubmissionFile per
 * dataset file, audit → after commit, enqueue.
 * A track deleted meanwhile fails the insert's foreign key: a 422 on `track`, nothing stored.
 *
 * Datasets the run left out (an archive may hold fewer files than the phase has datasets) are
 * treated like missing documents (issue 24 §1): a `missing-dataset` warning each, under the
 * phase's `documentCheck` (a 422 on "error", a 409 to confirm on "warn"); a confirmed run
 * lists them in its answer (`missingDatasets`), they count 0 in the macro-average, and the
 * run's page says so.
 *
 * Baselines: only organizers may mark a submission as a baseline. Baselines skip the phase
 * window and the quota, do not count against it, and name any of the organizer's teams
 * (the one-team-per-task record neither applies to them nor is made by them).
 *
 * Withdrawn and disqualified runs (`run-controls.ts`): every view and list carries
 * `withdrawnAt` and `disqualified` ({reason, at}, public). A withdrawn run is shown to its team
 * and the task's organizers only; for everybody else it is a 404 like an unknown run.
 */
import { NotFoundError, ValidationError } from "../errors";
import { assertCanManageTask, canViewDocumentScores, isTeamMember, requireSignedIn, submissionAccess, type Viewer } from "../permissions";
import { enqueueAfterCommit } from "../queue";
import { packFileAsync, sha256Hex } from "../storage";
import { TRACK_SELECT, loadPhase, listDatasets } from "../tasks";
import { isLeaderboardMetric } from "../validations/metrics";
import { recordAudit } from "../audit";
import { defaultDb, isUuid, lockKey, type Prisma, type SubmissionStatus, type SubmissionVisibility } from "../db";
import { assertQuotaLeft, quotaStatus } from "./quota";
import { blancRuleForGold, documentScoresToJson, macroScoresToJson, scoresToJson, type BoardMetricsJson, type MetricsJson } from "../boards";
import { claimTaskTeam, ensurePersonalTeam } from "../teams";
import { enforceDocumentCheck, type DocumentCheck, type Warning } from "../uploads";
import type { RunEvaluation } from "../tasks";
import { loadUploadContext, loadUploadQuota, type UploadContext } from "./upload-context";
import { assertUploadQuota, checkUpload, type UploadFields, type UploadPlan } from "./upload-checks";
import { checkRunFiles, readRunFiles, type RunFiles } from "./run-files";

/** What an upload sends: the phase, the uploader, the file and its metadata (see {@link UploadFields}). */
export interface CreateSubmissionInput extends UploadFields {
  viewer: Viewer;
  phaseId: string;
  /** the upload time (default: now); for scripts and tests */
  now?: Date;
}

/**
 * What an accepted upload answers: the new run's id and status, the document warnings it was
 * accepted with (confirmed; empty when its documents match the gold keys or there are none),
 * and the names of the phase's datasets the run has no file for (in the phase's order; they
 * count 0 in the macro-average; empty for a run covering every dataset).
 */
export interface CreatedSubmission {
  id: string;
  status: SubmissionStatus;
  warnings: Warning[];
  missingDatasets: string[];
}


/**
 * Accepts an upload: checks it, stores it QUEUED, and enqueues it for scoring (see the
 * module comment for the order of the checks).
 *
 * @returns the new submission's id, its status (QUEUED), the document warnings it was
 *   accepted with and the datasets it left out (`CreatedSubmission`)
 * @throws UnauthorizedError (401) when anonymous; NotFoundError (404) for an unknown phase,
 *   or one of a draft task the submitter does not organize; ConflictError (409) in an archived
 *   task (for everyone, organizers' baselines too); ValidationError (422) for bad metadata; for no `track` in a phase with tracks (not a
 *   baseline), an unknown one, or one in a phase without tracks (field `track`, the message
 *   lists the choices; also when the track is deleted during the upload); an unreadable file (`formatErrors` with line and
 *   column; in an archive, `file` is the name inside the archive); a plain file on a phase with
 *   several datasets (field `file`, naming the expected files); a hostile or broken archive,
 *   unknown or duplicate files in it, or none of the datasets' files (`lib/uploads/archive.ts`); a file
 *   whose extension does not fit its dataset's format; or, for users in several teams without a team recorded in the task, no `team`;
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
  const context = await loadUploadContext(viewer, input.phaseId, db);
  const plan = checkUpload(context, input, now);
  // Pre-check without the lock: a team over its quota is refused before its file is read.
  assertUploadQuota(plan, await loadUploadQuota(context, plan, now, db), context.phase.name);
  const upload = await readRunFiles(input.bytes, plan.fileName, context.datasets, context.phase.id);
  const { check, label } = await checkRunFiles(upload, plan.fileName, context, db);
  enforceDocumentCheck(check, context.phase.documentCheck, plan.acknowledgeWarnings, label, plan.fileName);
  const id = await writeSubmission(context, plan, { bytes: input.bytes, upload, check }, now);
  await enqueueAfterCommit([id], `new submission ${id}`);
  return { id, status: "QUEUED", warnings: check?.warnings ?? [], missingDatasets: upload.missing.map((d) => d.name) };
}

/** What an upload stores besides its plan: the upload as sent, its files as read, and the document check it passed. */
interface RunUpload {
  /** the upload as sent (plain file or archive) */
  bytes: Uint8Array;
  upload: RunFiles;
  /** the combined document check (null when nothing was checked) */
  check: DocumentCheck | null;
}

/**
 * Stores a checked upload: packs its files, creates the uploader's personal team when the plan
 * has no team (`ensurePersonalTeam`), then one transaction ({@link UPLOAD_TX}): the lock on
 * (task, user) and the user's task team recorded or checked (`claimTaskTeam`; not for
 * baselines), the lock on (team, phase) and the quota checked again with the track's limits as
 * they are now, the run inserted QUEUED with one SubmissionFile per dataset file, and its
 * `submission.create` audit event. A refusal inside the transaction stores nothing.
 *
 * @returns the new run's id
 * @throws ForbiddenError (403) when another team was recorded for the user meanwhile;
 *   QuotaExceededError (429); ValidationError (422, field `track`) when the run's track was
 *   deleted during the upload; RateLimitedError (429) from `ensurePersonalTeam`
 */
async function writeSubmission(context: UploadContext, plan: UploadPlan, sent: RunUpload, now: Date): Promise<string> {
  const { viewer, phase } = context;
  const { track, fileName, isBaseline } = plan;
  const { upload, check } = sent;
  // The upload as sent (plain file or archive), and each dataset's file as stored.
  const file = { sha256: sha256Hex(sent.bytes), size: sent.bytes.byteLength };
  const stored = await Promise.all(upload.files.map(async (f) => ({ datasetId: f.dataset.id, fileName: f.fileName, ...(await packFileAsync(f.bytes)) })));
  const team = plan.team ?? (await ensurePersonalTeam(viewer.userId));

  const trackGone = () => ValidationError.field("track", `The track "${track?.name}" was deleted while the run was uploaded; choose another track.`);
  return defaultDb()
    .$transaction(async (tx) => {
      // Lock order: (task, user) before (team, phase), in every transaction that takes both.
      const recorded = isBaseline ? false : await claimTaskTeam(tx, phase.taskId, viewer.userId, team);
      await lockKey(tx, `quota:${team.id}:${phase.id}`);
      // The track's limits as they are now (an organizer may have changed them meanwhile).
      const current = track && (await tx.track.findUnique({ where: { id: track.id }, select: TRACK_SELECT }));
      if (track && !current) throw trackGone();
      if (!isBaseline) assertQuotaLeft(await quotaStatus(team.id, phase.id, now, tx, phase, current), team.name, phase.name);
      const row = await tx.submission.create({
        data: {
          phaseId: phase.id,
          trackId: track?.id ?? null,
          teamId: team.id,
          submitterId: viewer.userId,
          systemName: plan.systemName,
          description: plan.description,
          paperUrl: plan.paperUrl,
          codeUrl: plan.codeUrl,
          fileName,
          sha256: file.sha256,
          size: file.size,
          files: { create: stored },
          status: "QUEUED",
          isBaseline,
          visibility: plan.visibility,
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
          sha256: file.sha256,
          size: file.size,
          // The datasets the run has a file for (name and the file's name), and those it left out.
          datasets: upload.files.map((f) => ({ name: f.dataset.name, fileName: f.fileName })),
          missing: upload.missing.map((d) => d.name),
          isBaseline,
          ...(track ? { trackId: track.id, track: track.name } : {}),
          ...(recorded ? { taskTeamRecorded: true } : {}),
          // Submitted despite document warnings (confirmed): how many documents did not match.
          ...(check && (check.unmatched > 0 || check.missing > 0) ? { documentWarnings: { unmatched: check.unmatched, missing: check.missing } } : {}),
        },
      });
      return row.id;
    }, UPLOAD_TX)
    .catch((error: unknown) => {
      // The track was deleted after the check above: the insert's foreign key refuses the run.
      if (track && isForeignKeyViolation(error)) throw trackGone();
      throw error;
    });
}

/**
 * The upload's transaction may wait up to 10 s for a connection and run up to 15 s (Prisma's
 * defaults are 2 s and 5 s). Under a burst of uploads the app's pool (10 connections) is
 * busy, and a team's uploads queue on its quota lock: with the defaults, 100 concurrent
 * uploads from 5 teams on a loaded machine answered 500 ("Unable to start a transaction in
 * the given time", P2028) for 3–11 of them (resilience test c), where each should be taken
 * or refused by its quota. The worker's claims wait as long (`CLAIM_TX`).
 */
const UPLOAD_TX = { maxWait: 10_000, timeout: 15_000 };

/** True when `error` is Prisma's foreign-key violation (P2003). */
function isForeignKeyViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "P2003";
}

/** One dataset of a run (`SubmissionView.datasets`). */
export interface SubmissionDatasetView {
  id: string;
  name: string;
  /** e.g. "en"; "" when not given */
  language: string;
  /**
   * the run's file for the dataset, null when the run left the dataset out. For viewers
   * outside the team and the organizers it is the dataset's expected file name (which is what
   * an archive holds it under; a plain file's own name stays with the team)
   */
  fileName: string | null;
  /** true when the run has no file for the dataset: it counts 0 in the macro-average */
  missing: boolean;
  /** the dataset's gold key version the scores come from (null before scoring, or when the dataset has no gold key yet) */
  goldVersion: number | null;
  /** the run's scores on the dataset (CLI JSON shape, with counts); null before scoring and for a dataset left out */
  scores: MetricsJson | null;
  /**
   * the run's scores on the dataset under each secondary variant it was scored with
   * (`evaluation.variants`, e.g. `partial`, `exact`, `singletons` for CRAC), by variant id, in
   * the shape of `scores` (with counts): its DatasetScore rows of that variant. `{}` before
   * scoring, for a dataset left out, and for a profile without variants; a variant with no
   * stored rows on the dataset is absent
   */
  variants: Record<string, MetricsJson>;
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
   * `RunEvaluation` of `lib/tasks/evaluation.ts`: `{profile, label, primary, variants}`); null until scored
   */
  evaluation: RunEvaluation | null;
  /**
   * the scorer's warnings from the last scoring (`submissions.warnings`: `{code, message,
   * file?, line?, document?}` of `scoring/types.ts`, about the response: missing and
   * response-only documents, repeated mentions, the response reader's warnings); on a phase
   * with several datasets each also names its `dataset`; empty before scoring and after a failure
   */
  warnings: RunWarning[];
  /** team and organizers: who uploaded it */
  submitter?: { id: string; name: string };
  /** team and organizers: the uploaded file */
  file?: { name: string; sha256: string; size: number };
  /** team and organizers: scoring attempts so far */
  attempts?: number;
  /** team and organizers: why it failed (null unless FAILED) */
  error?: { stage: string | null; message: string | null; location: unknown } | null;
  /**
   * corpus scores (CLI JSON shape); null when there are none yet. After a new gold key they are
   * the previous version's until rescored. On a phase with several datasets they are the
   * macro-average over the datasets with a gold key (a dataset the run left out counting 0):
   * F1, recall and precision, without counts (null).
   */
  scores: BoardMetricsJson | null;
  /**
   * the corpus scores under each secondary variant the run was scored with (`evaluation.variants`),
   * by variant id, in the shape of `scores` (on a phase with several datasets the macro-average,
   * counts null); `{}` before scoring and for a profile without variants; a variant without stored
   * rows is absent
   */
  variants: Record<string, BoardMetricsJson>;
  /**
   * every dataset of the run's phase, in the phase's order (always at least one entry: a
   * phase with one dataset has a single entry, so clients need no special case; pages show the
   * table only for several). See {@link SubmissionDatasetView}.
   */
  datasets: SubmissionDatasetView[];
  /**
   * per-document scores when the viewer may see them (`canViewDocumentScores`: organizers;
   * whoever may see the run's error analysis; the run's team, except on a phase whose
   * leaderboard is hidden unless the phase's `teamDocumentScores` is on); else null. Grouped
   * by dataset in the phase's order, documents sorted by id within each; `dataset` is the
   * dataset's name on a phase with several datasets (documents are named within a dataset),
   * null on a phase with one
   */
  perDocument: { dataset: string | null; document: string; metrics: MetricsJson }[] | null;
  /**
   * true when the viewer is the run's team and per-document scores are withheld because the
   * phase's leaderboard is hidden (teams get corpus-level scores only there): pages say so
   */
  perDocumentWithheld: boolean;
  viewerIsTeamMember: boolean;
  viewerIsOrganizer: boolean;
  /** when the run's team withdrew it (it left every board), or null; only the team and the organizers ever see a withdrawn run */
  withdrawnAt: Date | null;
  /** the organizers' public disqualification (reason and time; the board strikes the run through, unranked), or null */
  disqualified: { reason: string; at: Date } | null;
  /**
   * the viewer may withdraw the run now (`withdrawSubmission`): a member of its team, not a
   * baseline, neither withdrawn nor disqualified, and its phase not closed yet (before `closesAt`)
   */
  viewerCanWithdraw: boolean;
  /** the moment the phase closes, after which the run can no longer be withdrawn (its `closesAt`) */
  withdrawableUntil: Date;
}

/**
 * One submission, if the viewer may see it (see `canViewSubmission`). Never includes gold
 * content or gold metadata.
 *
 * @param id the submission id (any string: a malformed id is a 404 like an unknown one)
 * @param viewer the viewer (null = anonymous)
 * @returns the {@link SubmissionView}: submitter, file, attempts and error only for the team
 *   and the organizers; per-document scores as `canViewDocumentScores` allows; its datasets
 *   (file or missing, gold version, scores and each variant's: DatasetScore rows) and its
 *   variants' corpus scores for everyone who may see it
 * @param now the current time (for `viewerCanWithdraw`; default: now)
 * @throws NotFoundError (404) when it does not exist or the viewer may not see it (the same
 *   answer, so that other teams' private runs stay unknown), and for a run its team withdrew
 *   unless the viewer is in that team or organizes the task
 */
export async function getSubmissionForViewer(id: string, viewer: Viewer, now: Date = new Date()): Promise<SubmissionView> {
  const db = defaultDb();
  const s = isUuid(id)
    ? await db.submission.findUnique({
        where: { id },
        include: {
          team: { select: { id: true, name: true } },
          track: { select: { id: true, name: true } },
          submitter: { select: { id: true, name: true } },
          phase: { include: { task: { select: { id: true, slug: true, title: true, primaryMetric: true } } } },
          // The primary setting ("") and every variant; those the run was not scored with are dropped below.
          scores: true,
          files: { select: { datasetId: true, fileName: true, goldKey: { select: { version: true, fileName: true } } } },
          datasetScores: true,
        },
      })
    : null;
  const access = s ? await submissionAccess(viewer, s, db) : null;
  if (!s || !access?.visible) throw new NotFoundError("No such submission.");
  const { isOrganizer: viewerIsOrganizer, isTeamMember: viewerIsTeamMember } = access;
  const insider = viewerIsOrganizer || viewerIsTeamMember;
  // A withdrawn run left the board: only its team and the organizers still see it.
  if (s.withdrawnAt && !insider) throw new NotFoundError("No such submission.");
  const evaluation = storedEvaluation(s.evaluation);
  const phaseDatasets = await listDatasets(s.phaseId, db);
  const several = phaseDatasets.length > 1;
  const fileOf = new Map(s.files.map((f) => [f.datasetId, f]));
  // The secondary variants the run was scored with, in the profile's order (stray rows of others are left out).
  const variantIds = (evaluation?.variants ?? []).map((v) => v.id);
  const bySetting = <R extends { variant: string }, J>(rows: readonly R[], toJson: (rows: R[]) => J): Record<string, J> =>
    Object.fromEntries(
      variantIds.flatMap((id) => {
        const own = rows.filter((r) => r.variant === id);
        return own.length > 0 ? [[id, toJson(own)]] : [];
      }),
    );
  const datasets: SubmissionDatasetView[] = phaseDatasets.map((d) => {
    const file = fileOf.get(d.id);
    const onDataset = s.datasetScores.filter((r) => r.datasetId === d.id);
    const rows = onDataset.filter((r) => r.variant === "");
    const recorded = evaluation?.datasets?.find((r) => r.id === d.id);
    return {
      id: d.id,
      name: d.name,
      language: d.language,
      fileName: file ? (insider ? file.fileName : d.fileName) : null,
      missing: !file,
      goldVersion: file?.goldKey?.version ?? recorded?.goldVersion ?? (several ? null : s.goldVersion),
      scores: rows.length > 0 ? scoresToJson(rows) : null,
      variants: bySetting(onDataset, scoresToJson),
    };
  });
  const primaryScores = s.scores.filter((r) => r.variant === "");
  // Per-document denominators are gold statistics, and per-document scores of a hidden test
  // set let a team probe the gold: see `canViewDocumentScores`.
  const showDocuments = await canViewDocumentScores(access, s.phase);
  const documentRows = showDocuments ? await db.documentScore.findMany({ where: { submissionId: s.id } }) : [];
  const perDocument = phaseDatasets.flatMap((d) => {
    const rows = documentRows.filter((r) => r.datasetId === d.id);
    if (rows.length === 0) return [];
    // BLANC's averaging rule is that of the gold key the dataset was scored against.
    const rule = blancRuleForGold(fileOf.get(d.id)?.goldKey?.fileName ?? d.fileName);
    return documentScoresToJson(rows, rule).map((doc) => ({ dataset: several ? d.name : null, ...doc }));
  });
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
    evaluation,
    warnings: storedWarnings(s.warnings, several),
    ...(insider
      ? {
          submitter: s.submitter,
          file: { name: s.fileName, sha256: s.sha256, size: s.size },
          attempts: s.attempts,
          error: s.status === "FAILED" ? { stage: s.errorStage, message: s.errorMessage, location: s.errorLocation } : null,
        }
      : {}),
    scores: primaryScores.length > 0 ? macroScoresToJson(primaryScores) : null,
    variants: bySetting(s.scores, macroScoresToJson),
    datasets,
    perDocument: showDocuments && perDocument.length > 0 ? perDocument : null,
    perDocumentWithheld: viewerIsTeamMember && !showDocuments,
    viewerIsTeamMember,
    viewerIsOrganizer,
    withdrawnAt: s.withdrawnAt,
    disqualified: disqualificationOf(s),
    viewerCanWithdraw: viewerIsTeamMember && !s.isBaseline && !s.withdrawnAt && !s.disqualifiedAt && now.getTime() < s.phase.closesAt.getTime(),
    withdrawableUntil: s.phase.closesAt,
  };
}

/** A run's public disqualification from its columns, or null when it is not disqualified. */
function disqualificationOf(s: { disqualifiedAt: Date | null; disqualifiedReason: string | null }): { reason: string; at: Date } | null {
  return s.disqualifiedAt && s.disqualifiedReason !== null ? { reason: s.disqualifiedReason, at: s.disqualifiedAt } : null;
}

/** A scorer warning of a run, with the dataset it is about on a phase with several datasets. */
export type RunWarning = Warning & { dataset?: string };

/**
 * The scorer's warnings as stored (`submissions.warnings`, written by the worker): the
 * well-formed entries of the JSON array, each with only the {@link Warning} fields, and its
 * `dataset` (name) when `several` (a phase with several datasets).
 */
function storedWarnings(json: Prisma.JsonValue, several: boolean): RunWarning[] {
  if (!Array.isArray(json)) return [];
  const warnings: RunWarning[] = [];
  for (const item of json) {
    if (typeof item !== "object" || item === null || Array.isArray(item)) continue;
    const { code, message, file, line, document, dataset } = item as Record<string, unknown>;
    if (typeof code !== "string" || typeof message !== "string") continue;
    warnings.push({
      code,
      message,
      ...(typeof file === "string" ? { file } : {}),
      ...(typeof line === "number" ? { line } : {}),
      ...(typeof document === "string" ? { document } : {}),
      ...(several && typeof dataset === "string" ? { dataset } : {}),
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
  /** when the team withdrew the run (it is on no board), or null */
  withdrawnAt: Date | null;
  /** the organizers' public disqualification, or null */
  disqualified: { reason: string; at: Date } | null;
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
      withdrawnAt: true,
      disqualifiedAt: true,
      disqualifiedReason: true,
      team: { select: { id: true, name: true } },
      submitter: { select: { id: true, name: true } },
      track: { select: { id: true, name: true } },
      phase: { select: { id: true, name: true, task: { select: { slug: true, primaryMetric: true } } } },
      scores: { where: { variant: "" }, select: { metric: true, f1: true } },
    },
  });
  return rows.map(({ scores, createdAt, phase, disqualifiedAt, disqualifiedReason, ...r }) => {
    const primary = isLeaderboardMetric(phase.task.primaryMetric) ? phase.task.primaryMetric : "conll";
    return {
      ...r,
      disqualified: disqualificationOf({ disqualifiedAt, disqualifiedReason }),
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
  await assertCanManageTask(viewer, phase.taskId, db, "No such phase.");
  return listSubmissions({ phaseId }, limit);
}
