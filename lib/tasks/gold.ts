/**
 * Gold keys: upload (organizers), version history (organizers), and the active key for the
 * scoring worker. Gold content is read only through {@link findActiveGold}, which is
 * server-internal: the worker (`lib/worker/scoring-job.ts`) scores with it, and the upload check
 * (`lib/runs/submissions.ts`) reads the key's document ids from it in the upload pool, where
 * only those ids leave the thread. Metadata (file name, sha256, stats) is organizer-only as well.
 *
 * Gold keys are per dataset (issue 10 §1): each dataset of a phase has its own versions 1, 2,
 * …, at most one of them active. A phase with one dataset takes a gold file as before datasets
 * existed; with several, a file names its dataset, or an archive holds one file per dataset
 * (`lib/uploads/archive.ts`), and one upload changes all of them in one transaction.
 */
import { archiveKind, pairArchiveFiles, readArchive, assertUploadSize, cleanFileName, archiveLimitBytes, validateUpload, type UploadStats } from "../uploads";
import { ConflictError, ValidationError } from "../errors";
import { goldFitsProfile, taskEvaluationProfile, type TaskEvaluationFields } from "./evaluation";
import { enqueueAfterCommit } from "../queue";
import { assertCanManageTask, type SignedInViewer, type Viewer } from "../permissions";
import { packFileAsync } from "../storage";
import { recordAudit } from "../audit";
import { defaultDb, lockKey, type Db, type GoldKey, type SubmissionStatus, type Tx } from "../db";
import { requeueSubmissions } from "../submission-states";
import { loadManagedPhase, loadPhase, type PhaseWithTask } from "./phases";
import { DATASET_FORMAT_LABELS, fileFormatOf, fileNameForFormat } from "../validations/dataset";
import { DATASET_ORDER, DATASET_SELECT, datasetChoices, findDataset, isDefaultDataset, listDatasets, toDatasetView, type DatasetFormat, type DatasetView } from "./datasets";

/**
 * Counts describing a gold key (all whole numbers: documents, tokens, mentions, entities,
 * singletons, reader warnings), as the upload check gives them (`validateUpload`).
 */
export type GoldStats = UploadStats;

/** What organizers see of one gold key version (never its content). */
export interface GoldKeyMeta {
  id: string;
  /** the dataset the version belongs to (versions count per dataset) */
  datasetId: string;
  version: number;
  fileName: string;
  /** lower-case hex sha256 of the uncompressed file */
  sha256: string;
  /** uncompressed size in bytes */
  size: number;
  documents: number;
  stats: GoldStats;
  active: boolean;
  uploadedAt: Date;
  uploadedById: string;
}

/** An active gold key of a dataset as stored (gzip-compressed), for the scoring worker and the upload check. */
export interface StoredGold {
  /** the gold key row's id (`submission_files.gold_key_id` records it) */
  id: string;
  datasetId: string;
  version: number;
  fileName: string;
  /** lower-case hex sha256 of the uncompressed file */
  sha256: string;
  /** the file, gzip-compressed (restore it with `unpackFile(gzip, sha256)`) */
  gzip: Uint8Array;
}

/**
 * Metadata of a stored gold key row, for organizers only (callers check `canViewGold` or
 * `canManageTask` first: the file name, sha256 and stats are gold metadata).
 *
 * @param row a GoldKey row selected with {@link GOLD_META_SELECT} (no file content)
 * @returns `{id, datasetId, version, fileName, sha256, size (bytes), documents, stats, active, uploadedAt, uploadedById}`
 */
export function goldMeta(row: Omit<GoldKey, "gzip">): GoldKeyMeta {
  return {
    id: row.id,
    datasetId: row.datasetId,
    version: row.version,
    fileName: row.fileName,
    sha256: row.sha256,
    size: row.size,
    documents: row.documentCount,
    stats: row.stats as unknown as GoldStats,
    active: row.active,
    uploadedAt: row.createdAt,
    uploadedById: row.uploadedById,
  };
}

/** Columns of GoldKey without the file itself (still organizer-only metadata: see {@link goldMeta}). */
export const GOLD_META_SELECT = {
  id: true,
  phaseId: true,
  datasetId: true,
  version: true,
  fileName: true,
  sha256: true,
  size: true,
  documentCount: true,
  stats: true,
  active: true,
  createdAt: true,
  uploadedById: true,
} as const;

