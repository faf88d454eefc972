/**
 * Gold keys: upload (organizers), version history (organizers), and the active key for the
 * scoring worker. Gold content is read only through {@link findActiveGold}, which is
 * server-internal (the worker, `lib/worker/scoring-job.ts`); metadata (file name, sha256, stats) is
 * organizer-only as well.
 */
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

/** The active gold key of a phase as stored (gzip-compressed), for the scoring worker. */
export interface StoredGold {
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

/**
 * Uploads a new gold key version for a phase and re-queues every submission of the phase.
 *
 * Steps: authorize; check size; read and check the file in an upload-pool thread
 * (`validateUpload`: nothing is stored when that fails); then in one
 * transaction: version = previous max + 1, make it the only active version, store the file
 * (gzip + sha256 + size), reset every submission of the phase to QUEUED (attempts 0, error
 * cleared; existing Score rows stay until the worker replaces them, and the submission's
 * goldVersion keeps saying which version produced them), and write a `gold.upload` audit
 * event. After commit, the re-queued submissions are enqueued; if that fails, the error is
 * logged and the reconciler enqueues them later.
 *
 * @param actor the uploader (must organize the phase's task)
 * @param phaseId the phase
 * @param fileName the uploaded file's name (its extension picks the format)
 * @param bytes the file
 * @returns the new version's metadata and how many submissions were re-queued
 * @throws UnauthorizedError (401), ForbiddenError (403), NotFoundError (404, no phase),
 *   TooLargeError (413), ValidationError (422: `formatErrors` with line and column, an
 *   empty file, or over the reading time or memory limit), ServiceBusyError (503: too many
 *   uploads being checked; retry later)
 */
export async function uploadGoldKey(
  actor: Viewer,
  phaseId: string,
  fileName: string,
  bytes: Uint8Array,
): Promise<{ gold: GoldKeyMeta; requeued: number }> {
  const db = defaultDb();
  const phase = await loadPhase(phaseId, db);
  const user = await assertCanManageTask(actor, phase.taskId, db);
  assertUploadSize(bytes.byteLength);
  const name = cleanFileName(fileName);
  const stats = await validateUpload(bytes, name);
  const stored = packFile(bytes);

  const { row, requeuedIds } = await db.$transaction(async (tx) => {
    await lockKey(tx, `gold:${phaseId}`);
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
    return { row, requeuedIds: requeued };
  });

  await enqueueAfterCommit(requeuedIds, `gold v${row.version} of phase ${phaseId}`);
  return { gold: goldMeta(row), requeued: requeuedIds.length };
}

/**
 * The active gold key of a phase with its (compressed) content. Server-internal: for the
 * scoring worker only, which checks the checksum as it unpacks; never pass the result, or
 * anything derived from it, to a response.
 *
 * @param phaseId the phase
 * @param db client or transaction (default: the shared client)
 * @returns version, file name, sha256 and the gzip bytes; null when the phase has no active
 *   gold key
 */
export async function findActiveGold(phaseId: string, db: Db = defaultDb()): Promise<StoredGold | null> {
  return db.goldKey.findFirst({ where: { phaseId, active: true }, select: { version: true, fileName: true, sha256: true, gzip: true } });
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
