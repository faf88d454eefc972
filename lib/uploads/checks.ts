/**
 * Checks shared by every upload (submissions and gold keys): the size limit, the file name,
 * and reading the file with the scorer's readers and input limits (documents, tokens and
 * mentions per document) in a worker-thread pool (`lib/upload-pool/`), never on the web
 * server's event loop, with a time limit, a memory limit and a bounded waiting line.
 *
 * Callers check everything cheap first (permissions, phase window, quota, size), then call
 * {@link validateUpload} (or {@link readUpload}), then store: a refused file stores nothing
 * and counts nothing.
 *
 * Runs are also checked against the phase's active gold key before they count (issue 10 §2,
 * {@link checkRunDocuments}): each response document that matches no key document, and each
 * key document missing from the run, gives a warning. Documents are matched by `Document.id`,
 * as the scorer matches them (`scoring/evaluate.ts`): the name, plus `/part N` for CoNLL-2012
 * parts (`part 0` and `part 000` match). The warnings name only the documents involved, at
 * most {@link DOCUMENT_WARNINGS_SHOWN} of each kind; the gold key's content never leaves the
 * upload thread (only its document ids, cached by sha256 in the pool).
 */
import { loadEnv } from "../env";
import { formatMegabytes } from "../units";
import { ConflictError, ServiceBusyError, TooLargeError, ValidationError, type DomainError } from "../errors";
import type { Warning } from "../../scoring/types";
import { fileFormatOf, type DatasetFormatName } from "../validations/dataset";
import { BUSY_RETRY_AFTER_SECONDS, sharedUploadPool, type GoldSource, type UploadAnswer, type UploadPool } from "../upload-pool/pool";
import type { UploadStats } from "../upload-pool/stats";
import type { RunDocument } from "../upload-pool/thread";

export type { UploadStats } from "../upload-pool/stats";
export type { RunDocument } from "../upload-pool/thread";
export type { GoldSource, StoredGoldFile } from "../upload-pool/pool";
export type { Warning } from "../../scoring/types";


/**
 * The largest accepted upload in bytes (UPLOAD_MAX_BYTES, uncompressed; read from the
 * environment on each call).
 *
 * @throws EnvError when the environment is invalid
 */
export function uploadLimitBytes(): number {
  return loadEnv().UPLOAD_MAX_BYTES;
}

/** How many times the upload cap an archive's files may hold in total once decompressed (issue 10 §2: a zip bomb is refused). */
export const ARCHIVE_EXPANSION_FACTOR = 10;

/**
 * The most an uploaded archive's files (a run's or a gold key's) may hold in total once
 * decompressed, in bytes: {@link ARCHIVE_EXPANSION_FACTOR} × {@link uploadLimitBytes}.
 */
export function archiveLimitBytes(): number {
  return ARCHIVE_EXPANSION_FACTOR * uploadLimitBytes();
}


/**
 * Throws when an upload is over the limit.
 *
 * @param size the upload's size in bytes (uncompressed)
 * @param maxBytes the limit in bytes (default: {@link uploadLimitBytes})
 * @throws TooLargeError (413) whose message states both sizes in MB
 */
export function assertUploadSize(size: number, maxBytes: number = uploadLimitBytes()): void {
  if (size <= maxBytes) return;
  throw new TooLargeError(`The file is ${formatMegabytes(size)}; the largest accepted file is ${formatMegabytes(maxBytes)}.`, { maxBytes, size });
}

/**
 * The name to store for an uploaded file: its last path component, without control
 * characters, at most 200 characters.
 *
 * @throws ValidationError (422, field `file`) when nothing is left
 */
export function cleanFileName(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? "";
  const cleaned = base.replace(/[\p{Cc}\p{Cf}]/gu, "").trim().slice(-200);
  if (!cleaned) throw ValidationError.field("file", "The file needs a name, e.g. system.conll.");
  return cleaned;
}

/**
 * Whether a file's extension fits a dataset's format (`fileFormatOf`, the rule the reader's
 * `detectFormat` applies to `.conllu`): a `conllu` dataset takes `.conllu` files; a `conll2012` dataset takes the
 * CoNLL-2012 extensions (`.conll`, `.v4_gold_conll`, …, or none) and JSON lines (`.jsonl`,
 * `.jsonlines`, `.json`), which hold the same spans. Pure.
 *
 * @param fileName the file's name (e.g. the name inside a run's archive)
 * @param format the dataset's format
 * @returns null when it fits, else a sentence saying which files the dataset takes
 */
