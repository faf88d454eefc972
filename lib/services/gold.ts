/**
 * Gold keys: upload (organizers), version history (organizers), and the active key for the
 * scoring worker. Gold content is read only through {@link findActiveGold}, which is
 * server-internal: the worker (`lib/worker/scoring-job.ts`) scores with it, and the upload check
 * (`lib/services/submissions.ts`) reads the key's document ids from it in the upload pool, where
 * only those ids leave the thread. Metadata (file name, sha256, stats) is organizer-only as well.
 */
import { ValidationError } from "../errors";
import { goldFitsProfile, taskEvaluationProfile, type TaskEvaluationFields } from "../evaluation";
import { enqueueAfterCommit } from "../queue";
import { assertCanManageTask, type Viewer } from "../permissions";
import { packFile } from "../storage";
import { recordAudit } from "./audit";
import { defaultDb, lockKey, type Db, type GoldKey } from "./db";
import { requeueSubmissions } from "../submission-states";
import { loadPhase } from "./phases";
import { assertUploadSize, cleanFileName, validateUpload, type UploadStats } from "./uploads";

/**
 * Counts describing a gold key (all whole numbers: documents, tokens, mentions, entities,
 * singletons, reader warnings), as the upload check gives them (`validateUpload`).
 */
export type GoldStats = UploadStats;

