/**
 * `GET /api/v1/submissions/{id}` (issue 24 §1): the run's scores under each secondary variant of
 * its evaluation profile, at the phase level (`variants`) and per dataset (`datasets[].variants`),
 * equal to the stored Score and DatasetScore rows; and the run page's table of them. Runs are
 * scored by the worker's `scoreSubmission` against CorefUD keys (a CRAC task with two datasets)
 * and a CoNLL-2012 key (no variants); requests go to the route handler Next's router would pick
 * (`callApi`), the page is its server component rendered to HTML for an anonymous visitor.
 */
import { describe, expect, it, vi } from "vitest";

// Vitest project: site-app (its test doubles: app/api/v1/test-doubles.setup.ts).

import { renderToReadableStream } from "react-dom/server";
import SubmissionPage from "@/app/submissions/[id]/page";
import { useTestDatabase } from "@/lib/db/test-db";
import { macroScoresToJson, scoresToJson } from "@/lib/boards/scores";
import { createPhase, createRun, KEY, KEY_CONLLU, RESPONSE, RESPONSE_CONLLU } from "@/lib/worker/scoring-job.fixtures";
import { callApi, expectJson, scoreRun, withCookies } from "../../test-helpers";

const testDb = useTestDatabase();

type Metrics = Record<string, { f1: number; recall_num?: number | null }>;
type RunJson = {
  metrics: Metrics | null;
  variants: Record<string, Metrics>;
  evaluation: { variants: { id: string }[] } | null;
  datasets: { name: string; missing: boolean; scores: Metrics | null; variants: Record<string, Metrics> }[];
};

/** A task's phase as `createPhase` makes it, published, with one run scored by the worker (`files`: dataset index → text). */
async function scoredRun(options: Parameters<typeof createPhase>[1], files: (f: Awaited<ReturnType<typeof createPhase>>) => { datasetId: string; text: string }[]) {
  const f = await createPhase(testDb.prisma, options);
  await testDb.prisma.task.update({ where: { id: f.taskId }, data: { status: "PUBLISHED", publishedAt: new Date() } });
  const id = await createRun(testDb.prisma, f, files(f));
  await scoreRun(id);
  return { f, id };
}

/** The run page as HTML for an anonymous visitor. */
async function runPageHtml(id: string): Promise<string> {
  return withCookies(null, async () => {
    const element = await SubmissionPage({ params: Promise.resolve({ id }), searchParams: Promise.resolve({}) });
    const stream = await renderToReadableStream(element);
    await stream.allReady;
    return new Response(stream).text();
  });
}

