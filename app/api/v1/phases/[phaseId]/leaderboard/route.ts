/**
 * `GET /api/v1/phases/{phaseId}/leaderboard?metric=…&variant=…&track=…&format=json|csv|latex|markdown&all=1`:
 * the phase's leaderboard, the same table as the leaderboard page (`getLeaderboard`).
 *
 * - `metric`: one of `LEADERBOARD_METRICS` (mentions, muc, bcub, ceafm, ceafe, lea, blanc, the
 *   optional mcf, mor and zero of tasks that compute them, conll; default: the task's primary
 *   metric).
 * - `variant`: rank by one of the secondary variants of the task's evaluation profile (e.g.
 *   `partial`, `exact`, `singletons` for `crac`) instead of its primary setting; absent or
 *   empty = the primary setting; any other value is a 422 naming the allowed ids.
 * - `track`: in a phase with tracks, the track whose board to return (its id or name; absent or
 *   empty = the first track in the phase's order). A track's board ranks the runs declared in
 *   it, with the baselines that have no track as reference rows; other tracks' runs are not on
 *   it. An unknown track, or any track on a phase without tracks, is a 422 on `track` naming
 *   the choices.
 * - `dataset`: on a phase with several datasets, that dataset's own board (its name or id): the
 *   same table read from the dataset's scores (every metric, every variant), a run that left
 *   it out listed with `missing: true` and value 0. An unknown dataset is a 422 on `dataset`
 *   naming the datasets. On a phase with one dataset, its name gives the phase's board.
 * - `rankDataset`: on a phase with several datasets, rank the phase-level (macro-averaged)
 *   board by one dataset (name or id): the run's score on it in the chosen setting and metric,
 *   0 for a run that left it out. Unknown: a 422 on `rankDataset`.
 * - `all=1` (or `allRuns=1`): every public run instead of one per team (selection rule, applied
 *   to the ranked setting).
 * - `format=json` (default): `{task, phase, evaluation: {profile, label, variants: [{id,
 *   label}]}, metric, variant (id or null), tracks: [{id, name, description}] (the phase's, in
 *   order; `[]` without tracks), track ({id, name, description} of this board, or null),
 *   allRuns, tiePolicy, generatedAt, rows: [{rank, value, team, systemName, submissionId,
 *   submittedAt, isBaseline, track ({id, name} or null), paperUrl, codeUrl, goldVersion,
 *   scorerVersion, metrics, variants}]}`, `metrics` (the ranked setting's scores: the
 *   primary setting's, or with `variant` that variant's, `{}` for a run without them) in the
 *   CLI JSON shape, `variants` the same shape per variant id (`{}` for tasks without variants);
 *   `value` is the ranking metric's F1 in the ranked setting. `zeros: {inGold}` says whether
 *   the gold key has zeros for the zero score to count (true / false: the score is 0 of 0 and
 *   means nothing / null: not known yet), read from the stored scores. A phase with several datasets
 *   adds `datasets` ([{id, name, language, scored}]), `dataset`, `rankDataset` and
 *   `zeros.datasets` ({<name>: true | false | null}), and to each
 *   row of the phase-level board `datasets: {<name>: {missing, goldVersion, conllF1}}` (the
 *   dataset's CoNLL F1 in the ranked setting; the scores are the macro-average, counts null), or on a dataset's board `missing`
 *   (`leaderboardJson`); a phase with one dataset has exactly the shape above.
 * - Paging (JSON): `limit` rows (1–500, default 50) after `cursor` (the `page.nextCursor` of
 *   the previous page); `team` keeps the rows whose team name contains it (case-insensitive;
 *   ranks stay the whole board's, and it also filters the CSV). JSON adds `page: {total,
 *   offset, limit, cursor, nextCursor, team, version}`. The CSV has every row, streamed.
 * - `significance=1` (JSON only): the board's stored significance, computed by the worker for
 *   this version of the board (`readBoardSignificance`; no bootstrap runs on a request). When
 *   it is ready: `significance: {status: "ready", computedAt, metric, samples, seed, level}` and
 *   to each row `significance: {versusAbove: {submissionId, delta, pValue, significant} | null,
 *   interval: {lo, hi} | null} | null`; until then `significance: {status: "pending"}` (ask
 *   again shortly) and each row's `significance` null; `{status: "none", reason}` for a board
 *   that has none (hidden until the phase closes). Each ranked run is compared with the
 *   ranked run directly above it, by the paired bootstrap over documents on the board's
 *   metric (two-sided p-values, significant below `level`); null for baselines and unranked
 *   rows. `intervals=1` adds each ranked run's 95 % bootstrap interval of the metric's F1
 *   (it implies `significance=1`). Both need per-document scores, which are stored for the
 *   primary setting only: with `variant` they are a 422. On the macro-averaged board of a phase
 *   with several datasets the bootstrap resamples within each dataset; on a dataset's board (or
 *   ranked by one) it uses that dataset's documents.
 * - `format=csv`: `leaderboardCsv` (columns in `LEADERBOARD_CSV_COLUMNS`, then one
 *   `<variantId>_conll_f1` per variant, on a phase with several datasets
 *   `dataset_<name>_conll_f1` and `dataset_<name>_missing` per dataset (or `missing` on a
 *   dataset's board), then `track`: the run's track name, empty for baselines
 *   without one and in a phase without tracks), `text/csv` with a `Content-Disposition` file
 *   name (the significance parameters are ignored).
 * - `format=latex` and `format=markdown` (tables for the overview paper, `lib/boards/export.ts`): the
 *   same board (every selection parameter above, `team` included), every row in board order
 *   (not paged; `limit` and `cursor` are ignored, as are the significance parameters). LaTeX
 *   (`boardLatex`): `%` comment lines with the task, phase, track, dataset, setting or variant,
 *   ranking metric, which runs and the generation date, then a `tabular` with booktabs rules
 *   (`\toprule`, `\midrule`, `\bottomrule`; needs `\usepackage{booktabs}`). Markdown
 *   (`boardMarkdown`): the same facts in an HTML comment, then a GitHub pipe table. Columns: Rank,
 *   Team, System, then on the phase-level board of a phase with several datasets the
 *   macro-average of the ranking metric and one CoNLL F1 column per dataset (a dataset the run
 *   left out: 0.00 with a dagger and a note), else the ranking metric's F1 and the primary MUC,
 *   B³, CEAFe and CoNLL F1. Scores are percentages with 2 decimals; the best value of each
 *   column among ranked rows is bold (`\textbf{}` / `**…**`; ties all bold); a row without a
 *   rank (baselines, disqualified and other unranked runs, listed where the JSON lists them and
 *   marked after the system's name) or a cell without a score shows `--` (LaTeX) / `–`
 *   (Markdown). Names are escaped (LaTeX: `\ & % $ # _ { } ~ ^`, and `< > |`; Markdown: `|` as
 *   `\|` and the inline-syntax characters). `text/x-tex; charset=utf-8` or `text/markdown;
 *   charset=utf-8`, with a `Content-Disposition` attachment named as the CSV but ending in
 *   `.tex` or `.md`.
 *
 * - Leaderboard policy (issue 11 §2, `getLeaderboard`): JSON adds `policy: {timing, closesAt,
 *   frozenAt, finalRunLimit, ownTeamOnly, freezeApplied, organizerView, final}` and to each row
 *   `selection` ("final", "latest-fallback" or null: TEAM_SELECTED) and `own` (a run of the
 *   caller's team); organizers' rows also `hidden` and `afterFreeze`. Before an "after_close"
 *   phase closes, a caller who does not organize the task gets only their team's runs and the
 *   baselines, unranked (anonymous callers: no rows); on a frozen phase, runs made at or after
 *   `frozenAt` are left out for them; runs hidden by an organizer are left out for them. The
 *   CSV of a TEAM_SELECTED board (one run per team) has a `selection` column, and the
 *   organizers' CSV `hidden` and `after_freeze` columns, before `track`.
 *
 * Caching (issue 26 §1–2): the JSON, LaTeX and Markdown answers carry an `ETag` of what they
 * show (the JSON's `generatedAt` left out), and a request whose `If-None-Match` names it is
 * answered `304 Not Modified` without a body. For a caller without a token or session, whose
 * answer is every anonymous reader's, `Cache-Control: public, max-age=30,
 * stale-while-revalidate=30` (a newly scored run is in every answer within a minute); for
 * signed-in callers `private, no-cache`. `Vary: Authorization, Cookie`. The CSV, streamed, is
 * tagged from its first page, the phase's board version and who asks (`leaderboardCsvDigest`),
 * so a matching `If-None-Match` is answered 304 before any later page is read; its cache rules
 * are the JSON's. The JSON without significance is serialized once per board version and
 * viewer's view of it (`leaderboardJsonText`): only its `generatedAt` is written per answer.
 * Anonymous requests for the same board that arrive while its read runs join that read
 * (`coalesced`) and get the same answer, `generatedAt` included; nothing is kept after it, so a
 * request made after a change is committed always sees it.
 *
 * Visibility is the service's: 401 anonymous caller of a non-public board (or a bad token),
 * 403 signed-in caller who may not see it, 404 unknown phase (or a phase of a draft task the
 * caller does not organize), 422 bad parameter.
 */
