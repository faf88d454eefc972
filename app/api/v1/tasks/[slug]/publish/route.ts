/**
 * `GET /api/v1/tasks/{slug}/publish`: the task's publishing checklist; `POST`: publish the
 * draft (issue 11 §1). No body. The task's organizers and site admins only (bearer token or
 * session cookie).
 *
 * Publishing makes the draft visible to everyone. It is refused until every check passes:
 * `gold` (every dataset of every phase has an active gold key), `dates` (every phase closes
 * after it opens, a freeze lies within its window, and at least one phase has not closed yet),
 * `description` (not empty). Audited (`task.publish`).
 *
 * Answers: GET 200 `{"status", "publishedAt", "archivedAt", "ready", "checks": [{id, label,
 * ok, detail}]}`; POST 200 `{"task": {status: "PUBLISHED", publishedAt}}`.
 * Errors (JSON `{"error": {"code", "message", ...}}`): 401 anonymous or bad token; 403 not
 * an organizer; 404 unknown task (or a draft the caller does not organize); 409
 * (`conflict`) the task is already published or archived; 422 (`validation`) some checks
 * fail: the message lists them all, and `fieldErrors` has one entry per failed check (`path`
 * is its id, `message` says why).
 */
import { apiRoute, apiViewer, jsonResponse, type RouteContext } from "@/lib/http/api";
import { publishChecks, publishTask, getTaskForViewer } from "@/lib/tasks";

export const dynamic = "force-dynamic";

/** The checklist; see the file comment. */
export const GET = apiRoute("GET /api/v1/tasks/:slug/publish", async (request: Request, ctx: RouteContext<{ slug: string }>) => {
  const { slug } = await ctx.params;
  const viewer = await apiViewer(request);
  const task = await getTaskForViewer(slug, viewer);
  return jsonResponse(await publishChecks(viewer, task.id));
});

/** Publishes the task; see the file comment. */
export const POST = apiRoute("POST /api/v1/tasks/:slug/publish", async (request: Request, ctx: RouteContext<{ slug: string }>) => {
  const { slug } = await ctx.params;
  const viewer = await apiViewer(request);
  const task = await getTaskForViewer(slug, viewer);
  return jsonResponse({ task: await publishTask(viewer, task.id) });
});
