/**
 * The datasets of a phase (issue 10 §1).
 *
 * `GET /api/v1/phases/{phaseId}/datasets`: anyone (anonymous callers included). Answers 200
 * `{"datasets": [{id, phaseId, name, language, fileName, format, position, hasGold}], "organizer":
 * false}` in the phase's order (`language` "" when not given; `fileName` is the name a run's
 * archive holds the dataset's file under; `format` "conll2012" or "conllu"; `hasGold`: it has
 * an active gold key, so it counts in the macro-average). For the task's organizers and site
 * admins, `"organizer": true` and each dataset also has `activeGold` ({version, fileName} or
 * null), `goldVersions` and `runs` (runs with a file for it). 404 unknown phase, 401 bad token.
 *
 * `POST /api/v1/phases/{phaseId}/datasets`: add a dataset (organizers, with an API token or
 * the session cookie). JSON body `{name, language?, fileName, format?, position?}`: `name`
 * matches `^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$`; `fileName` has no folder and ends as the format
 * requires (conllu: `.conllu`; conll2012: `.conll`, `.gold_conll`/`_gold_conll` or `.txt`);
 * `format` defaults to the file name's; `position` defaults to after the last dataset. Names
 * and file names are unique in the phase regardless of case; a task whose evaluation profile
 * matches heads (crac) only takes `conllu`. Re-queues nothing (the dataset has no gold key yet).
 * Audited (`dataset.create`).
 *
 * Answers 201 `{"dataset": {id, phaseId, name, language, fileName, format, position}}` with
 * `Location: /api/v1/phases/{phaseId}/datasets/{id}`. Errors (JSON `{"error": {"code",
 * "message", ...}}`): 401 anonymous or bad token, 403 not an organizer, 404 unknown phase,
 * 413/415/400 body problems, 422 bad fields (`fieldErrors` on `name`, `language`, `fileName`,
 * `format`, `position`).
 */
import { apiRoute, apiViewer, jsonResponse, readJson, type RouteContext } from "@/lib/http/api";
import { addDataset, listDatasetsForViewer } from "@/lib/tasks";

export const dynamic = "force-dynamic";

/** The phase's datasets; see the file comment. */
export const GET = apiRoute("GET /api/v1/phases/:phaseId/datasets", async (request: Request, ctx: RouteContext<{ phaseId: string }>) => {
  const { phaseId } = await ctx.params;
  return jsonResponse(await listDatasetsForViewer(await apiViewer(request), phaseId));
});

/** Adds a dataset; see the file comment. */
export const POST = apiRoute("POST /api/v1/phases/:phaseId/datasets", async (request: Request, ctx: RouteContext<{ phaseId: string }>) => {
  const { phaseId } = await ctx.params;
  const viewer = await apiViewer(request);
  const input = await readJson(request);
  const dataset = await addDataset(viewer, phaseId, input);
  return jsonResponse({ dataset }, { status: 201, headers: { Location: `/api/v1/phases/${dataset.phaseId}/datasets/${dataset.id}` } });
});
