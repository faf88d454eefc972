/**
 * `GET /api/v1/submissions/{id}/documents/{document}`: one document of a run with its key
 * and response entities and the errors between them (`getDocumentAnalysis`). The document
 * id is URL-encoded as one path segment (`encodeURIComponent`, so a `/` in a CoNLL-2012
 * document name is `%2F`). On a phase with several datasets, `?dataset=<name>` names the
 * dataset holding the document (documents are named within a dataset; without it, the first
 * dataset whose analysis lists the document).
 *
 * Auth: bearer token or session cookie.
 *
 * Answers 200 `{submission, dataset, document: {id, tokens, sentenceStarts}, key, response,
 * missingInResponse, counts, errors, scores, documentIds}` (`dataset`: `{id, name}` on a phase
 * with several datasets, else null; `submission.goldVersion` is that dataset's gold version); entities are lists of mentions
 * `[start, end]` (token indices, end inclusive), `errors` as `[{kind, mentions, keyEntities,
 * responseEntities, responseSpan?, message}]`.
 *
 * 404 when the run, the dataset or the document does not exist, the run is not scored, or the caller may
 * not see the run's error analysis (the task's organizers may; others only where the phase
 * allows participant analysis); 401 for a bad token.
 */
import { apiRoute, apiViewer, jsonResponse, type RouteContext } from "@/lib/http/api";
import { getDocumentAnalysis } from "@/lib/runs";

export const dynamic = "force-dynamic";

/** The document's error view as JSON; see the file comment. */
export const GET = apiRoute(
  "GET /api/v1/submissions/:id/documents/:document",
  async (request: Request, ctx: RouteContext<{ id: string; document: string }>) => {
    // Next decodes each dynamic segment once: `document` is the document id itself.
    const { id, document } = await ctx.params;
    const viewer = await apiViewer(request);
    const dataset = new URL(request.url).searchParams.get("dataset");
    return jsonResponse(await getDocumentAnalysis(viewer, id, document, dataset || null));
  },
);
