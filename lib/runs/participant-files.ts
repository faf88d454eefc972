/**
 * Participant files (issue 24 §3): per dataset of a phase, a blind test input (the gold key
 * without its coreference, `scoring/formats/blind.ts`, or a file the organizers uploaded),
 * and per phase a sample submission made of them.
 *
 * - Organizers (and site admins) derive a dataset's blind input from its active gold key
 *   ({@link deriveBlindInput}) or upload one ({@link uploadBlindInput}); it is stored as gold
 *   keys are (`lib/storage.ts`: gzip, sha256, size) in `blind_inputs`, one per dataset, and
 *   replacing it overwrites it.
 * - Who may download: the task's organizers and site admins always; anyone else who may see
 *   the task (anonymous readers of a published or archived task included) once the phase has
 *   opened. A draft task's phase is unknown (404) to everyone else, as elsewhere.
 * - The sample submission ({@link sampleSubmission}) is what a run of the phase is uploaded
 *   as: for one dataset, its blind input under the dataset's file name; for several, a
 *   `.tar.gz` (the run upload accepts `.zip`, `.tar.gz` and `.tgz`; the web server writes
 *   tar with tar-stream, `lib/uploads/archive.ts`, its zip library being a test-only dependency)
 *   holding each dataset's blind input under the dataset's `fileName`, the names the upload
 *   pairs archive members with (`pairArchiveFiles`). Each file is a valid response that
 *   predicts no mention, so the sample scores (0) on every dataset.
 * Gold content never leaves through these functions: only blind inputs are read back.
 */
import { writeTarGz, assertUploadSize, cleanFileName, datasetFormatMismatch, readUpload } from "../uploads";
import { ForbiddenError, NotFoundError, ValidationError } from "../errors";
import { assertCanManageTask, taskStanding, type Viewer } from "../permissions";
import { packFileAsync, sha256Hex, unpackFile, unpackFileAsync } from "../storage";
import { formatUtc } from "../validations/time";
import { blindInput, type BlindOptions } from "../../scoring/formats/blind";
import { FormatError } from "../../scoring/types";
import { defaultDb, type Db } from "../db";
import { cachedBoardPart } from "../boards";
import { DATASET_ORDER, DATASET_SELECT, findDataset, toDatasetView, type DatasetView, findActiveGoldKeys, loadPhase, type PhaseWithTask } from "../tasks";

/** What anyone allowed sees of a dataset's blind input (never gold metadata). */
export interface BlindInputMeta {
  /** "derived" from the active gold key, or "uploaded" by an organizer */
  source: "derived" | "uploaded";
  /** the file name it downloads as: the dataset's `fileName` */
  fileName: string;
  /** lower-case hex sha256 of the file */
  sha256: string;
  /** bytes */
  size: number;
  /** the derivation's choices (CorefUD), {} for an uploaded file */
  options: BlindOptions;
  createdAt: Date;
}

/** A dataset of the phase with its blind input, if it has one. */
export interface DatasetParticipantFiles {
  dataset: DatasetView;
  blind: BlindInputMeta | null;
}

/** The participant files of a phase as a viewer may see them. */
export interface PhaseParticipantFiles {
  /** whether the viewer may download them now (the phase has opened, or the viewer organizes the task) */
  available: boolean;
  /** when they become available to participants (the phase's opening) */
  opensAt: Date;
  datasets: DatasetParticipantFiles[];
  /** whether every dataset has a blind input, so the sample submission can be made */
  sampleReady: boolean;
  /** the sample submission's file name (the dataset's file, or the archive's) */
  sampleFileName: string;
}

const BLIND_SELECT = { datasetId: true, source: true, sha256: true, size: true, options: true, createdAt: true } as const;

/**
 * Checks that the viewer may download the phase's participant files now.
 *
 * @returns whether the viewer organizes the task
 * @throws NotFoundError (404) for a draft task's phase to anyone but its organizers and site
 *   admins; ForbiddenError (403) before the phase opens, naming the opening time (UTC)
 */
async function assertMayDownload(viewer: Viewer, phase: PhaseWithTask, now: Date, db: Db): Promise<boolean> {
  const standing = await taskStanding(viewer, phase.taskId, db, viewer ? undefined : phase.task);
  if (standing.isOrganizer) return true;
  if (standing.hiddenDraft) throw new NotFoundError("No such phase.");
  if (now < phase.opensAt) throw new ForbiddenError(`The participant files of the ${phase.name} phase are available once it opens, at ${formatUtc(phase.opensAt)}.`);
  return false;
}

