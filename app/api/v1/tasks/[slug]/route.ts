/**
 * `GET /api/v1/tasks/{slug}`: one task as the caller sees it on its page. Anyone may read a
 * published or archived task (anonymous callers included); a draft only its organizers and
 * site admins (for anyone else it is a 404, as for an unknown slug).
 *
 * Answers 200 `{"task": {id, slug, title, description, rules, status, publishedAt,
 * archivedAt, primaryMetric, evaluation, dataLicense, dataSource, organizers: [{id, name}],
 * isOrganizer, phases: [...]}}`: `description` and `rules` are markdown; `status` DRAFT |
 * PUBLISHED | ARCHIVED; times ISO 8601 UTC (null when not published or archived); each phase
 * as `GET /api/v1/phases/{phaseId}` gives it (gold metadata for organizers only).
 * Errors: 401 bad token; 404 unknown task, or a draft the caller does not organize.
 *
 * `PATCH /api/v1/tasks/{slug}`: change the task's own fields (its organizers and site admins;
 * bearer token or session cookie). Body (JSON): any subset of `title` (1–200 characters),
 * `description` and `rules` (markdown, at most 100,000 characters; "" clears them),
 * `dataLicense` and `dataSource` (at most 10,000 characters; "" or null clears them).
 * Unknown fields are refused. Audited (`task.update`, each changed field's old and new value).
 *
 * Answers 200 `{"task": {id, slug, title, description, rules, dataLicense, dataSource,
 * status}}` after the change. Errors: 401 anonymous or bad token; 403 not an organizer; 404
 * unknown task (or a draft the caller does not organize); 409 the task is archived
 * (read-only); 413/415/400 body problems; 422 bad or unknown fields (`fieldErrors`).
 */
import { apiRoute, apiViewer, jsonResponse, readJson, type RouteContext } from "@/lib/http/api";
import { getTaskForViewer, updateTask } from "@/lib/tasks";

export const dynamic = "force-dynamic";

/** The task; see the file comment. */
export const GET = apiRoute("GET /api/v1/tasks/:slug", async (request: Request, ctx: RouteContext<{ slug: string }>) => {
  const { slug } = await ctx.params;
  return jsonResponse({ task: await getTaskForViewer(slug, await apiViewer(request)) });
});

/** Changes the task's fields; see the file comment. */
export const PATCH = apiRoute("PATCH /api/v1/tasks/:slug", async (request: Request, ctx: RouteContext<{ slug: string }>) => {
  const { slug } = await ctx.params;
  const viewer = await apiViewer(request);
  const task = await getTaskForViewer(slug, viewer);
  const patch = await readJson(request);
  return jsonResponse({ task: await updateTask(viewer, task.id, patch) });
});
