/**
 * The checks of a run upload, each a pure function of the upload's {@link UploadContext} and
 * of what the upload sent (no query, no thread): the phase takes runs, the metadata, who may
 * upload a baseline, the phase's window, the track, the team, the size and shape of the
 * upload, the quota pre-check, and the document check's combination of every dataset's
 * warnings. `createSubmission` (./submissions.ts) runs them in the order of its module comment;
 * each throws the upload's final answer.
 */
import { ConflictError, ForbiddenError, NotFoundError } from "../errors";
import type { SubmissionVisibility } from "../db";
import { parseInput } from "../validations/parse";
import { submissionMetadataSchema, uploadConfirmationSchema, uploadTrackSchema } from "../validations/submission";
import { assertPhaseOpen, uploadTrack, type TrackView } from "../tasks";
import type { DatasetView } from "../tasks";
import { pickSubmittingTeam, pickTaskTeam } from "../teams";
import { archiveKind, assertUploadSize, cleanFileName, missingDatasetWarnings, sampleSubmissionPath, uploadHowTo, UploadShapeError, type DocumentCheck } from "../uploads";
import { assertQuotaLeft, type QuotaStatus } from "./quota";
import type { UploadContext, UploadTeam } from "./upload-context";

/** What an upload sends besides its phase: the file and its metadata (see `submissionMetadataSchema`). */
export interface UploadFields {
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
}

/** An upload that passed {@link checkUpload}: its parsed metadata and what the checks chose. */
export interface UploadPlan {
  systemName: string;
  description: string;
  paperUrl: string | null;
  codeUrl: string | null;
  isBaseline: boolean;
  visibility: SubmissionVisibility;
  /** whether the upload confirmed document warnings (`acknowledgeWarnings`) */
  acknowledgeWarnings: boolean;
  /** the run's track, or null */
  track: TrackView | null;
  /** the existing team the run is for, or null when the uploader's personal team is still to be created */
  team: UploadTeam | null;
  /** the upload's cleaned file name */
  fileName: string;
}

/**
 * Refuses an upload to a phase whose task takes no runs: a draft task does not exist for
 * anyone but its organizers; an archived one is read-only (organizers' baselines too).
 *
 * @throws NotFoundError (404, "No such phase.") for a draft task's phase and a non-organizer;
 *   ConflictError (409) in an archived task
 */
export function assertPhaseTakesRuns(context: Pick<UploadContext, "phase" | "isOrganizer">): void {
  if (context.phase.task.status === "DRAFT" && !context.isOrganizer) throw new NotFoundError("No such phase.");
  if (context.phase.task.status === "ARCHIVED") throw new ConflictError("This task is archived: it no longer accepts runs.");
}

/**
 * Parses an upload's metadata, its confirmation of document warnings and its track reference.
 *
 * @returns the metadata (`submissionMetadataSchema`), `acknowledgeWarnings` as a boolean, and
 *   the track reference (null when absent or empty)
 * @throws ValidationError (422) for bad metadata (every field's problem), a confirmation that
 *   is not "true"/"false", or a bad track reference
 */
export function parseUploadFields(fields: UploadFields) {
  const meta = parseInput(
    submissionMetadataSchema,
    {
      systemName: fields.systemName,
      description: fields.description ?? undefined,
      paperUrl: fields.paperUrl,
      codeUrl: fields.codeUrl,
      team: fields.team,
      isBaseline: fields.isBaseline ?? false,
      visibility: fields.visibility ?? "PUBLIC",
    },
    "submission",
  );
  const { acknowledgeWarnings } = parseInput(uploadConfirmationSchema, { acknowledgeWarnings: fields.acknowledgeWarnings }, "submission");
  const { track: trackRef } = parseInput(uploadTrackSchema, { track: fields.track }, "submission");
  return { meta, acknowledgeWarnings, trackRef };
}

/**
 * Refuses a baseline from anyone but the task's organizers.
 *
 * @throws ForbiddenError (403)
 */
export function assertMayUploadBaseline(context: Pick<UploadContext, "isOrganizer">, isBaseline: boolean): void {
  if (isBaseline && !context.isOrganizer) throw new ForbiddenError("Only the organizers of this task can submit baselines.");
}

/**
 * The existing team a run is for: a baseline names any of the uploader's teams
 * (`pickSubmittingTeam`; the one-team-per-task record does not apply); any other run is for the
 * team recorded for the uploader in the task, else the team it names or the uploader's only
 * one (`pickTaskTeam`).
 *
 * @returns the team, or null when the uploader is in no team (a personal team is created on writing)
 * @throws ForbiddenError (403) for a team the uploader is not in, or another team than the one
 *   recorded for them in the task; ValidationError (422, field `team`) when several teams and none named
 */
export function chooseUploadTeam(context: Pick<UploadContext, "teams" | "taskTeam">, isBaseline: boolean, teamRef: string | null): UploadTeam | null {
  return isBaseline ? pickSubmittingTeam(context.teams, teamRef) : pickTaskTeam(context.taskTeam, context.teams, teamRef);
}

/** The file names a phase's datasets expect, for messages: `"a.conllu" (dataset a, cs), …`. */
function expectedNames(datasets: readonly DatasetView[]): string {
  return datasets.map((d) => `"${d.fileName}" (dataset ${d.name}${d.language ? `, ${d.language}` : ""})`).join(", ");
}

/**
 * Refuses a plain file on a phase with several datasets (cheap: by the file name only).
 *
 * @param phaseId the phase, for the sample archive's link
 * @throws UploadShapeError (422, field `file`): what to upload, and in `detail` the datasets
 *   and the file names the archive must hold
 */