/** The sample submission's name: the dataset's file, or `<task slug>-<phase>-sample-submission.tar.gz`. */
function sampleName(phase: PhaseWithTask, datasets: readonly DatasetView[]): string {
  if (datasets.length === 1) return datasets[0].fileName;
  return `${phase.task.slug}-${phase.name}-sample-submission.tar.gz`.replace(/[^\w.-]+/g, "_");
}

function toMeta(dataset: DatasetView, row: { source: string; sha256: string; size: number; options: unknown; createdAt: Date }): BlindInputMeta {
  return {
    source: row.source === "uploaded" ? "uploaded" : "derived",
    fileName: dataset.fileName,
    sha256: row.sha256,
    size: row.size,
    options: (row.options ?? {}) as BlindOptions,
    createdAt: row.createdAt,
  };
}

async function phaseDatasets(phaseId: string, db: Db): Promise<DatasetView[]> {
  return (await db.dataset.findMany({ where: { phaseId }, orderBy: DATASET_ORDER, select: DATASET_SELECT })).map(toDatasetView);
}

/**
 * The participant files of a phase, per dataset (for the task, submit and console pages).
 *
 * @param viewer the viewer (null = anonymous)
 * @param phaseId the phase
 * @param now the time (default: now)
 * @returns the datasets in order with their blind inputs' metadata; `available` false before
 *   the phase opens (for anyone but organizers), when the files cannot be downloaded yet
 * @throws NotFoundError (404) for an unknown phase, and for a draft task's phase to anyone but
 *   its organizers and site admins
 */
export async function listParticipantFiles(viewer: Viewer, phaseId: string, now: Date = new Date()): Promise<PhaseParticipantFiles> {
  const db = defaultDb();
  const phase = await loadPhase(phaseId, db);
  let available = true;
  try {
    await assertMayDownload(viewer, phase, now, db);
  } catch (error) {
    if (!(error instanceof ForbiddenError)) throw error;
    available = false;
  }
  const datasets = await phaseDatasets(phase.id, db);
  const rows = await db.blindInput.findMany({ where: { phaseId: phase.id }, select: BLIND_SELECT });
  const byDataset = new Map(rows.map((r) => [r.datasetId, r]));
  const files = datasets.map((dataset) => {
    const row = byDataset.get(dataset.id);
    return { dataset, blind: row ? toMeta(dataset, row) : null };
  });
  return { available, opensAt: phase.opensAt, datasets: files, sampleReady: files.length > 0 && files.every((f) => f.blind !== null), sampleFileName: sampleName(phase, datasets) };
}

/** Stores a dataset's blind input (replacing the one it had). */
async function storeBlind(
  db: Db,
  phaseId: string,
  dataset: DatasetView,
  text: Uint8Array,
  fields: { source: "derived" | "uploaded"; goldVersion: number | null; options: BlindOptions; createdById: string },
): Promise<BlindInputMeta> {
  const stored = await packFileAsync(text);
  const data = { ...fields, options: { ...fields.options }, sha256: stored.sha256, gzip: stored.gzip, size: stored.size, createdAt: new Date() };
  const row = await db.blindInput.upsert({
    where: { datasetId: dataset.id },
    create: { phaseId, datasetId: dataset.id, ...data },
    update: data,
    select: BLIND_SELECT,
  });
  return toMeta(dataset, row);
}

/**
 * Reads the organizer's derivation choices.
 *
 * @param input `{emptyNodes?: "keep"|"drop", dropEntityDeclaration?: boolean}` (form values "true"/"on" count as true)
 * @throws ValidationError (422, field `emptyNodes`) for another `emptyNodes`
 */
export function parseBlindOptions(input: { emptyNodes?: unknown; dropEntityDeclaration?: unknown }): BlindOptions {
  const empty = input.emptyNodes ?? "keep";
  if (empty !== "keep" && empty !== "drop") throw ValidationError.field("emptyNodes", `emptyNodes must be "keep" or "drop", not ${JSON.stringify(empty)}.`);
  const drop = input.dropEntityDeclaration;
  return { emptyNodes: empty, dropEntityDeclaration: drop === true || drop === "true" || drop === "on" };
}

