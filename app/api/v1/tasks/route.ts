/**
 * `GET /api/v1/tasks`: the tasks the caller may see, with their phases.
 *
 * Answers 200 `{"tasks": [{id, slug, title, phases: [{id, name, opensAt, closesAt, open}]}]}`
 * (times ISO 8601 UTC; `open` = accepting submissions now). 401 for a bad token.
 */
import { apiRoute, apiViewer, jsonResponse } from "../../../../lib/http";
import { listTasksForViewer } from "../../../../lib/services/tasks";

export const dynamic = "force-dynamic";

/** The task list; see the file comment. */
export const GET = apiRoute("GET /api/v1/tasks", async (request: Request, _ctx: unknown) => {
  const viewer = await apiViewer(request);
  return jsonResponse({ tasks: await listTasksForViewer(viewer) });
});