/** One dataset of a gold upload: its active version afterwards, and whether the upload left it unchanged. */
export interface GoldDatasetUpload {
  dataset: { id: string; name: string; fileName: string; format: DatasetFormat };
  /** the dataset's active version afterwards: the new one, or the unchanged active one (`unchanged`) */
  gold: GoldKeyMeta;
  /** true when its file was byte-identical to its active version: nothing was stored for it */
  unchanged: boolean;
}

/** What a gold upload did. */
export interface GoldUploadResult {
  /**
   * the active version afterwards of the first dataset the upload changed (in dataset order),
   * else of the first one it covered; for a one-dataset phase, that dataset's
   */
  gold: GoldKeyMeta;
  /** how many submissions were re-queued (0 when `unchanged`) */
  requeued: number;
  /** true when every file was byte-identical to its dataset's active version: nothing was stored or re-queued */
  unchanged: boolean;
  /**
   * for the organizer, e.g. "Gold key version 3 (key.conllu) is now active; 5 submissions were
   * re-queued for scoring." (one dataset), or "Gold key version 2 of en_gum (en_gum.conllu) is
   * now active; version 1 of cs_pdt unchanged; 5 submissions were re-queued for scoring."
   * (datasets an archive left out are named at the end)
   */
  message: string;
  /** every dataset the upload covered, in dataset order */
  datasets: GoldDatasetUpload[];
  /** the names of the datasets an archive left out (their gold keys stay as they are); [] for a single file */
  notInArchive: string[];
}

/** Options of {@link uploadGoldKey}. */
export interface GoldUploadOptions {
  /**
   * the dataset a single gold file is for, by id or name; needed when the phase has several
   * datasets (an archive names its datasets by its files' names instead); empty = not given
   */
  datasetId?: string | null;
}

/** The evaluation columns of a task, for `taskEvaluationProfile`. */
const EVALUATION_SELECT = { evaluationProfile: true, mentionMatching: true, keepSingletons: true, zeroMatching: true } as const;


/**
 * Refuses a gold key file that the task's evaluation profile cannot score (`goldFitsProfile`:
 * partial and head match need CorefUD CoNLL-U).
 *
 * @throws ValidationError (422, field `file`) with the reason
 */
function assertGoldFits(fileName: string, task: TaskEvaluationFields): void {
  const reason = goldFitsProfile(fileName, taskEvaluationProfile(task));
  if (reason) throw ValidationError.field("file", reason);
}

/** One gold file of an upload and the dataset it is for. */
export interface GoldFile {
  dataset: DatasetView;
  fileName: string;
  bytes: Uint8Array;
}

/**
 * The files of a gold upload, each with its dataset: the named dataset's; a phase's only
 * dataset's; or, for an archive, each file paired by name with a dataset (`pairArchiveFiles`).
 *
 * @returns the files in dataset order, and the datasets an archive left out
 * @throws ValidationError (422): field `dataset` for an unknown dataset, a dataset named with
 *   an archive, or none named in a phase with several datasets (the message lists them); an
 *   archive that is broken, hostile, holds unknown files or no dataset's file (`lib/uploads/archive.ts`)
 */
async function goldFiles(datasets: DatasetView[], name: string, bytes: Uint8Array, ref: string | null): Promise<{ files: GoldFile[]; left: DatasetView[] }> {
  const kind = archiveKind(name);
  if (ref !== null) {
    const dataset = findDataset(datasets, ref);
    if (kind) {
      throw ValidationError.field(
        "dataset",
        `An archive's files are matched to the datasets by their names; leave out the dataset to upload ${name}, or upload the gold key of "${dataset.name}" as a single file.`,
      );
    }
    return { files: [{ dataset, fileName: name, bytes }], left: [] };
  }
  if (kind) {
    const entries = await readArchive(bytes, name, { maxTotalBytes: archiveLimitBytes() });
    const { files, missing } = pairArchiveFiles(entries, datasets, name);
    return { files: files.map(({ dataset, entry }) => ({ dataset, fileName: entry.name, bytes: entry.bytes })), left: missing };
  }
  if (datasets.length === 1) return { files: [{ dataset: datasets[0], fileName: name, bytes }], left: [] };
  throw ValidationError.field(
    "dataset",
    `This phase has ${datasets.length} datasets (${datasetChoices(datasets)}): choose the dataset this gold key is for, or upload an archive (.zip or .tar.gz) holding one file per dataset, each named as its dataset's expected file name.`,
  );
}