import { ValidationError } from "@/lib/errors";
import { ANSWER_VARY, conditionalResponse, etagFor, isNotModified, notModifiedResponse, PRIVATE_ANSWER_CACHE_CONTROL, SHARED_ANSWER_CACHE_CONTROL } from "@/lib/http/conditional-response";
import { apiRoute, apiViewer, NO_STORE_HEADERS, parseQuery, type RouteContext } from "@/lib/http/api";
import { coalesced } from "@/lib/http/coalesced";
import { boardLatex, boardMarkdown, getLeaderboard, leaderboardCsvChunks, leaderboardCsvDigest, leaderboardJson, leaderboardJsonText, readBoardSignificance, type Leaderboard } from "@/lib/boards";
import { LEADERBOARD_PAGE_SIZE, leaderboardBoardOptions, leaderboardPageQuerySchema } from "@/lib/validations/leaderboard-query";

export const dynamic = "force-dynamic";

/**
 * A safe download name: `<task>-<phase>[-<track>][-<dataset>]-<metric>[-<variant>][-by-<dataset>][-all]-leaderboard.<extension>`,
 * ASCII only (extension `csv`, `tex` or `md`).
 */
function boardFileName(board: Leaderboard, extension: "csv" | "tex" | "md"): string {
  const part = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "") || "x";
  const variant = board.variant === null ? "" : `-${part(board.variant)}`;
  const track = board.track === null ? "" : `-${part(board.track.name)}`;
  const dataset = board.dataset === null ? "" : `-${part(board.dataset.name)}`;
  const by = board.rankDataset === null ? "" : `-by-${part(board.rankDataset)}`;
  return `${part(board.task.slug)}-${part(board.phase.name)}${track}${dataset}-${board.metric}${variant}${by}${board.allRuns ? "-all" : ""}-leaderboard.${extension}`;
}

