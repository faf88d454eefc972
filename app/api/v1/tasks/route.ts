/**
 * `GET /api/v1/tasks`: the tasks the caller may see, with their phases. Anyone, anonymous
 * callers included (bearer token or session cookie optional).
 *
 * Published and archived tasks are listed to everyone; drafts only to their organizers (site
 * admins: every draft). Newest first, archived tasks after the others.
 *
 * Answers 200 `{"tasks": [{id, slug, title, status, phases: [{id, name, opensAt, closesAt,
 * open}]}]}` (`status` DRAFT | PUBLISHED | ARCHIVED; times ISO 8601 UTC; `open` = accepting
 * submissions now). 401 for a bad token.
 */
import { apiRoute, apiViewer, jsonResponse } from "@/lib/http/api";
import { listTasksForViewer } from "@/lib/tasks";

export const dynamic = "force-dynamic";

/** The task list; see the file comment. */
export const GET = apiRoute("GET /api/v1/tasks", async (request: Request, _ctx: unknown) => {
  const viewer = await apiViewer(request);
  return jsonResponse({ tasks: await listTasksForViewer(viewer) });
});