export function assertUploadShape(fileName: string, datasets: readonly DatasetView[], phaseId: string): void {
  if (datasets.length <= 1 || archiveKind(fileName) !== null) return;
  throw new UploadShapeError(
    uploadHowTo(datasets),
    `This phase has ${datasets.length} datasets (${datasets.map((d) => d.name).join(", ")}); upload a .zip or .tar.gz with one file per dataset named ${expectedNames(datasets)}. ${fileName} is not such an archive.`,
    sampleSubmissionPath(phaseId),
  );
}

/**
 * Every check of an upload before its file is read, in order: the phase takes runs
 * ({@link assertPhaseTakesRuns}), the metadata ({@link parseUploadFields}), the baseline
 * permission, the phase's window (baselines skip it), the track (`uploadTrack`), the team
 * ({@link chooseUploadTeam}), the size (`assertUploadSize`, the upload cap) and the shape
 * ({@link assertUploadShape}).
 *
 * @param context the upload's context
 * @param fields what the upload sent
 * @param now the upload time
 * @returns the {@link UploadPlan}
 * @throws as each check: NotFoundError (404), ConflictError (409, archived task),
 *   ValidationError (422: metadata, track, team), ForbiddenError (403: baseline, team),
 *   PhaseClosedError (409), TooLargeError (413), UploadShapeError (422)
 */
export function checkUpload(context: UploadContext, fields: UploadFields, now: Date): UploadPlan {
  const { phase } = context;
  assertPhaseTakesRuns(context);
  const { meta, acknowledgeWarnings, trackRef } = parseUploadFields(fields);
  assertMayUploadBaseline(context, meta.isBaseline);
  if (!meta.isBaseline) assertPhaseOpen(phase, now);
  const track = uploadTrack(context.tracks, trackRef, meta.isBaseline);
  const team = chooseUploadTeam(context, meta.isBaseline, meta.team);
  assertUploadSize(fields.bytes.byteLength);
  const fileName = cleanFileName(fields.fileName);
  assertUploadShape(fileName, context.datasets, phase.id);
  const { systemName, description, paperUrl, codeUrl, isBaseline, visibility } = meta;
  return { systemName, description, paperUrl, codeUrl, isBaseline, visibility, acknowledgeWarnings, track, team, fileName };
}

/**
 * The quota pre-check of an upload (before its file is read, without the lock; the write checks
 * again under the quota lock).
 *
 * @param plan the checked upload (its team names the message)
 * @param quota the team's quota (`loadUploadQuota`), or null when there is nothing to
 *   check (a baseline, or a personal team still to be created)
 * @param phaseName the phase, for the message
 * @throws QuotaExceededError (429) when one more run would go over a limit
 */
export function assertUploadQuota(plan: Pick<UploadPlan, "team">, quota: QuotaStatus | null, phaseName: string): void {
  if (quota && plan.team) assertQuotaLeft(quota, plan.team.name, phaseName);
}

/** A run file's document check, for {@link combineDocumentChecks}. */
export interface FileDocumentCheck {
  /** the file's dataset */
  dataset: Pick<DatasetView, "name">;
  /** the file's name (inside the archive, or the plain file's) */
  fileName: string;
  /** its check against the dataset's active gold key, or null when not checked (no gold key) */
  check: DocumentCheck | null;
}

/** What {@link combineDocumentChecks} found: the combined check and the label naming what was checked, for its message. */
export interface RunFilesCheck {
  /** every dataset's warnings together (counts summed); null when no dataset had a gold key to check against */
  check: DocumentCheck | null;
  /** e.g. "system.conll", "main.conll in run.zip", "run.zip (datasets en_gum, cs_pdt)" */
  label: string;
}

/**
 * Combines the document checks of a run's files (in the datasets' order) into one: warnings
 * of all datasets together, each message prefixed with "dataset <name>: " on a phase with
 * several datasets, counts summed; each dataset the archive left out adds a `missing-dataset`
 * warning (`missingDatasets`), gold key or not.
 *
 * @param files each file's check (null: not checked)
 * @param missing the datasets the archive left out
 * @param uploadName the upload's cleaned name (the archive's, or the plain file's)
 * @param archive whether the upload was an archive
 * @param several whether the phase has several datasets
 * @returns the combined {@link DocumentCheck} (null when nothing was checked) and a label
 *   naming the upload (and the datasets with warnings) for `enforceDocumentCheck`'s message
 */
export function combineDocumentChecks(
  files: readonly FileDocumentCheck[],
  missing: readonly Pick<DatasetView, "name" | "fileName">[],
  uploadName: string,
  archive: boolean,
  several: boolean,
): RunFilesCheck {
  let checked = false;
  const combined: DocumentCheck = { warnings: [], unmatched: 0, missing: 0 };
  const withWarnings: string[] = [];
  for (const { dataset, check } of files) {
    if (!check) continue;
    checked = true;
    if (check.warnings.length > 0) withWarnings.push(dataset.name);
    combined.unmatched += check.unmatched;
    combined.missing += check.missing;
    for (const w of check.warnings) combined.warnings.push(several ? { ...w, message: `dataset ${dataset.name}: ${w.message}` } : w);
  }
  // Datasets the archive leaves out: warnings too (issue 24 §1), under the same policy.
  if (missing.length > 0) {
    checked = true;
    combined.missingDatasets = missing.map((d) => d.name);
    combined.warnings.push(...missingDatasetWarnings(missing, uploadName));
  }
  let label = uploadName;
  if (several) label = `${uploadName} (dataset${withWarnings.length === 1 ? "" : "s"} ${withWarnings.join(", ")})`;
  else if (archive) label = `${files[0].fileName} in ${uploadName}`;
  return { check: checked ? combined : null, label };
}