describe("GET /api/v1/submissions/{id}: variant scores (issue 24 §1)", () => {
  it("a CRAC run: variants at the phase level (macro-average) and per dataset (with counts), as stored, in the profile's order; a left-out dataset has none", async () => {
    const { f, id } = await scoredRun({ evaluationProfile: "crac", datasets: [{ name: "cs", gold: KEY_CONLLU }, { name: "en", gold: KEY_CONLLU }] }, (p) => [
      { datasetId: p.datasets![0]!.id, text: RESPONSE_CONLLU },
    ]);
    const run = await expectJson<RunJson>(await callApi("GET", `/api/v1/submissions/${id}`));
    const ids = run.evaluation!.variants.map((v) => v.id);
    expect(ids).toEqual(["partial", "exact", "singletons"]);

    const scores = await testDb.prisma.score.findMany({ where: { submissionId: id } });
    const datasetScores = await testDb.prisma.datasetScore.findMany({ where: { submissionId: id } });
    const [cs, en] = f.datasets!;
    // Phase level: each variant's macro-averaged rows; the primary setting stays under `metrics`.
    expect(Object.keys(run.variants)).toEqual(ids);
    for (const v of ids) expect(run.variants[v], v).toEqual(JSON.parse(JSON.stringify(macroScoresToJson(scores.filter((r) => r.variant === v)))));
    expect(run.metrics).toEqual(JSON.parse(JSON.stringify(macroScoresToJson(scores.filter((r) => r.variant === "")))));

    // Per dataset: cs has each variant's own scores, with counts, not the primary ones.
    expect(run.datasets.map((d) => [d.name, d.missing])).toEqual([
      ["cs", false],
      ["en", true],
    ]);
    const csJson = run.datasets[0]!;
    expect(Object.keys(csJson.variants)).toEqual(ids);
    for (const v of ids) expect(csJson.variants[v], v).toEqual(scoresToJson(datasetScores.filter((r) => r.datasetId === cs!.id && r.variant === v)));
    expect(typeof csJson.variants.partial!.muc!.recall_num).toBe("number");
    expect(Math.abs(csJson.variants.partial!.conll!.f1 - csJson.scores!.conll!.f1)).toBeGreaterThan(0.001);
    // The macro-average over two datasets, en counting 0.
    expect(run.variants.partial!.conll!.f1).toBeCloseTo(csJson.variants.partial!.conll!.f1 / 2, 12);
    expect(run.datasets[1]).toMatchObject({ name: "en", scores: null, variants: {} });
    expect(datasetScores.some((r) => r.datasetId === en!.id)).toBe(false);

    // The run page: a row per setting on cs, one for the left-out en, and the macro-average.
    const html = await runPageHtml(id);
    expect(html).toContain('data-testid="run-variant-scores"');
    const rows = [...html.matchAll(/data-testid="run-variant-row" data-dataset="([^"]*)"(?: data-setting="([^"]*)")?/g)].map((m) => [m[1], m[2] ?? null]);
    expect(rows).toEqual([
      ["cs", ""],
      ["cs", "partial"],
      ["cs", "exact"],
      ["cs", "singletons"],
      ["en", null],
      ["", ""],
      ["", "partial"],
      ["", "exact"],
      ["", "singletons"],
    ]);
    expect(html).toContain("missing — counts as 0");
  });

  it("a CoNLL-2012 run has no variants: {} at the phase level and per dataset, and no variant table on its page", async () => {
    const { id } = await scoredRun({ gold: KEY }, (p) => [{ datasetId: p.datasetId!, text: RESPONSE }]);
    const run = await expectJson<RunJson>(await callApi("GET", `/api/v1/submissions/${id}`));
    expect(run.metrics!.conll!.f1).toBeGreaterThan(0);
    expect(run.variants).toEqual({});
    expect(run.datasets.map((d) => d.variants)).toEqual([{}]);
    const html = await runPageHtml(id);
    expect(html).toContain('data-testid="score-provenance"');
    expect(html).not.toContain('data-testid="run-variant-scores"');
  });

  it("carries an ETag of the run as shown: 304 while the run is unchanged, a new answer once it is scored; never for shared caches", async () => {
    const f = await createPhase(testDb.prisma, { gold: KEY });
    await testDb.prisma.task.update({ where: { id: f.taskId }, data: { status: "PUBLISHED", publishedAt: new Date() } });
    const id = await createRun(testDb.prisma, f, [{ datasetId: f.datasetId!, text: RESPONSE }]);
    const queued = await callApi("GET", `/api/v1/submissions/${id}`);
    expect(queued.status).toBe(200);
    expect(queued.headers.get("cache-control")).toBe("private, no-cache");
    const tag = queued.headers.get("etag")!;
    expect(tag).toMatch(/^"[0-9a-f]{64}"$/);
    const unchanged = await callApi("GET", `/api/v1/submissions/${id}`, { headers: { "If-None-Match": tag } });
    expect(unchanged.status).toBe(304);
    expect(await unchanged.text()).toBe("");
    await scoreRun(id);
    const scored = await callApi("GET", `/api/v1/submissions/${id}`, { headers: { "If-None-Match": tag } });
    expect(scored.status).toBe(200);
    expect(scored.headers.get("etag")).not.toBe(tag);
    expect(((await scored.json()) as { status: string; metrics: Metrics | null }).metrics?.conll?.f1).toBeGreaterThan(0);
  });
});
