/**
 * Re-queueing submissions for scoring, when what scoring computes changes (a new gold key
 * version, a task's analysis settings).
 */
import { DB_NULL, type Prisma, type Tx } from "./db";

/**
 * Puts every matching submission back to QUEUED with a fresh attempt count and no error,
 * inside the caller's transaction. The caller enqueues the returned ids after commit
 * (`enqueueAfterCommit`); the reconciler covers a failed enqueue.
 *
 * @param tx the transaction making the change that needs re-scoring
 * @param where which submissions (e.g. `{ phaseId }`)
 * @returns the re-queued ids, oldest submission first
 */
export async function requeueSubmissions(tx: Tx, where: Prisma.SubmissionWhereInput): Promise<string[]> {
  const ids = (await tx.submission.findMany({ where, select: { id: true }, orderBy: { createdAt: "asc" } })).map((s) => s.id);
  if (ids.length > 0) {
    await tx.submission.updateMany({
      where: { id: { in: ids } },
      data: { status: "QUEUED", attempts: 0, errorStage: null, errorMessage: null, errorLocation: DB_NULL, startedAt: null },
    });
  }
  return ids;
}