/**
 * The dataset format a gold file switches its dataset to, or null when its format is the
 * dataset's (`fileFormatOf`: `.conllu` is CorefUD CoNLL-U; `.conll`, `.v4_gold_conll`,
 * `.gold_conll` and the rest CoNLL-2012). A dataset adopts its gold file's format when it is
 * the phase's only dataset (as before datasets existed) or when its format was never set
 * (`formatUnset`, see {@link datasetsWithUnsetFormat}); otherwise the format must be the dataset's.
 *
 * @param adopts whether the file's dataset takes the file's format
 * @throws ValidationError (422, field `file`) for a file of another format than its dataset's, when the dataset does not adopt it
 */
function formatSwitch(file: GoldFile, adopts: boolean): DatasetFormat | null {
  const format: DatasetFormat = fileFormatOf(file.fileName);
  if (format === file.dataset.format) return null;
  if (adopts) return format;
  throw ValidationError.field(
    "file",
    `${file.fileName} is a ${DATASET_FORMAT_LABELS[format]} file, but the dataset "${file.dataset.name}" takes ${DATASET_FORMAT_LABELS[file.dataset.format]} files (expected file name ${file.dataset.fileName}).`,
  );
}

/**
 * The ids of those of `datasets` whose format nobody has set (issue 24 §4): the automatic
 * dataset a phase starts with, untouched (`isDefaultDataset`: its format came from the task's
 * evaluation profile, not from an organizer), never edited (no `dataset.update` event), and
 * without any gold key version. Such a dataset takes the format of the first gold key
 * uploaded for it, even beside other datasets. Datasets an organizer added (with a file name
 * and format) or edited, and datasets with gold, keep their format: a mismatch is refused.
 *
 * @param datasets the phase's datasets
 * @param db the client or transaction to read with
 */
async function datasetsWithUnsetFormat(datasets: readonly DatasetView[], db: Db): Promise<Set<string>> {
  const candidates = datasets.filter(isDefaultDataset).map((d) => d.id);
  if (candidates.length === 0) return new Set();
  const [withGold, edited] = await Promise.all([
    db.goldKey.findMany({ where: { datasetId: { in: candidates } }, select: { datasetId: true }, distinct: ["datasetId"] }),
    db.auditEvent.findMany({ where: { action: "dataset.update", targetType: "dataset", targetId: { in: candidates } }, select: { targetId: true }, distinct: ["targetId"] }),
  ]);
  const taken = new Set([...withGold.map((g) => g.datasetId), ...edited.map((e) => e.targetId)]);
  return new Set(candidates.filter((id) => !taken.has(id)));
}

/**
 * Refuses a gold change in an archived task (its results are final; unarchive it first).
 *
 * @throws ConflictError (409)
 */
function assertNotArchived(task: { status: string }): void {
  if (task.status === "ARCHIVED") {
    throw new ConflictError("This task is archived: its gold keys can no longer change. Unarchive the task to upload a new gold key.");
  }
}

/** What a new gold key version of a phase would re-queue (see {@link goldUploadImpact}). */
export interface GoldUploadImpact {
  /** the runs a changed gold key re-queues: every run of the phase */
  runs: number;
  /** those runs per status */
  byStatus: Record<SubmissionStatus, number>;
  /** whether some dataset of the phase has an active gold key already (a first upload replaces nothing) */
  hasActiveGold: boolean;
}

/**
 * How many runs a new gold key version of the phase would re-score: `uploadGoldKey` re-queues
 * every run of the phase (whatever its status) when a dataset's active gold key changes; a
 * byte-identical file changes nothing and re-queues none. The upload form asks for
 * confirmation with this count.
 *
 * @param viewer who asks
 * @param phaseId the phase
 * @returns the number of runs, per status, and whether the phase has an active gold key
 * @throws UnauthorizedError (401) when anonymous; NotFoundError (404) for an unknown phase and
 *   for a viewer who does not organize its task
 */