/**
 * Derives a dataset's blind input from its active gold key and stores it (replacing the one
 * it had). Organizers and site admins only.
 *
 * @param actor the organizer
 * @param phaseId the phase
 * @param datasetRef the dataset's id or name
 * @param options CorefUD: which empty nodes and declarations to keep (ignored for CoNLL-2012)
 * @returns the stored blind input's metadata
 * @throws NotFoundError (404) unknown phase, or a draft task's to a non-organizer;
 *   UnauthorizedError (401) anonymous; ForbiddenError (403) not an organizer; ValidationError (422) unknown dataset (field `dataset`), or the dataset has no active gold
 *   key; nothing is stored then
 */
export async function deriveBlindInput(actor: Viewer, phaseId: string, datasetRef: string, options: BlindOptions = {}): Promise<BlindInputMeta> {
  const db = defaultDb();
  const phase = await loadPhase(phaseId, db);
  const organizer = await assertCanManageTask(actor, phase.taskId, db, "No such phase.");
  const dataset = findDataset(await phaseDatasets(phase.id, db), datasetRef);
  const [gold] = await findActiveGoldKeys(phase.id, db, [dataset.id]);
  if (!gold) throw ValidationError.field("dataset", `The dataset ${dataset.name} has no active gold key yet: upload one first, then derive its blind input.`);
  const key = unpackFile(gold.gzip, gold.sha256);
  const chosen: BlindOptions = dataset.format === "conllu" ? { emptyNodes: options.emptyNodes ?? "keep", dropEntityDeclaration: options.dropEntityDeclaration ?? false } : {};
  let text: string;
  try {
    text = blindInput(key, dataset.format, gold.fileName, chosen);
  } catch (error) {
    // The key was checked at upload; a key the reader now refuses is reported, not stored.
    if (error instanceof FormatError) throw ValidationError.field("dataset", `The gold key of ${dataset.name} does not read: ${error.message}`);
    throw error;
  }
  return storeBlind(db, phase.id, dataset, new TextEncoder().encode(text), { source: "derived", goldVersion: gold.version, options: chosen, createdById: organizer.userId });
}

/**
 * Stores an uploaded file as a dataset's blind input (replacing the one it had). Organizers
 * and site admins only. The file must be of the dataset's format, read as a coreference file
 * and hold no coreference (no mention; for CorefUD, no `Entity=`, `Bridge=` or `SplitAnte=`):
 * a gold key uploaded here by mistake is refused.
 *
 * @param actor the organizer
 * @param phaseId the phase
 * @param datasetRef the dataset's id or name
 * @param fileName the uploaded file's name (its extension must fit the dataset's format)
 * @param bytes the file
 * @returns the stored blind input's metadata
 * @throws NotFoundError (404) unknown phase (or a draft's, to a non-organizer);
 *   UnauthorizedError (401) anonymous; ForbiddenError (403) not an organizer; TooLargeError (413) over the
 *   upload cap; ValidationError (422): unknown dataset, another format, a file that does not
 *   read, a file with coreference; ServiceBusyError (503) when the upload pool is full.
 *   Every refusal stores nothing.
 */
export async function uploadBlindInput(actor: Viewer, phaseId: string, datasetRef: string, fileName: string, bytes: Uint8Array): Promise<BlindInputMeta> {
  const db = defaultDb();
  const phase = await loadPhase(phaseId, db);
  const organizer = await assertCanManageTask(actor, phase.taskId, db, "No such phase.");
  const dataset = findDataset(await phaseDatasets(phase.id, db), datasetRef);
  assertUploadSize(bytes.byteLength);
  const name = cleanFileName(fileName);
  const mismatch = datasetFormatMismatch(name, dataset.format);
  if (mismatch) throw ValidationError.field("file", `${name}: ${mismatch}`);
  // Read, counted and searched for CorefUD coreference items in the upload pool's thread, off the event loop.
  const { stats, corefudCoreference } = await readUpload(bytes, name, undefined, { corefudCoreference: dataset.format === "conllu" });
  if (stats.mentions > 0 || corefudCoreference.length > 0) {
    const what = [stats.mentions > 0 ? `${stats.mentions} mentions` : "", corefudCoreference.length > 0 ? `${corefudCoreference.join(", ")} in MISC` : ""].filter(Boolean).join("; ");
    throw ValidationError.field("file", `${name} holds coreference annotation (${what}); a blind input holds none. Derive it from the gold key instead, or remove the annotation.`);
  }
  return storeBlind(db, phase.id, dataset, bytes, { source: "uploaded", goldVersion: null, options: {}, createdById: organizer.userId });
}

