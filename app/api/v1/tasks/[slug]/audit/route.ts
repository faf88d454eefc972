/**
 * `GET /api/v1/tasks/{slug}/audit`: the task's audit log, newest first, for its organizers
 * and site admins (bearer token or session cookie).
 *
 * Query (all optional): `action` (an exact action name such as `phase.update`), `actor` (a
 * user id, or a substring of the actor's email), `from` and `to` (`YYYY-MM-DD` in UTC, `to`
 * including that whole day, or ISO 8601 times: `from` inclusive, `to` exclusive), `before`
 * (the `next` cursor of the previous page).
 *
 * Answers 200 `{"events": [{id, actor: {id, name, email} | null, action, target: {type, id,
 * label}, at, data}], "next": cursor | null}`: at most 50 events; `at` is ISO 8601 UTC;
 * `data` is what the event recorded (for `*.update` events, `changes: {field: {from, to}}`);
 * `actor` is null for system actions and deleted accounts; `next` is null on the last page.
 * Errors: 401 no or bad token; 403 not an organizer of the task; 404 unknown task; 422 an
 * unknown action, a date that does not parse, `from` after `to`, or a bad cursor.
 */
import { apiRoute, apiViewer, jsonResponse, type RouteContext } from "@/lib/http/api";
import { listTaskAuditEvents, parseAuditQuery } from "@/lib/audit";

export const dynamic = "force-dynamic";

/** One page of the task's audit log; see the file comment. */
export const GET = apiRoute("GET /api/v1/tasks/:slug/audit", async (request: Request, ctx: RouteContext<{ slug: string }>) => {
  const { slug } = await ctx.params;
  const viewer = await apiViewer(request);
  const query = new URL(request.url).searchParams;
  const filters = parseAuditQuery({
    action: query.get("action"),
    actor: query.get("actor"),
    from: query.get("from"),
    to: query.get("to"),
    before: query.get("before"),
  });
  return jsonResponse(await listTaskAuditEvents(viewer, slug, filters));
});