export async function goldUploadImpact(viewer: Viewer, phaseId: string): Promise<GoldUploadImpact> {
  const db = defaultDb();
  const { phase } = await loadManagedPhase(viewer, phaseId, db);
  const counts = await db.submission.groupBy({ by: ["status"], where: { phaseId: phase.id }, _count: { _all: true } });
  const byStatus: Record<SubmissionStatus, number> = { QUEUED: 0, SCORING: 0, SCORED: 0, FAILED: 0 };
  for (const c of counts) byStatus[c.status] = c._count._all;
  const active = await db.goldKey.findFirst({ where: { phaseId: phase.id, active: true }, select: { id: true } });
  return { runs: Object.values(byStatus).reduce((a, b) => a + b, 0), byStatus, hasActiveGold: active !== null };
}

/** "1 submission was" / "5 submissions were". */
function submissionsWere(n: number): string {
  return `${n} submission${n === 1 ? " was" : "s were"}`;
}

/**
 * The organizer's message of an upload (see {@link GoldUploadResult.message}). A one-dataset
 * phase keeps the messages it had before datasets existed.
 */
function uploadMessage(results: GoldDatasetUpload[], requeued: number, onlyDataset: boolean, left: DatasetView[]): string {
  const kept = left.length > 0 ? ` Not in the archive (their gold keys are kept): ${left.map((d) => d.name).join(", ")}.` : "";
  if (results.every((r) => r.unchanged)) {
    if (onlyDataset) {
      const { gold } = results[0];
      return `The file is identical to the active version ${gold.version} (${gold.fileName}, same sha256); nothing changed.${kept}`;
    }
    if (results.length === 1) {
      const { gold, dataset } = results[0];
      return `The file is identical to the active version ${gold.version} of ${dataset.name} (${gold.fileName}, same sha256); nothing changed.${kept}`;
    }
    return `The files are identical to the active versions (${results.map((r) => `version ${r.gold.version} of ${r.dataset.name}`).join(", ")}; same sha256); nothing changed.${kept}`;
  }
  const parts = results.map(({ dataset, gold, unchanged }) => {
    if (unchanged) return `version ${gold.version} of ${dataset.name} unchanged`;
    return onlyDataset ? `version ${gold.version} (${gold.fileName}) is now active` : `version ${gold.version} of ${dataset.name} (${gold.fileName}) is now active`;
  });
  return `Gold key ${parts.join("; ")}; ${submissionsWere(requeued)} re-queued for scoring.${kept}`;
}

/**
 * Uploads gold keys for a phase's datasets: one file for one dataset, or an archive with a
 * file per dataset, and re-queues every submission of the phase when a dataset's active
 * gold key changed (the worker then scores again only the datasets whose active gold key is
 * not the one their stored results came from, `submission_files.gold_key_id`). A file
 * byte-identical to its dataset's active version (same sha256 of the uncompressed bytes,
 * whatever its name) leaves that dataset unchanged: no version, no audit event; the result
 * says so per dataset, and an upload that changes no dataset re-queues nothing.
 *
 * Which dataset: `options.datasetId` (id or name) when given; else the phase's only
 * dataset; else, for an archive (`.zip`, `.tar.gz`, `.tgz`, read in memory by
 * `lib/uploads/archive.ts`, at most 10× the upload cap uncompressed), each file paired by its name
 * with the dataset whose expected file name it has (datasets it leaves out keep their gold
 * keys); else a 422 listing the datasets.
 *
 * Steps: load the upload's context once (`loadGoldUploadContext`: the phase, the uploader's
 * right to manage its task, the datasets, which of them have a format never set, their active
 * versions); refuse an archived task (409); check size; pick the files and datasets; per file, refuse a format other
 * than its dataset's (the only dataset of a phase instead takes the file's format, as before
 * datasets existed, and so does a dataset whose format was never set, see
 * `datasetsWithUnsetFormat`: its format and expected file name's ending change with a
 * `dataset.update` event) and a file the task's evaluation profile cannot score
 * (`goldFitsProfile`: a profile with partial or head match needs `.conllu`); compare with the
 * active versions; read and check each changed file in an upload-pool thread
 * (`validateUpload`: nothing is stored when one fails); then in one transaction holding the
 * phase's `gold:` lock (which dataset changes and a change of the task's evaluation profile
 * also take): check the profile, the datasets and the active versions again; per changed
 * dataset, version = its previous max + 1, made its only active version, file stored (gzip +
 * sha256 + size); reset every submission of the phase to QUEUED once (attempts 0, error
 * cleared; stored scores stay until the worker replaces them); write a `gold.upload` audit
 * event per new version (with its dataset). After commit, the re-queued submissions are
 * enqueued; if that fails, the error is logged and the reconciler enqueues them later.
 *
 * @param actor the uploader (must organize the phase's task)
 * @param phaseId the phase
 * @param fileName the uploaded file's name (its extension picks the format, or marks an archive)
 * @param bytes the file
 * @param options `datasetId`: the dataset (id or name) of a single file
 * @returns per dataset covered its active version and whether it was unchanged, the first
 *   changed one's version as `gold`, how many submissions were re-queued, whether the upload
 *   changed nothing, the datasets an archive left out, and a message saying all this
 * @throws UnauthorizedError (401), ForbiddenError (403), NotFoundError (404, no phase),
 *   TooLargeError (413), ValidationError (422: field `dataset` for an unknown dataset or none
 *   chosen in a phase with several, listing them; field `file` for a file of another format
 *   than its dataset's or one the task's evaluation profile cannot score; `formatErrors` with
 *   file, line and column, an empty file, or over the reading time or memory limit; a broken or
 *   hostile archive, unknown files in it), ConflictError (409: the task is archived; the
 *   phase's datasets changed during the upload, upload again), ServiceBusyError (503: too many uploads being checked;
 *   retry later)
 */