/** What organizers see of one gold key version (never its content). */
export interface GoldKeyMeta {
  id: string;
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
 * @returns `{id, version, fileName, sha256, size (bytes), documents, stats, active, uploadedAt, uploadedById}`
 */
export function goldMeta(row: Omit<GoldKey, "gzip">): GoldKeyMeta {
  return {
    id: row.id,
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

/** What a gold upload did. */
export interface GoldUploadResult {
  /** the active version afterwards: the new one, or the unchanged active one (`unchanged`) */
  gold: GoldKeyMeta;
  /** how many submissions were re-queued (0 when `unchanged`) */
  requeued: number;
  /** true when the file was byte-identical to the active version: nothing was stored or re-queued */
  unchanged: boolean;
  /** for the organizer, e.g. "Gold key version 3 (key.conllu) is now active; 5 submissions were re-queued." */
  message: string;
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

/** The message of an upload that changed nothing. */
function identicalMessage(active: GoldKeyMeta): string {
  return `The file is identical to the active version ${active.version} (${active.fileName}, same sha256); nothing changed.`;
}

/**
 * Uploads a new gold key version for a phase and re-queues every submission of the phase. A
 * file byte-identical to the active version (same sha256 of the uncompressed bytes, whatever
 * its name) is a no-op: no version, no re-queue, no audit event; the result says so.
 *
 * Steps: authorize; check size; refuse a file the task's evaluation profile cannot score
 * (`goldFitsProfile`: a profile with partial or head match needs `.conllu`); answer "unchanged"
 * for a copy of the active version; read and check the file in an upload-pool thread
 * (`validateUpload`: nothing is stored when that fails); then in one transaction holding the
 * phase's `gold:` lock (which a change of the task's evaluation profile also takes): check the
 * profile and the active version again, version = previous max + 1, make it the only active
 * version, store the file (gzip + sha256 + size), reset every submission of the phase to
 * QUEUED (attempts 0, error cleared; existing Score rows stay until the worker replaces them,
 * and the submission's goldVersion keeps saying which version produced them), and write a
 * `gold.upload` audit event. After commit, the re-queued submissions are enqueued; if that
 * fails, the error is logged and the reconciler enqueues them later.
 *
 * @param actor the uploader (must organize the phase's task)
 * @param phaseId the phase
 * @param fileName the uploaded file's name (its extension picks the format)
 * @param bytes the file
 * @returns the active version's metadata, how many submissions were re-queued, whether the
 *   upload changed nothing, and a message saying which
 * @throws UnauthorizedError (401), ForbiddenError (403), NotFoundError (404, no phase),
 *   TooLargeError (413), ValidationError (422: field `file` when the task's evaluation
 *   profile cannot score this format; `formatErrors` with line and column, an empty file, or
 *   over the reading time or memory limit), ServiceBusyError (503: too many uploads being
 *   checked; retry later)
 */
export async function uploadGoldKey(actor: Viewer, phaseId: string, fileName: string, bytes: Uint8Array): Promise<GoldUploadResult> {
  const db = defaultDb();
  const phase = await loadPhase(phaseId, db);
  const user = await assertCanManageTask(actor, phase.taskId, db);
  assertUploadSize(bytes.byteLength);
  const name = cleanFileName(fileName);
  assertGoldFits(name, phase.task);
  const stored = packFile(bytes);
  const activeNow = await db.goldKey.findFirst({ where: { phaseId, active: true }, select: GOLD_META_SELECT });
  if (activeNow?.sha256 === stored.sha256) {
    const gold = goldMeta(activeNow);
    return { gold, requeued: 0, unchanged: true, message: identicalMessage(gold) };
  }
  const stats = await validateUpload(bytes, name);

  const outcome = await db.$transaction(async (tx) => {
    await lockKey(tx, `gold:${phaseId}`);
    const task = await tx.task.findUniqueOrThrow({ where: { id: phase.taskId }, select: EVALUATION_SELECT });
    assertGoldFits(name, task);
    const active = await tx.goldKey.findFirst({ where: { phaseId, active: true }, select: GOLD_META_SELECT });
    if (active?.sha256 === stored.sha256) return { row: active, requeuedIds: [] as string[], unchanged: true };
    const last = await tx.goldKey.aggregate({ where: { phaseId }, _max: { version: true } });
    const version = (last._max.version ?? 0) + 1;
    await tx.goldKey.updateMany({ where: { phaseId, active: true }, data: { active: false } });
    const row = await tx.goldKey.create({
      data: {
        phaseId,
        version,
        fileName: name,
        sha256: stored.sha256,
        gzip: stored.gzip,
        size: stored.size,
        documentCount: stats.documents,
        stats: { ...stats },
        uploadedById: user.userId,
        active: true,
      },
      select: GOLD_META_SELECT,
    });
    const requeued = await requeueSubmissions(tx, { phaseId });
    await recordAudit(tx, {
      actorId: user.userId,
      action: "gold.upload",
      targetType: "gold_key",
      targetId: row.id,
      data: { phaseId, version, fileName: name, sha256: stored.sha256, size: stored.size, stats, requeued: requeued.length },
    });
    return { row, requeuedIds: requeued, unchanged: false };
  });

  const gold = goldMeta(outcome.row);
  if (outcome.unchanged) return { gold, requeued: 0, unchanged: true, message: identicalMessage(gold) };
  await enqueueAfterCommit(outcome.requeuedIds, `gold v${gold.version} of phase ${phaseId}`);
  const n = outcome.requeuedIds.length;
  return {
    gold,
    requeued: n,
    unchanged: false,
    message: `Gold key version ${gold.version} (${gold.fileName}) is now active; ${n} submission${n === 1 ? " was" : "s were"} re-queued for scoring.`,
  };
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

/**
 * Every gold key version of a phase, newest first (metadata only).
 *
 * @throws UnauthorizedError (401), ForbiddenError (403) unless the actor organizes the task;
 *   NotFoundError (404) for an unknown phase
 */
export async function listGoldVersions(actor: Viewer, phaseId: string): Promise<GoldKeyMeta[]> {
  const db = defaultDb();
  const phase = await loadPhase(phaseId, db);
  await assertCanManageTask(actor, phase.taskId, db);
  const rows = await db.goldKey.findMany({ where: { phaseId }, orderBy: { version: "desc" }, select: GOLD_META_SELECT });
  return rows.map(goldMeta);
}
