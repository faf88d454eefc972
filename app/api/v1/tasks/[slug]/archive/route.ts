/**
 * `POST /api/v1/tasks/{slug}/archive`: archive a published task; `DELETE`: unarchive it
 * (issue 11 §1). No body. The task's organizers and site admins only (bearer token or session
 * cookie).
 *
 * An archived task stays public (its pages, boards and runs as before) but is read-only: it
 * takes no runs, no gold keys and no edits of the task or its phases, until it is unarchived
 * (published again). Audited (`task.archive`, `task.unarchive`).
 *
 * Answers: POST 200 `{"task": {status: "ARCHIVED", archivedAt}}`; DELETE 200 `{"task":
 * {status: "PUBLISHED"}}`.
 * Errors (JSON `{"error": {"code", "message"}}`): 401 anonymous or bad token; 403 not an
 * organizer; 404 unknown task (or a draft the caller does not organize); 409 (`conflict`)
 * POST on a draft (publish it first) or an archived task, DELETE on a task that is not archived.
 */
import { apiRoute, apiViewer, jsonResponse, type RouteContext } from "@/lib/http/api";
import { archiveTask, unarchiveTask, getTaskForViewer } from "@/lib/tasks";

export const dynamic = "force-dynamic";

/** Archives the task; see the file comment. */
export const POST = apiRoute("POST /api/v1/tasks/:slug/archive", async (request: Request, ctx: RouteContext<{ slug: string }>) => {
  const { slug } = await ctx.params;
  const viewer = await apiViewer(request);
  const task = await getTaskForViewer(slug, viewer);
  return jsonResponse({ task: await archiveTask(viewer, task.id) });
});

/** Unarchives the task; see the file comment. */
export const DELETE = apiRoute("DELETE /api/v1/tasks/:slug/archive", async (request: Request, ctx: RouteContext<{ slug: string }>) => {
  const { slug } = await ctx.params;
  const viewer = await apiViewer(request);
  const task = await getTaskForViewer(slug, viewer);
  return jsonResponse({ task: await unarchiveTask(viewer, task.id) });
});