export async function uploadGoldKey(actor: Viewer, phaseId: string, fileName: string, bytes: Uint8Array, options: GoldUploadOptions = {}): Promise<GoldUploadResult> {
  const db = defaultDb();
  const context = await loadGoldUploadContext(actor, phaseId, db);
  const { name, ref } = checkGoldUpload(context, fileName, bytes.byteLength, options);
  const { files, left } = await goldFiles(context.datasets, name, bytes, ref);
  const checked = files.map((file) => ({ ...file, switchTo: checkGoldFile(context, file) }));
  const planned = await Promise.all(checked.map(async (file) => ({ ...file, stored: await packFileAsync(file.bytes) })));
  const changed = planned.filter((p) => context.active.get(p.dataset.id)?.sha256 !== p.stored.sha256);
  if (changed.length === 0) {
    const results = planned.map((p) => ({ dataset: datasetOf(p.dataset), gold: goldMeta(context.active.get(p.dataset.id)!), unchanged: true }));
    return goldUploadResult(results, null, context, left);
  }
  const stats = new Map<string, GoldStats>();
  for (const p of changed) stats.set(p.dataset.id, await validateUpload(p.bytes, p.fileName));
  const { results, requeuedIds } = await writeGoldKeys(context, planned, stats, name);
  const versions = results.filter((r) => !r.unchanged).map((r) => `${r.dataset.name} v${r.gold.version}`).join(", ");
  if (requeuedIds !== null) await enqueueAfterCommit(requeuedIds, `gold ${versions} of phase ${context.phase.id}`);
  return goldUploadResult(results, requeuedIds, context, left);
}

/** What a gold upload is checked against, loaded once by {@link loadGoldUploadContext}. */
export interface GoldUploadContext {
  /** the uploader, an organizer of the phase's task */
  user: SignedInViewer;
  /** the phase with its task (status, evaluation profile) */
  phase: PhaseWithTask;
  /** the phase's datasets in order */
  datasets: DatasetView[];
  /** the ids of the datasets whose format was never set ({@link datasetsWithUnsetFormat}) */
  unsetFormat: Set<string>;
  /** each dataset's active gold key version, by dataset id (a dataset without one is absent) */
  active: Map<string, GoldMetaRow>;
}

/**
 * Loads a gold upload's {@link GoldUploadContext}: the phase, the uploader's right to manage its
 * task (checked here, once), the phase's datasets, which of them have a format never set, and
 * their active gold key versions.
 *
 * @throws NotFoundError (404, "No such phase."): an unknown phase, or a draft's for a
 *   non-organizer; UnauthorizedError (401); ForbiddenError (403) not an organizer
 */