/** A file to download. */
export interface DownloadFile {
  fileName: string;
  bytes: Uint8Array;
  /** lower-case hex sha256 of `bytes` */
  sha256: string;
  contentType: string;
}

/**
 * A dataset's blind input, for download.
 *
 * @param viewer the viewer (null = anonymous)
 * @param phaseId the phase
 * @param datasetRef the dataset's id or name
 * @param now the time (default: now)
 * @returns the file under the dataset's `fileName`
 * @throws NotFoundError (404) unknown phase or dataset, a draft task's phase (to anyone but its
 *   organizers), or a dataset without a blind input; ForbiddenError (403) before the phase opens
 */
export async function readBlindInput(viewer: Viewer, phaseId: string, datasetRef: string, now: Date = new Date()): Promise<DownloadFile> {
  const db = defaultDb();
  const phase = await loadPhase(phaseId, db);
  await assertMayDownload(viewer, phase, now, db);
  const datasets = await phaseDatasets(phase.id, db);
  let dataset: DatasetView;
  try {
    dataset = findDataset(datasets, datasetRef);
  } catch (error) {
    if (error instanceof ValidationError) throw new NotFoundError(error.message);
    throw error;
  }
  const row = await db.blindInput.findUnique({ where: { datasetId: dataset.id }, select: { gzip: true, sha256: true } });
  if (!row) throw new NotFoundError(`The dataset ${dataset.name} has no blind input yet.`);
  // Unpacked and checked once per content and process, as the sample submission is, rather
  // than on every download (anonymous ones included).
  const bytes = await cachedBoardPart(`blind-input:${row.sha256}`, () => unpackFileAsync(row.gzip, row.sha256));
  return { fileName: dataset.fileName, bytes, sha256: row.sha256, contentType: "text/plain; charset=utf-8" };
}

/**
 * The phase's sample submission (see the module comment): a valid run that predicts nothing.
 *
 * @param viewer the viewer (null = anonymous)
 * @param phaseId the phase
 * @param now the time (default: now)
 * @returns one dataset: its blind input under the dataset's file name; several: a `.tar.gz`
 *   with each dataset's blind input under its `fileName`
 * @throws NotFoundError (404) unknown phase, a draft task's phase (to anyone but its
 *   organizers), or a dataset without a blind input (the message names them);
 *   ForbiddenError (403) before the phase opens
 */
export async function sampleSubmission(viewer: Viewer, phaseId: string, now: Date = new Date()): Promise<DownloadFile> {
  const db = defaultDb();
  const phase = await loadPhase(phaseId, db);
  await assertMayDownload(viewer, phase, now, db);
  const datasets = await phaseDatasets(phase.id, db);
  const rows = await db.blindInput.findMany({ where: { phaseId: phase.id }, select: { datasetId: true, sha256: true } });
  const shaOf = new Map(rows.map((r) => [r.datasetId, r.sha256]));
  const missing = datasets.filter((d) => !shaOf.has(d.id));
  if (missing.length > 0) throw new NotFoundError(`The sample submission is not ready: no blind input yet for ${missing.map((d) => d.name).join(", ")}.`);
  const fileName = sampleName(phase, datasets);
  // Kept by content (each file's name and sha256), so that repeated downloads, anonymous ones
  // included, read and pack the blind inputs once per process rather than once per request.
  const key = `sample-submission:${JSON.stringify(datasets.map((d) => [d.fileName, shaOf.get(d.id)]))}`;
  const packed = await cachedBoardPart(key, async () => {
    const stored = await db.blindInput.findMany({ where: { phaseId: phase.id }, select: { datasetId: true, gzip: true, sha256: true } });
    const byDataset = new Map(stored.map((r) => [r.datasetId, r]));
    const files = await Promise.all(datasets.map(async (d) => ({ path: d.fileName, bytes: await unpackFileAsync(byDataset.get(d.id)!.gzip, byDataset.get(d.id)!.sha256) })));
    if (files.length === 1) return { bytes: files[0].bytes, sha256: byDataset.get(datasets[0].id)!.sha256, contentType: "text/plain; charset=utf-8" };
    const bytes = await writeTarGz(files);
    return { bytes, sha256: sha256Hex(bytes), contentType: "application/gzip" };
  });
  return { fileName, ...packed };
}
