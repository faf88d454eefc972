/**
 * `GET /api/v1/submissions/{id}`: one submission as the caller may see it.
 *
 * Auth: bearer token or session cookie; anonymous callers see PUBLIC submissions of
 * leaderboards visible to everyone.
 *
 * Answers 200 with status, metadata, `goldVersion` and `scorerVersion`, and `metrics` (the
 * score JSON of `scoring/score-json.ts`, as the CLI prints it: `{<count metric>: {recall,
 * precision, f1, recall_num, recall_den, precision_num, precision_den}, blanc: {recall,
 * precision, f1, coref_links, noncoref_links}, conll: {f1}}`, the count metrics being mentions,
 * muc, bcub, ceafm, ceafe, lea and, for tasks that compute them, mcf, mor and zero; fractions
 * in [0, 1]) once scored, else null. `evaluation` is the evaluation profile the scores come
 * from (`{profile, label, primary, variants}`, see `lib/tasks/evaluation.ts` RunEvaluation; null
 * until scored) and `warnings` the scorer's warnings from the last scoring (`[{code, message,
 * file?, line?, document?}]`, e.g. `missing-document`, `response-only-document`; `[]` before
 * scoring), for everyone who may see the run; `track` the run's track (`{id, name}`, or null in
 * a phase without tracks and for a baseline without one); `variants` the corpus scores under
 * each secondary variant of `evaluation` (e.g. `partial`, `exact`, `singletons` for CRAC): `{<variant
 * id>: <metrics shape>}`, `{}` before scoring and for a profile without variants, a variant
 * without stored scores absent; `datasets` every dataset of the phase in order (`[{id, name,
 * language, fileName, missing, goldVersion, scores, variants}]`: `fileName` the run's file for
 * it or null when the run left it out (`missing`: it counts 0 in the macro-average),
 * `goldVersion` the dataset's gold version the scores come from, `scores` the dataset's metrics
 * in the shape of `metrics` (with counts), or null, `variants` the dataset's metrics under each
 * variant, `{<variant id>: <metrics shape, with counts>}` (`{}` when left out or not scored));
 * a one-dataset phase has one entry. On a phase with several datasets `metrics` and `variants`
 * are the macro-average over the datasets with a gold key (F1, recall and precision; counts
 * null), `goldVersion` is null, and each warning names its `dataset`. The team
 * and the organizers also get `submitter`, `file`, `attempts` and `error` (when FAILED).
 * 404 when the submission does not exist or the caller may not see it; 401 for a bad token.
 *
 * The answer carries an `ETag` of the run as shown (`Cache-Control: private, no-cache`, `Vary:
 * Authorization, Cookie`): a poller that sends it back in `If-None-Match` gets `304 Not
 * Modified`, without a body, until the run changes (scored, re-scored, withdrawn…).
 */
import { conditionalResponse } from "@/lib/http/conditional-response";
import { apiRoute, apiViewer, type RouteContext } from "@/lib/http/api";
import { getSubmissionForViewer } from "@/lib/runs";

export const dynamic = "force-dynamic";

/** The submission as JSON; see the file comment. */
export const GET = apiRoute("GET /api/v1/submissions/:id", async (request: Request, ctx: RouteContext<{ id: string }>) => {
  const { id } = await ctx.params;
  const viewer = await apiViewer(request);
  const { scores, ...view } = await getSubmissionForViewer(id, viewer);
  // An ETag of the run as shown: a poller asking again with it gets 304 until the run changes.
  return conditionalResponse(request, JSON.stringify({ ...view, metrics: scores }), { contentType: "application/json; charset=utf-8", shared: false });
});