export function datasetFormatMismatch(fileName: string, format: DatasetFormatName): string | null {
  if (fileFormatOf(fileName) === format) return null;
  return format === "conllu"
    ? `the dataset is CorefUD CoNLL-U, so its file must end in .conllu.`
    : `the dataset is CoNLL-2012, so its file must be a CoNLL-2012 file (.conll, .v4_gold_conll, …) or JSON lines (.jsonl), not .conllu.`;
}

/**
 * Reads and checks an uploaded coreference file in a pool thread (format from the file
 * extension, see `detectFormat`) and returns its counts, never the corpus.
 *
 * @param bytes the file (copied to the thread; `bytes` stays usable)
 * @param fileName its cleaned name ({@link cleanFileName})
 * @param pool the pool to use (default: the process-wide pool, started on the first upload)
 * @returns `{documents, tokens, mentions, entities, singletons, warnings}` (whole numbers)
 * @throws ValidationError (422) with `formatErrors` = [the FormatError's JSON: file, line,
 *   column, expected, found, message] when the file cannot be read; with a field error on
 *   `file` when it holds no document, takes longer than UPLOAD_VALIDATION_TIMEOUT_MS to read
 *   ("The file took longer than 30 s to read…") or needs more than
 *   UPLOAD_VALIDATION_MAX_MEMORY_MB ("Reading the file needs more than 1024 MB…");
 *   ServiceBusyError (503, `retryAfterSeconds`) when the pool's threads and waiting line are
 *   full; EnvError for an invalid environment; Error (500) when a thread cannot start
 */
export async function validateUpload(bytes: Uint8Array, fileName: string, pool: UploadPool = sharedUploadPool()): Promise<UploadStats> {
  return (await readUpload(bytes, fileName, pool)).stats;
}

/**
 * What {@link readUpload} gives: the file's counts, its documents (id and first line, in file
 * order), and, when asked, for a CorefUD file the coreference items its MISC column holds
 * (`Entity`, `Bridge`, `SplitAnte`; empty otherwise), found in the pool thread.
 */
export interface ReadUpload {
  stats: UploadStats;
  documents: RunDocument[];
  corefudCoreference: string[];
}

/**
 * {@link validateUpload}, also answering the file's documents for the document check
 * ({@link checkRunDocuments}), and with `corefudCoreference` the CorefUD coreference items of
 * a `.conllu` file's MISC column (a blind input's check: one more pass over the file, so only
 * when asked).
 *
 * @returns `{stats, documents: [{id, line}], corefudCoreference}`
 * @throws as {@link validateUpload}
 */
export async function readUpload(bytes: Uint8Array, fileName: string, pool: UploadPool = sharedUploadPool(), options: { corefudCoreference?: boolean } = {}): Promise<ReadUpload> {
  return readOrError(await pool.validate(bytes, fileName, options), fileName);
}

/** The counts and documents of the pool's answer, or the error it stands for (made here, in the caller's copy of the error classes: see `lib/upload-pool/pool.ts`). */
function readOrError(answer: UploadAnswer, fileName: string): ReadUpload {
  const tooBig = "Please check that it is a coreference file of the expected format, not much larger than the data set.";
  switch (answer.kind) {
    case "stats":
      return { stats: answer.stats, documents: answer.documents, corefudCoreference: answer.corefudCoreference };
    case "format":
      throw new ValidationError(`The file could not be read: ${answer.problem.message}`, { formatErrors: [answer.problem] });
    case "empty":
      throw ValidationError.field("file", `${fileName} holds no document. Please check that it is a CoNLL-2012, CorefUD or JSON-lines file.`);
    case "busy":
      throw busyError();
    case "timeout":
      throw ValidationError.field("file", `The file took longer than ${seconds(answer.timeoutMs)} to read, so reading it was stopped. ${tooBig}`);
    case "memory":
      throw ValidationError.field("file", `Reading the file needs more than ${answer.maxMemoryMb} MB of memory, so reading it was stopped. ${tooBig}`);
    case "internal":
      throw new Error(`upload check of ${fileName}: a reader failed: ${answer.message}`);
  }
}