async function loadGoldUploadContext(actor: Viewer, phaseId: string, db: Db): Promise<GoldUploadContext> {
  const phase = await loadPhase(phaseId, db);
  const user = await assertCanManageTask(actor, phase.taskId, db, "No such phase.");
  const datasets = await listDatasets(phase.id, db);
  const unsetFormat = await datasetsWithUnsetFormat(datasets, db);
  const activeRows = await db.goldKey.findMany({ where: { phaseId: phase.id, active: true }, select: GOLD_META_SELECT });
  return { user, phase, datasets, unsetFormat, active: new Map(activeRows.map((row) => [row.datasetId, row])) };
}

/**
 * The checks of a gold upload before its files are read (pure): the task is not archived, the
 * upload fits the upload cap, and its name and dataset reference as they will be used.
 *
 * @param size the upload's size in bytes
 * @returns the cleaned file name and the dataset reference (trimmed; null when not given)
 * @throws ConflictError (409) in an archived task; TooLargeError (413)
 */
export function checkGoldUpload(context: Pick<GoldUploadContext, "phase">, fileName: string, size: number, options: GoldUploadOptions): { name: string; ref: string | null } {
  assertNotArchived(context.phase.task);
  assertUploadSize(size);
  const name = cleanFileName(fileName);
  return { name, ref: options.datasetId?.trim() ? options.datasetId.trim() : null };
}

/**
 * The check of one gold file against its dataset and the task's evaluation profile (pure):
 * its format must be its dataset's, unless the dataset adopts it (the phase's only dataset,
 * or one whose format was never set: {@link formatSwitch}), and the profile must be able to
 * score it ({@link assertGoldFits}).
 *
 * @returns the format the file switches its dataset to, or null
 * @throws ValidationError (422, field `file`)
 */
export function checkGoldFile(context: Pick<GoldUploadContext, "phase" | "datasets" | "unsetFormat">, file: GoldFile): DatasetFormat | null {
  const switchTo = formatSwitch(file, context.datasets.length === 1 || context.unsetFormat.has(file.dataset.id));
  assertGoldFits(file.fileName, context.phase.task);
  return switchTo;
}

/** A gold file checked and packed for storing. */
type PlannedGold = GoldFile & { switchTo: DatasetFormat | null; stored: Awaited<ReturnType<typeof packFileAsync>> };

/**
 * The result of a gold upload (see {@link GoldUploadResult}).
 *
 * @param requeuedIds the runs re-queued, or null when no dataset changed
 */
function goldUploadResult(results: GoldDatasetUpload[], requeuedIds: string[] | null, context: GoldUploadContext, left: DatasetView[]): GoldUploadResult {
  const firstChanged = results.find((r) => !r.unchanged) ?? results[0];
  const requeued = requeuedIds?.length ?? 0;
  const message = uploadMessage(results, requeued, context.datasets.length === 1, left);
  return { gold: firstChanged.gold, requeued, unchanged: requeuedIds === null, message, datasets: results, notInArchive: left.map((d) => d.name) };
}

/**
 * Stores a checked gold upload in one transaction holding the phase's `gold:` lock: checks
 * again the task ({@link recheckGoldUpload}), then per file stores a new version unless it is
 * byte-identical to the dataset's active one now ({@link storeGoldVersion}), re-queues the
 * phase's runs once for the datasets that changed, and writes a `gold.upload` audit event per
 * new version.
 *
 * @param stats the reading check's counts of each changed file, by dataset id
 * @param uploadName the upload's cleaned name (an archive's name is recorded with its files)
 * @returns per file its dataset's active version afterwards, and the runs re-queued (null
 *   when no dataset changed after all)
 * @throws ConflictError (409) as {@link recheckGoldUpload}; ValidationError (422) when the
 *   task's evaluation profile changed and cannot score a file
 */
