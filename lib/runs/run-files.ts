/**
 * Reading a run upload's files (`createSubmission`'s file validation): a plain file or an
 * archive paired with the phase's datasets, each file read and checked in the upload pool
 * (`lib/upload-pool`, never on the event loop), and each file's documents checked against its
 * dataset's active gold key (the key's document ids are read in the pool too).
 */
import { ValidationError } from "../errors";
import type { Db } from "../db";
import { findActiveGoldKeys } from "../tasks";
import type { DatasetView } from "../tasks";
import { pairArchiveFiles, readArchive, archiveKind } from "../uploads";
import {
  archiveLimitBytes,
  checkRunDocuments,
  datasetFormatMismatch,
  readUpload,
  sampleSubmissionPath,
  uploadHowTo,
  UploadShapeError,
  type GoldSource,
  type RunDocument,
} from "../uploads";
import { combineDocumentChecks, type RunFilesCheck } from "./upload-checks";
import type { UploadContext } from "./upload-context";

/** One file of a run, read and checked, for the dataset it belongs to. */
export interface RunFile {
  dataset: DatasetView;
  /** the plain file's cleaned name, or the file's name inside the archive */
  fileName: string;
  bytes: Uint8Array;
  /** its documents (id, first line), for the document check */
  documents: RunDocument[];
}

/** The files of an upload: one per dataset it covers (in the datasets' order), and the datasets it leaves out. */
export interface RunFiles {
  /** true when the upload was an archive */
  archive: boolean;
  files: RunFile[];
  missing: DatasetView[];
}

/**
 * Runs `read` (reading or pairing an archive), turning its refusals (field errors on `file`
 * without format errors) into an {@link UploadShapeError}: what to upload first, the
 * refusal's own message as the detail.
 */
async function shapeRefusal<T>(datasets: readonly DatasetView[], phaseId: string, read: () => Promise<T> | T): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (!(error instanceof ValidationError) || error instanceof UploadShapeError || error.formatErrors.length > 0) throw error;
    throw new UploadShapeError(uploadHowTo(datasets), error.message, sampleSubmissionPath(phaseId));
  }
}

/**
 * Reads an upload's files and checks each in the upload pool (`readUpload`), one after the
 * other. A plain file (one-dataset phase only: see {@link assertUploadShape}) is the phase's
 * dataset's file, whatever its name. An archive is read in memory (`readArchive`, at most
 * `archiveLimitBytes()`, ten times the upload cap, uncompressed) and its files are paired with
 * the datasets by name (`pairArchiveFiles`); each file's extension must fit its dataset's
 * format, and a file that does not read is refused with its name inside the archive.
 *
 * @param bytes the upload
 * @param fileName its cleaned name (the extension tells a plain file from an archive)
 * @param datasets the phase's datasets in order (at least one)
 * @param phaseId the phase, for the sample archive's link in refusals
 * @returns the files (in the datasets' order) and the datasets left out
 * @throws UploadShapeError (422, a ValidationError: what to upload in `message`, the reason in
 *   `detail`, the sample archive in `sampleUrl`): a hostile or broken archive, unknown or
 *   duplicate files, no dataset file at all (from `lib/uploads/archive.ts`); a file whose extension
 *   does not fit its dataset's format (field `file`); ValidationError (422): a file that does not read (`formatErrors` whose `file` is
 *   the name inside the archive, with line and column; field errors for an empty file or a
 *   file over the reading time or memory limit; every message names the file, the archive
 *   and, on a phase with several datasets, the dataset); ServiceBusyError (503) when the
 *   upload pool is full; Error (500) for a phase without datasets (an invariant broken)
 */
export async function readRunFiles(bytes: Uint8Array, fileName: string, datasets: readonly DatasetView[], phaseId: string): Promise<RunFiles> {
  if (datasets.length === 0) throw new Error(`phase has no dataset (every phase has at least one): cannot store ${fileName}`);
  if (archiveKind(fileName) === null) {
    const { documents } = await readUpload(bytes, fileName);
    return { archive: false, files: [{ dataset: datasets[0], fileName, bytes, documents }], missing: [] };
  }
  const entries = await shapeRefusal(datasets, phaseId, () => readArchive(bytes, fileName, { maxTotalBytes: archiveLimitBytes() }));
  const paired = await shapeRefusal(datasets, phaseId, () => pairArchiveFiles(entries, datasets, fileName));
  const byId = new Map(datasets.map((d) => [d.id, d]));
  const order = new Map(datasets.map((d, i) => [d.id, i]));
  const several = datasets.length > 1;
  const files: RunFile[] = [];
  for (const { dataset: ref, entry } of paired.files) {
    const dataset = byId.get(ref.id)!;
    const where = several ? `${entry.name} (dataset ${dataset.name}) in ${fileName}` : `${entry.name} in ${fileName}`;
    const mismatch = datasetFormatMismatch(entry.name, dataset.format);
    if (mismatch) throw new UploadShapeError(uploadHowTo(datasets), `${where}: ${mismatch}`, sampleSubmissionPath(phaseId));
    let documents: RunDocument[];
    try {
      ({ documents } = await readUpload(entry.bytes, entry.name));
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      // The same problems, with the archive (and the dataset) named in every sentence.
      throw new ValidationError(`${where}: ${error.message}`, {
        formatErrors: error.formatErrors,
        fieldErrors: error.fieldErrors.map((f) => ({ ...f, message: `${where}: ${f.message}` })),
      });
    }
    files.push({ dataset, fileName: entry.name, bytes: entry.bytes, documents });
  }
  files.sort((a, b) => order.get(a.dataset.id)! - order.get(b.dataset.id)!);
  const missing = paired.missing.map((d) => byId.get(d.id)!).sort((a, b) => order.get(a.id)! - order.get(b.id)!);
  return { archive: true, files, missing };
}

/**
 * Checks each run file's documents against its dataset's active gold key
 * (`checkRunDocuments`, in the upload pool; the key's document ids are cached by sha256 there,
 * and the key is loaded with `findActiveGoldKeys` only on a cache miss), one file after the
 * other, and combines the results ({@link combineDocumentChecks}: on a phase with several
 * datasets every warning message starts with "dataset <name>: "; each dataset the archive
 * leaves out adds a `missing-dataset` warning). Datasets without an active gold key are not checked.
 *
 * @param upload the upload's files ({@link readRunFiles})
 * @param uploadName the upload's cleaned name (the archive's, or the plain file's)
 * @param context the upload's context (the phase, its datasets, their active gold keys)
 * @param db client
 * @returns the combined check (null when nothing was checked) and a label naming the upload
 *   (and the datasets with warnings) for `enforceDocumentCheck`'s message
 * @throws ServiceBusyError (503) when the upload pool is full
 */
export async function checkRunFiles(upload: RunFiles, uploadName: string, context: Pick<UploadContext, "phase" | "datasets" | "activeGold">, db: Db): Promise<RunFilesCheck> {
  const phaseId = context.phase.id;
  const checks = [];
  for (const file of upload.files) {
    const sha256 = context.activeGold.get(file.dataset.id);
    const source: GoldSource | null = sha256 ? { sha256, load: async () => (await findActiveGoldKeys(phaseId, db, [file.dataset.id]))[0] ?? null } : null;
    checks.push({ dataset: file.dataset, fileName: file.fileName, check: await checkRunDocuments(file.documents, file.fileName, source) });
  }
  return combineDocumentChecks(checks, upload.missing, uploadName, upload.archive, context.datasets.length > 1);
}