/** Seconds for messages: "30 s", "0.5 s", "1.25 s". */
function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(ms < 1000 ? 3 : 2))} s`;
}

/** The 503 of a full upload pool. */
function busyError(): ServiceBusyError {
  return new ServiceBusyError("Too many uploads are being checked right now; please try again in a minute.", { retryAfterSeconds: BUSY_RETRY_AFTER_SECONDS });
}

/** How many warnings of each kind (documents not in the key, key documents not in the run) are listed before "… and N more". */
export const DOCUMENT_WARNINGS_SHOWN = 20;

/** How a phase treats a run whose documents do not match the gold key's (`phases.document_check`). */
export type DocumentCheckMode = "warn" | "error";

/**
 * A run's documents compared with the gold key's.
 *
 * `warnings` are scorer-style {@link Warning}s (`scoring/types.ts`), with the scorer's codes:
 * `response-only-document` (file, line and document set) for a run document that matches no
 * key document, `missing-document` (document set) for a key document not in the run; at most
 * {@link DOCUMENT_WARNINGS_SHOWN} of each kind, then one warning of that code without
 * `document` saying how many more there are. `unmatched` and `missing` are the full counts.
 */
export interface DocumentCheck {
  warnings: Warning[];
  unmatched: number;
  missing: number;
  /**
   * the names of the phase's datasets an archive has no file for (issue 24 §1; they would
   * count 0 in the macro-average), each also a `missing-dataset` warning; absent or empty when
   * none is left out
   */
  missingDatasets?: string[];
}

/**
 * The `missing-dataset` warnings of an archive that leaves datasets out (each would count 0 in
 * the phase's macro-average), one per dataset in the phase's order. Pure.
 *
 * @param missing the datasets left out: name and the file name the archive should hold
 * @param archiveName the archive's name, for the messages
 */
export function missingDatasetWarnings(missing: readonly { name: string; fileName: string }[], archiveName: string): Warning[] {
  return missing.map((d) => ({
    code: "missing-dataset",
    message: `dataset ${d.name}: ${archiveName} has no file "${d.fileName}"; the dataset will count as 0 in the average`,
    file: archiveName,
  }));
}

/**
 * Compares a run's documents with a gold key's document ids (by `Document.id`, as the scorer
 * matches them). Pure.
 *
 * @param run the run's documents in file order ({@link readUpload}); a repeated id counts once
 * @param goldIds the gold key's document ids in key order
 * @param fileName the run's file name, for the warnings
 * @param shown how many warnings of each kind to list (default {@link DOCUMENT_WARNINGS_SHOWN})
 * @returns the {@link DocumentCheck}; no warnings when every id matches both ways
 */
export function compareDocuments(run: readonly RunDocument[], goldIds: readonly string[], fileName: string, shown: number = DOCUMENT_WARNINGS_SHOWN): DocumentCheck {
  const inKey = new Set(goldIds);
  const inRun = new Set<string>();
  const unmatched: RunDocument[] = [];
  for (const doc of run) {
    if (inRun.has(doc.id)) continue;
    inRun.add(doc.id);
    if (!inKey.has(doc.id)) unmatched.push(doc);
  }
  const missing = [...inKey].filter((id) => !inRun.has(id));
  const warnings: Warning[] = unmatched.slice(0, shown).map((doc) => ({
    code: "response-only-document",
    message: `response document "${doc.id}" (line ${doc.line}) is not in the gold key; it will be ignored`,
    file: fileName,
    line: doc.line,
    document: doc.id,
  }));
  if (unmatched.length > shown) {
    const more = unmatched.length - shown;
    warnings.push({ code: "response-only-document", message: `… and ${more} more response document${more === 1 ? " is" : "s are"} not in the gold key`, file: fileName });
  }
  for (const id of missing.slice(0, shown)) {
    warnings.push({ code: "missing-document", message: `key document "${id}" is not in the run; it will be scored as empty`, document: id });
  }
  if (missing.length > shown) {
    const more = missing.length - shown;
    warnings.push({ code: "missing-document", message: `… and ${more} more key document${more === 1 ? " is" : "s are"} not in the run` });
  }
  return { warnings, unmatched: unmatched.length, missing: missing.length };
}

/**
 * Checks a run's documents against the phase's active gold key. The key's document ids are
 * read in an upload-pool thread and cached by the key's sha256 ({@link UploadPool.goldDocumentIds}).
 *
 * @param documents the run's documents ({@link readUpload})
 * @param fileName the run's cleaned file name
 * @param gold the active gold key's sha256 and loader, or null when the phase has none
 * @param pool the pool to use (default: the process-wide pool)
 * @returns the {@link DocumentCheck}, or null when there is nothing to check against: no
 *   active gold key, or one that cannot be read (logged without its content; the scorer
 *   reports it to the organizers when it scores)
 * @throws ServiceBusyError (503) when the pool's waiting line is full; Error (500) when a
 *   thread cannot start
 */
export async function checkRunDocuments(
  documents: readonly RunDocument[],
  fileName: string,
  gold: GoldSource | null,
  pool: UploadPool = sharedUploadPool(),
): Promise<DocumentCheck | null> {
  if (!gold) return null;
  const answer = await pool.goldDocumentIds(gold);
  switch (answer.kind) {
    case "gold-ids":
      return compareDocuments(documents, answer.ids, fileName);
    case "none":
      return null;
    case "busy":
      throw busyError();
    case "unreadable":
      console.error(`upload document check: gold key ${gold.sha256.slice(0, 12)} could not be read (${answer.reason}); the run is not checked`);
      return null;
  }
}

/** What does not match, in counts: the documents (with `fileName`), then the datasets left out (of `uploadName`). */
function mismatchSummary(check: DocumentCheck, fileName: string, uploadName: string): string {
  const sentences: string[] = [];
  const parts: string[] = [];
  if (check.unmatched > 0) parts.push(`${check.unmatched} document${check.unmatched === 1 ? " of the run is" : "s of the run are"} not in the gold key`);
  if (check.missing > 0) parts.push(`${check.missing} key document${check.missing === 1 ? " is" : "s are"} not in the run`);
  if (parts.length > 0) sentences.push(`The document names of ${fileName} do not match the gold key: ${parts.join(" and ")}.`);
  const left = check.missingDatasets ?? [];
  if (left.length > 0) {
    sentences.push(`${uploadName} has no file for dataset${left.length === 1 ? "" : "s"} ${left.join(", ")}, which would count as 0 in the average.`);
  }
  return sentences.join(" ");
}

/** What to fix, for the "error" mode's message. */
function mismatchFix(check: DocumentCheck): string {
  const fixes: string[] = [];
  if (check.unmatched > 0 || check.missing > 0) fixes.push("name the documents as in the gold key");
  if ((check.missingDatasets ?? []).length > 0) fixes.push("include a file for every dataset");
  return fixes.join(", ");
}

/**
 * 422 of a run whose documents do not match the gold key on a phase that refuses such runs
 * (`documentCheck` "error"): a ValidationError with a field error on `file`, whose JSON body
 * also lists the {@link DocumentCheck}'s `warnings`, `unmatched` and `missing`.
 */
export class DocumentMismatchError extends ValidationError {
  constructor(
    message: string,
    readonly check: DocumentCheck,
  ) {
    super(message, { fieldErrors: [{ path: "file", message }] });
  }

  override toJSON(): ReturnType<DomainError["toJSON"]> {
    const body = super.toJSON();
    body.error.warnings = this.check.warnings;
    body.error.unmatched = this.check.unmatched;
    body.error.missing = this.check.missing;
    body.error.missingDatasets = this.check.missingDatasets ?? [];
    return body;
  }
}

/** The form field (API and web form) that confirms an upload despite document warnings (and datasets left out). */
export const ACKNOWLEDGE_WARNINGS_FIELD = "acknowledgeWarnings";

/**
 * Applies a phase's document check setting to a run's {@link DocumentCheck}: returns when
 * the run may be stored, throws otherwise (nothing is stored then and nothing counted). A
 * dataset left out of an archive (`missingDatasets`) is treated like a missing document: the
 * same policy, the same confirmation.
 *
 * @param check the comparison (null: nothing to check against)
 * @param mode the phase's `documentCheck`: "error" refuses mismatching runs; "warn" (and any
 *   other value) asks for confirmation first
 * @param acknowledged whether the upload confirmed the warnings (`acknowledgeWarnings=true`)
 * @param fileName the run's file name (with the datasets whose documents differ), for the message
 * @param uploadName the upload's own name, for the sentence on datasets left out (default `fileName`)
 * @throws DocumentMismatchError (422, `warnings`, `unmatched`, `missing`, `missingDatasets`,
 *   field error on `file`) in "error" mode; ConflictError (409, `warnings`, `unmatched`,
 *   `missing`, `missingDatasets`, `acknowledgeWith: "acknowledgeWarnings=true"`) in "warn"
 *   mode without confirmation
 */
export function enforceDocumentCheck(check: DocumentCheck | null, mode: string, acknowledged: boolean, fileName: string, uploadName: string = fileName): void {
  if (!check || check.warnings.length === 0) return;
  const summary = mismatchSummary(check, fileName, uploadName);
  if (mode === "error") {
    throw new DocumentMismatchError(
      `${summary} This phase does not accept such runs: ${mismatchFix(check)} and upload again. Nothing was stored and no run was counted.`,
      check,
    );
  }
  if (acknowledged) return;
  throw new ConflictError(
    `${summary} Nothing was stored and no run was counted. To submit it anyway, send the upload again with ${ACKNOWLEDGE_WARNINGS_FIELD}=true.`,
    {
      warnings: check.warnings,
      unmatched: check.unmatched,
      missing: check.missing,
      missingDatasets: check.missingDatasets ?? [],
      acknowledgeWith: `${ACKNOWLEDGE_WARNINGS_FIELD}=true`,
    },
  );
}

/** The path of a phase's sample run archive (`GET /api/v1/phases/{phaseId}/sample-submission`), linked from refusals of a wrongly shaped upload. */
export function sampleSubmissionPath(phaseId: string): string {
  return `/api/v1/phases/${encodeURIComponent(phaseId)}/sample-submission`;
}

/** A dataset as the "what to upload" sentence names it. */
interface ExpectedDatasetFile {
  name: string;
  fileName: string;
}

/**
 * The first line of a refused upload's answer: what to upload, with the file names the
 * phase's datasets expect (at most 10 named, then "and N more"). Pure.
 *
 * @param datasets the phase's datasets in order (at least one)
 * @returns e.g. `Upload a .zip or .tar.gz archive with one file per dataset: en_a.conll, cs_b.conll.`
 *   (several datasets) or `Upload one coreference file, or a .zip or .tar.gz archive holding main.conll.` (one)
 */
export function uploadHowTo(datasets: readonly ExpectedDatasetFile[]): string {
  if (datasets.length === 1) return `Upload one coreference file, or a .zip or .tar.gz archive holding ${datasets[0].fileName}.`;
  const shown = datasets.slice(0, 10).map((d) => d.fileName);
  const more = datasets.length - shown.length;
  return `Upload a .zip or .tar.gz archive with one file per dataset: ${shown.join(", ")}${more > 0 ? ` and ${more} more` : ""}.`;
}

/**
 * 422 of an upload of the wrong shape (a plain file where an archive is needed, an archive
 * with unknown, misplaced or missing files, a file whose extension does not fit its dataset):
 * a short `message` saying what to upload ({@link uploadHowTo}), the full explanation in
 * `detail`, and `sampleUrl`, the phase's sample archive. The field error on `file` carries
 * the short message. JSON: `{error: {code: "validation", message, detail, sampleUrl, fieldErrors}}`.
 */
export class UploadShapeError extends ValidationError {
  constructor(
    howTo: string,
    readonly detail: string,
    readonly sampleUrl: string,
  ) {
    super(howTo, { fieldErrors: [{ path: "file", message: howTo }] });
  }

  override toJSON(): ReturnType<DomainError["toJSON"]> {
    const body = super.toJSON();
    body.error.detail = this.detail;
    body.error.sampleUrl = this.sampleUrl;
    return body;
  }
}