async function writeGoldKeys(
  context: GoldUploadContext,
  planned: readonly PlannedGold[],
  stats: ReadonlyMap<string, GoldStats>,
  uploadName: string,
): Promise<{ results: GoldDatasetUpload[]; requeuedIds: string[] | null }> {
  const { phase, user } = context;
  return defaultDb().$transaction(async (tx) => {
    await lockKey(tx, `gold:${phase.id}`);
    await recheckGoldUpload(tx, context, planned);
    const results: GoldDatasetUpload[] = [];
    const added: { plan: PlannedGold; row: GoldMetaRow }[] = [];
    for (const p of planned) {
      const active = await tx.goldKey.findFirst({ where: { datasetId: p.dataset.id, active: true }, select: GOLD_META_SELECT });
      if (active?.sha256 === p.stored.sha256) {
        results.push({ dataset: datasetOf(p.dataset), gold: goldMeta(active), unchanged: true });
        continue;
      }
      const stored = await storeGoldVersion(tx, context, p, stats.get(p.dataset.id)!);
      results.push({ dataset: datasetOf(stored.plan.dataset), gold: goldMeta(stored.row), unchanged: false });
      added.push(stored);
    }
    if (added.length === 0) return { results, requeuedIds: null };
    // The worker scores again only the datasets whose gold key changed (their files' gold_key_id is cleared).
    const requeued = await requeueSubmissions(tx, { phaseId: phase.id }, { datasetIds: added.map((a) => a.plan.dataset.id) });
    for (const { plan, row } of added) {
      await recordAudit(tx, {
        actorId: user.userId,
        action: "gold.upload",
        targetType: "gold_key",
        targetId: row.id,
        data: {
          phaseId: phase.id,
          datasetId: plan.dataset.id,
          dataset: plan.dataset.name,
          version: row.version,
          fileName: plan.fileName,
          sha256: plan.stored.sha256,
          size: plan.stored.size,
          stats: stats.get(plan.dataset.id),
          ...(uploadName !== plan.fileName ? { archive: uploadName } : {}),
          requeued: requeued.length,
        },
      });
    }
    return { results, requeuedIds: requeued };
  });
}

/**
 * Inside the gold upload's transaction (under the `gold:` lock): checks again what the upload
 * was checked against, as it is now: the task is not archived, each file's dataset still has
 * the format it was checked with (and may still adopt the file's format when it switches),
 * and the task's evaluation profile can score each file.
 *
 * @throws ConflictError (409) for an archived task, or when the phase's datasets changed
 *   meanwhile; ValidationError (422, field `file`) from {@link assertGoldFits}
 */
async function recheckGoldUpload(tx: Tx, context: GoldUploadContext, planned: readonly PlannedGold[]): Promise<void> {
  const task = await tx.task.findUniqueOrThrow({ where: { id: context.phase.taskId }, select: { ...EVALUATION_SELECT, status: true } });
  assertNotArchived(task);
  const current = new Map((await listDatasets(context.phase.id, tx)).map((d) => [d.id, d]));
  const unsetNow = await datasetsWithUnsetFormat([...current.values()], tx);
  for (const p of planned) {
    const now = current.get(p.dataset.id);
    if (!now || now.format !== p.dataset.format || (p.switchTo !== null && current.size !== 1 && !unsetNow.has(p.dataset.id))) {
      throw new ConflictError("The datasets of this phase changed while the gold key was being checked; nothing was stored. Please upload it again.");
    }
    assertGoldFits(p.fileName, task);
  }
}

/**
 * Inside the gold upload's transaction: stores a file as its dataset's new active version
 * (its previous max + 1; the previous active version deactivated), first switching the
 * dataset's format and expected file name when the file changes them (with a
 * `dataset.update` audit event).
 *
 * @param fileStats the file's counts from the reading check
 * @returns the plan with the dataset as it is now, and the new version's row
 */
