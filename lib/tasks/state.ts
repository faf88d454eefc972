/**
 * The rule that an ARCHIVED task is read-only (issue 11 §1), for every service that changes a
 * task's settings: its fields, phases, datasets, tracks, evaluation and analysis settings, gold
 * keys, and runs (uploads, re-scoring, hiding, disqualifying). Reading stays as it was.
 */
import { ConflictError } from "../errors";
import { assertCanManageTask, type SignedInViewer, type Viewer } from "../permissions";
import { defaultDb, type Db } from "../db";

/**
 * Throws unless the task can be changed: an ARCHIVED task is read-only.
 *
 * @param task the task's status
 * @param what what was tried, e.g. "change its phases" (ends the message)
 * @throws ConflictError (409) for an archived task
 */
export function assertTaskWritable(task: { status: string }, what = "change it"): void {
  if (task.status === "ARCHIVED") throw new ConflictError(`This task is archived and read-only: unarchive it on its manage page to ${what}.`);
}

/**
 * Throws unless the viewer may manage the task ({@link assertCanManageTask}) and the task is
 * not archived ({@link assertTaskWritable}).
 *
 * @param what what was tried, for the archived task's message, e.g. "change its tracks"
 * @param notFound the caller's 404 message for an unknown id, also answered for a draft the
 *   viewer may not manage (default "No such task.")
 * @returns the viewer, signed in
 * @throws NotFoundError (404, unknown task or hidden draft), UnauthorizedError (401),
 *   ForbiddenError (403), ConflictError (409, archived)
 */
export async function assertCanChangeTask(viewer: Viewer, taskId: string, db: Db = defaultDb(), what = "change it", notFound = "No such task."): Promise<SignedInViewer> {
  const user = await assertCanManageTask(viewer, taskId, db, notFound);
  const task = await db.task.findUnique({ where: { id: taskId }, select: { status: true } });
  if (task) assertTaskWritable(task, what);
  return user;
}