/** The paper tables' formats: builder, content type and file extension. */
const TABLE_FORMATS = {
  latex: { build: boardLatex, contentType: "text/x-tex; charset=utf-8", extension: "tex" },
  markdown: { build: boardMarkdown, contentType: "text/markdown; charset=utf-8", extension: "md" },
} as const;

/** The leaderboard as JSON, CSV, LaTeX or Markdown; see the file comment. */
export const GET = apiRoute("GET /api/v1/phases/:phaseId/leaderboard", async (request: Request, ctx: RouteContext<{ phaseId: string }>) => {
  const { phaseId } = await ctx.params;
  const viewer = await apiViewer(request);
  const query = parseQuery(request, leaderboardPageQuerySchema);
  const { cursor, ...options } = leaderboardBoardOptions(query);
  if (query.format === "csv") {
    // Every row (the team filter applies), streamed page by page; the first page is read here
    // so that a bad parameter is still a 4xx answer.
    const chunks = leaderboardCsvChunks(phaseId, viewer, options);
    const first = await chunks.next();
    const board = first.done ? null : first.value.board;
    const cacheHeaders: Record<string, string> = board
      ? {
          ETag: etagFor(await leaderboardCsvDigest(board, viewer?.userId ?? null)),
          "Cache-Control": viewer === null ? SHARED_ANSWER_CACHE_CONTROL : PRIVATE_ANSWER_CACHE_CONTROL,
          Vary: ANSWER_VARY,
        }
      : NO_STORE_HEADERS;
    if (board && isNotModified(request, cacheHeaders.ETag!)) {
      await chunks.return(undefined);
      return notModifiedResponse(cacheHeaders);
    }
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        if (!first.done) controller.enqueue(encoder.encode(first.value.text));
      },
      async pull(controller) {
        const next = await chunks.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(next.value.text));
      },
      async cancel() {
        await chunks.return(undefined);
      },
    });
    return new Response(body, {
      status: 200,
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="${board ? boardFileName(board, "csv") : "leaderboard.csv"}"`,
        ...cacheHeaders,
      },
    });
  }
  if (query.format === "latex" || query.format === "markdown") {
    // Every row (no limit: the whole board, the team filter applied), for the best values per column.
    const table = TABLE_FORMATS[query.format];
    const whole = await getLeaderboard(phaseId, viewer, options);
    const text = table.build(whole);
    return conditionalResponse(request, text, {
      contentType: table.contentType,
      shared: viewer === null,
      digestOf: withoutGenerationTime(text, whole),
      headers: { "Content-Disposition": `attachment; filename="${boardFileName(whole, table.extension)}"` },
    });
  }
  const pageOptions = { ...options, limit: query.limit ?? LEADERBOARD_PAGE_SIZE, cursor };
  if (!query.significance) {
    // Serialized once per board version (the rows are shared while it holds): only the time is
    // new. Anonymous readers asking for the same board at the same moment share one read.
    const read = async () => leaderboardJsonText(await getLeaderboard(phaseId, viewer, pageOptions));
    const { bytes, digest } = viewer === null ? await coalesced(JSON.stringify(["leaderboard", phaseId, pageOptions]), read) : await read();
    return conditionalResponse(request, bytes, { contentType: "application/json; charset=utf-8", shared: viewer === null, digest });
  }
  const board = await getLeaderboard(phaseId, viewer, pageOptions);
  const intervals = query.intervals;
  if (board.variant !== null) {
    throw ValidationError.field(
      intervals ? "intervals" : "significance",
      "Significance and intervals are computed from per-document scores, which are stored for the primary setting only; leave out variant or significance/intervals.",
    );
  }
  // Stored results only (computed by the worker per board version): no bootstrap here.
  const stored = await readBoardSignificance(board, { intervals, viewerId: viewer?.userId ?? null });
  const json = leaderboardJson(board, stored.status === "ready" ? stored.significance : null);
  if (stored.status === "ready") {
    json.significance = { ...(json.significance as object), status: "ready", computedAt: stored.computedAt };
  } else {
    json.significance = stored.status === "pending" ? { status: "pending" } : { status: "none", reason: stored.reason };
    json.rows = (json.rows as Record<string, unknown>[]).map((row) => ({ ...row, significance: null }));
  }
  return boardJsonResponse(request, json, board, viewer === null);
});

/**
 * A board's answer without its generation time (`generatedAt`, which changes on every request
 * without changing what the answer shows), for its ETag. The time is written once, before the
 * rows (the JSON's `generatedAt`, the tables' "Generated:" comment line), so its first
 * occurrence is the one taken out.
 */
function withoutGenerationTime(text: string, board: Pick<Leaderboard, "generatedAt">): string {
  return text.replace(board.generatedAt.toISOString(), "");
}

/**
 * The board's JSON with an ETag of what it shows (everything but `generatedAt`), answered 304
 * when the caller holds it already; cacheable by shared caches for anonymous callers only (see
 * the file comment).
 */
function boardJsonResponse(request: Request, json: Record<string, unknown>, board: Leaderboard, shared: boolean): Response {
  const text = JSON.stringify(json);
  return conditionalResponse(request, text, { contentType: "application/json; charset=utf-8", shared, digestOf: withoutGenerationTime(text, board) });
}