async function storeGoldVersion(tx: Tx, context: GoldUploadContext, p: PlannedGold, fileStats: GoldStats): Promise<{ plan: PlannedGold; row: GoldMetaRow }> {
  const { phase, user } = context;
  let dataset = p.dataset;
  if (p.switchTo !== null) {
    const fileNameAfter = fileNameForFormat(dataset.fileName, p.switchTo);
    const row = await tx.dataset.update({ where: { id: dataset.id }, data: { format: p.switchTo, fileName: fileNameAfter }, select: DATASET_SELECT });
    await recordAudit(tx, {
      actorId: user.userId,
      action: "dataset.update",
      targetType: "dataset",
      targetId: dataset.id,
      data: {
        taskId: phase.taskId,
        phaseId: phase.id,
        name: dataset.name,
        changes: { format: { from: dataset.format, to: p.switchTo }, fileName: { from: dataset.fileName, to: fileNameAfter } },
        reason:
          context.datasets.length === 1
            ? `gold key ${p.fileName} uploaded for the phase's only dataset`
            : `first gold key ${p.fileName} uploaded for a dataset whose format was never set`,
      },
    });
    dataset = toDatasetView(row);
  }
  const last = await tx.goldKey.aggregate({ where: { datasetId: dataset.id }, _max: { version: true } });
  const version = (last._max.version ?? 0) + 1;
  await tx.goldKey.updateMany({ where: { datasetId: dataset.id, active: true }, data: { active: false } });
  const row = await tx.goldKey.create({
    data: {
      phaseId: phase.id,
      datasetId: dataset.id,
      version,
      fileName: p.fileName,
      sha256: p.stored.sha256,
      gzip: p.stored.gzip,
      size: p.stored.size,
      documentCount: fileStats.documents,
      stats: { ...fileStats },
      uploadedById: user.userId,
      active: true,
    },
    select: GOLD_META_SELECT,
  });
  return { plan: { ...p, dataset }, row };
}

/** A gold key row selected with {@link GOLD_META_SELECT}. */
type GoldMetaRow = Omit<GoldKey, "gzip">;

/** The dataset facts of a {@link GoldDatasetUpload}. */
function datasetOf(d: DatasetView): GoldDatasetUpload["dataset"] {
  return { id: d.id, name: d.name, fileName: d.fileName, format: d.format };
}

/**
 * The active gold key of a phase's first dataset (in `DATASET_ORDER`) that has one, with its
 * (compressed) content. Server-internal: for the
 * scoring worker only, which checks the checksum as it unpacks; never pass the result, or
 * anything derived from it, to a response.
 *
 * @param phaseId the phase
 * @param db client or transaction (default: the shared client)
 * @returns version, file name, sha256 and the gzip bytes; null when the phase has no active
 *   gold key
 */
export async function findActiveGold(phaseId: string, db: Db = defaultDb()): Promise<StoredGold | null> {
  return (await findActiveGoldKeys(phaseId, db))[0] ?? null;
}

/** The Prisma `select` of a {@link StoredGold}. */
export const STORED_GOLD_SELECT = { id: true, datasetId: true, version: true, fileName: true, sha256: true, gzip: true } as const;

/**
 * The active gold keys of a phase with their (compressed) content, one per dataset that has
 * one, in the datasets' order (`DATASET_ORDER`). Server-internal, as {@link findActiveGold}.
 *
 * @param phaseId the phase
 * @param db client or transaction (default: the shared client)
 * @param datasetIds only these datasets (default: all of the phase's)
 * @returns the stored keys (empty when no dataset has an active key)
 */
export async function findActiveGoldKeys(phaseId: string, db: Db = defaultDb(), datasetIds?: readonly string[]): Promise<StoredGold[]> {
  return db.goldKey.findMany({
    where: { phaseId, active: true, ...(datasetIds ? { datasetId: { in: [...datasetIds] } } : {}) },
    orderBy: [{ dataset: { position: "asc" } }, { dataset: { name: "asc" } }],
    select: STORED_GOLD_SELECT,
  });
}

/** A gold key version with its dataset's name, for the versions table. */
export interface GoldVersionMeta extends GoldKeyMeta {
  /** the name of the version's dataset, e.g. "en_gum" */
  dataset: string;
}

/**
 * Every gold key version of a phase (metadata only), in dataset order (`DATASET_ORDER`),
 * newest first within a dataset, each with its dataset's name.
 *
 * @throws UnauthorizedError (401), ForbiddenError (403) unless the actor organizes the task;
 *   NotFoundError (404) for an unknown phase
 */
export async function listGoldVersions(actor: Viewer, phaseId: string): Promise<GoldVersionMeta[]> {
  const db = defaultDb();
  const phase = await loadPhase(phaseId, db);
  await assertCanManageTask(actor, phase.taskId, db, "No such phase.");
  const rows = await db.goldKey.findMany({
    where: { phaseId: phase.id },
    orderBy: [...DATASET_ORDER.map((o) => ({ dataset: o })), { version: "desc" as const }],
    select: { ...GOLD_META_SELECT, dataset: { select: { name: true } } },
  });
  return rows.map(({ dataset, ...row }) => ({ ...goldMeta(row), dataset: dataset.name }));
}
