/**
 * Leaderboards and tasks over the API (moved here from e2e/api-leaderboard.spec.ts by issue 22):
 * the JSON and CSV of `GET /api/v1/phases/{id}/leaderboard`; leaderboard visibility (PUBLIC,
 * PARTICIPANTS and ORGANIZERS in turn, set by an organizer with `PATCH /api/v1/phases/{id}`,
 * for anonymous visitors, a signed-in non-participant, a participant and an organizer, on the
 * API and on the leaderboard page); the authorization and validation of that PATCH; and `GET
 * /api/v1/tasks`.
 *
 * Each request goes to the handler Next's router would pick for its path (`callApi` in
 * ../../../test-helpers.ts), with real API tokens and next-auth session cookies, against the
 * file's test database. Runs are uploaded through the submissions route and scored by calling
 * the worker's `scoreSubmission`; the queue is the test double (lib/__mocks__/queue.ts, with
 * `enqueueSignificance`, which the page calls, as a vi.fn too). The leaderboard page is the
 * page's own server component, rendered to HTML with react-dom/server for the viewer's cookie.
 */
import { describe, expect, it, vi } from "vitest";

// lib/__mocks__/queue.ts (enqueueScoring is a vi.fn; runs are scored below, in this process),
// and the significance queue the leaderboard page asks when a board has no stored significance.
vi.mock("../../../../../../lib/queue", async () => ({ ...(await import("../../../../../../lib/__mocks__/queue")), enqueueSignificance: vi.fn(async () => {}) }));
// The session cookie: `cookies()` gives the cookies of the request being handled.
vi.mock("next/headers", async () => (await import("../../../test-helpers")).nextHeadersDouble);

import { renderToReadableStream } from "react-dom/server";
import LeaderboardPage from "../../../../../tasks/[slug]/phases/[phaseId]/leaderboard/page";
import { useTestDatabase } from "../../../../../../lib/db/test-db";
import { callApi, closedPhase, expectError, expectJson, openPhase, scoreRun, sessionCookie, setupScenario, SMALL_KEY, SMALL_RESPONSE, withCookies } from "../../../test-helpers";

const testDb = useTestDatabase();

/** Uploads SMALL_RESPONSE (or `text`) through the submissions route and scores it as the worker would. */
async function submitScored(phaseId: string, token: string, systemName: string, text = SMALL_RESPONSE): Promise<string> {
  const { id } = await expectJson<{ id: string }>(
    await callApi("POST", `/api/v1/phases/${phaseId}/submissions`, { token, multipart: { systemName, file: { name: "out.conll", content: text } } }),
    202,
  );
  await scoreRun(id);
  return id;
}

/**
 * The leaderboard page (`/tasks/{slug}/phases/{phaseId}/leaderboard`) as HTML, rendered for the
 * holder of the session cookie (null: anonymous).
 *
 * @throws whatever the page throws (Next would answer an error page, or 404 for `notFound()`)
 */
async function leaderboardPageHtml(slug: string, phaseId: string, cookie: string | null): Promise<string> {
  return withCookies(cookie, async () => {
    const element = await LeaderboardPage({ params: Promise.resolve({ slug, phaseId }), searchParams: Promise.resolve({}) });
    const stream = await renderToReadableStream(element);
    await stream.allReady;
    return new Response(stream).text();
  });
}

describe("GET /api/v1/phases/{id}/leaderboard", () => {
  it("leaderboard JSON and CSV: the page's table, tie policy, metric choice, all runs", async () => {
    const scenario = await setupScenario(testDb.prisma, {
      users: { boardA: { token: true }, boardB: { token: true } },
      task: { primaryMetric: "muc", gold: [{ phase: "test", text: SMALL_KEY }] },
    });
    const task = scenario.task!;
    const phaseId = task.phases.test!.id;
    const [tokenA, tokenB] = [scenario.users.boardA.token!, scenario.users.boardB.token!];
    const first = await submitScored(phaseId, tokenA, "=Formula System");
    const second = await submitScored(phaseId, tokenA, "Same Again");
    const perfect = await submitScored(phaseId, tokenB, "Perfect", SMALL_KEY);

    const response = await callApi("GET", `/api/v1/phases/${phaseId}/leaderboard`);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const board = await expectJson<{
      metric: string;
      allRuns: boolean;
      tiePolicy: string;
      task: { slug: string };
      phase: { id: string; selectionRule: string };
      rows: { rank: number; value: number; submissionId: string; systemName: string; team: { name: string }; metrics: Record<string, { f1: number }> }[];
    }>(response);
    expect(board).toMatchObject({ metric: "muc", allRuns: false, task: { slug: task.slug }, phase: { id: phaseId, selectionRule: "BEST" } });
    expect(board.tiePolicy).toContain("share a rank");
    // One row per team (BEST): the perfect run first, then team A's earlier run of the tie.
    expect(board.rows.map((r) => [r.rank, r.submissionId])).toEqual([
      [1, perfect],
      [2, first],
    ]);
    expect(board.rows[0]!.value).toBe(1);
    expect(board.rows[0]!.metrics.conll!.f1).toBe(1);

    const all = await expectJson<typeof board>(await callApi("GET", `/api/v1/phases/${phaseId}/leaderboard?all=1&metric=mentions`));
    expect(all).toMatchObject({ metric: "mentions", allRuns: true });
    // Ties share a rank; the earlier submission is listed first.
    expect(all.rows.map((r) => [r.rank, r.submissionId])).toEqual([
      [1, perfect],
      [2, first],
      [2, second],
    ]);

    const csv = await callApi("GET", `/api/v1/phases/${phaseId}/leaderboard?format=csv&all=1&metric=mentions`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(csv.headers.get("content-disposition")).toBe(`attachment; filename="${task.slug}-test-mentions-all-leaderboard.csv"`);
    const lines = (await csv.text()).trimEnd().split("\r\n");
    expect(lines[0]).toMatch(/^rank,team,system,submission_id,submitted_at,is_baseline,gold_version,scorer_version,mentions_recall,/);
    expect(lines).toHaveLength(4);
    expect(lines[1]).toContain(perfect);
    // CSV injection: a system name starting with "=" is quoted as text.
    expect(lines[2]).toContain("'=Formula System");

    for (const bad of ["metric=nope", "format=xml"]) {
      await expectError(await callApi("GET", `/api/v1/phases/${phaseId}/leaderboard?${bad}`), 422, "validation");
    }
    expect((await callApi("GET", `/api/v1/phases/00000000-0000-4000-8000-000000000000/leaderboard`)).status).toBe(404);
  });

  it("leaderboard visibility: PUBLIC, PARTICIPANTS, ORGANIZERS for each kind of viewer, API and page", async () => {
    const scenario = await setupScenario(testDb.prisma, {
      users: { organizer: { token: true }, participant: { token: true }, outsider: { token: true } },
      task: { organizers: ["organizer"], gold: [{ phase: "test", text: SMALL_KEY, as: "organizer" }] },
    });
    const task = scenario.task!;
    const phaseId = task.phases.test!.id;
    const { organizer, participant, outsider } = scenario.users;
    const systemName = `Visible System ${task.slug}`;
    const submissionId = await submitScored(phaseId, participant.token!, systemName);

    const cookies = {
      anonymous: null,
      outsider: await sessionCookie(testDb.prisma, outsider.id),
      participant: await sessionCookie(testDb.prisma, participant.id),
      organizer: await sessionCookie(testDb.prisma, organizer.id),
    };
    const tokens = { anonymous: null, outsider: outsider.token!, participant: participant.token!, organizer: organizer.token! };
    type Who = keyof typeof cookies;
    const expected: Record<string, Record<Who, number>> = {
      PUBLIC: { anonymous: 200, outsider: 200, participant: 200, organizer: 200 },
      PARTICIPANTS: { anonymous: 401, outsider: 403, participant: 200, organizer: 200 },
      ORGANIZERS: { anonymous: 401, outsider: 403, participant: 403, organizer: 200 },
    };

    for (const visibility of ["PUBLIC", "PARTICIPANTS", "ORGANIZERS"] as const) {
      const patched = await callApi("PATCH", `/api/v1/phases/${phaseId}`, { token: organizer.token, json: { leaderboardVisibility: visibility } });
      expect((await expectJson<{ phase: { leaderboardVisibility: string } }>(patched)).phase.leaderboardVisibility).toBe(visibility);

      for (const who of Object.keys(cookies) as Who[]) {
        const status = expected[visibility]![who];
        const label = `${visibility} / ${who}`;
        const cookie = cookies[who];
        const token = tokens[who];
        // API through the session cookie (or none), and through the bearer token.
        const viaCookie = await callApi("GET", `/api/v1/phases/${phaseId}/leaderboard`, { cookie });
        expect(viaCookie.status, `${label} (cookie)`).toBe(status);
        if (status === 200) {
          const rows = ((await viaCookie.json()) as { rows: { systemName: string }[] }).rows;
          expect(rows.map((r) => r.systemName), label).toEqual([systemName]);
        } else {
          const body = (await viaCookie.json()) as { error: { code: string; message: string } };
          expect(body.error.code, label).toBe(status === 401 ? "unauthorized" : "forbidden");
          expect(body.error.message).not.toContain(systemName);
        }
        expect((await callApi("GET", `/api/v1/phases/${phaseId}/leaderboard?format=csv`, { cookie })).status, `${label} csv`).toBe(status);
        if (token) expect((await callApi("GET", `/api/v1/phases/${phaseId}/leaderboard`, { token })).status, `${label} (bearer)`).toBe(status);

        // The run itself: its team and the organizers always; others only with the board.
        const run = await callApi("GET", `/api/v1/submissions/${submissionId}`, { cookie });
        const runStatus = who === "participant" || who === "organizer" ? 200 : status === 200 ? 200 : 404;
        expect(run.status, `${label} submission`).toBe(runStatus);

        // The page shows the run exactly to those who may see the board (the others get its refusal).
        const html = await leaderboardPageHtml(task.slug, phaseId, cookie);
        if (status === 200) {
          expect(html, `${label} page shows the run`).toContain(systemName);
          expect(html, `${label} page`).not.toContain('data-testid="board-denied"');
        } else {
          expect(html, `${label} page hides the run`).not.toContain(systemName);
          expect(html, `${label} page says why`).toContain('data-testid="board-denied"');
        }
      }
    }
  });
});

describe("PATCH /api/v1/phases/{id}", () => {
  it("organizers only, validated, JSON errors", async () => {
    const scenario = await setupScenario(testDb.prisma, {
      users: { organizer: { token: true }, other: { token: true } },
      task: { phases: [openPhase("test"), closedPhase("closed")], organizers: ["organizer"] },
    });
    const phaseId = scenario.task!.phases.test!.id;
    const [organizerToken, otherToken] = [scenario.users.organizer.token!, scenario.users.other.token!];
    const url = `/api/v1/phases/${phaseId}`;

    expect((await callApi("PATCH", url, { json: { dailyLimit: 3 } })).status).toBe(401);
    await expectError(await callApi("PATCH", url, { token: otherToken, json: { dailyLimit: 3 } }), 403, "forbidden");
    expect((await callApi("PATCH", "/api/v1/phases/00000000-0000-4000-8000-000000000000", { token: organizerToken, json: {} })).status).toBe(404);

    const bad = await expectError(await callApi("PATCH", url, { token: organizerToken, json: { leaderboardVisibility: "EVERYONE", secret: 1 } }), 422, "validation");
    expect((bad.fieldErrors as unknown[]).length).toBeGreaterThan(0);
    const notJson = await callApi("PATCH", url, { token: organizerToken, headers: { "Content-Type": "text/plain" }, body: "dailyLimit=3" });
    expect(notJson.status).toBe(415);
    const malformed = await callApi("PATCH", url, { token: organizerToken, headers: { "Content-Type": "application/json" }, body: "{not json" });
    expect(malformed.status).toBe(400);
    const backwards = await callApi("PATCH", url, { token: organizerToken, json: { closesAt: "2000-01-01T00:00:00Z" } });
    expect(backwards.status).toBe(422);

    const ok = await callApi("PATCH", url, { token: organizerToken, json: { dailyLimit: 3, selectionRule: "LATEST" } });
    expect(ok.headers.get("cache-control")).toBe("no-store");
    expect((await expectJson<{ phase: unknown }>(ok)).phase).toMatchObject({ id: phaseId, dailyLimit: 3, selectionRule: "LATEST", leaderboardVisibility: "PUBLIC" });
  });
});

describe("GET /api/v1/tasks", () => {
  it("lists tasks with their phases and whether they are open", async () => {
    const scenario = await setupScenario(testDb.prisma, { users: { lister: { token: true } }, task: { phases: [openPhase("test"), closedPhase("closed")] } });
    const task = scenario.task!;
    const anonymous = await callApi("GET", "/api/v1/tasks");
    expect(anonymous.headers.get("cache-control")).toBe("no-store");
    const { tasks } = await expectJson<{ tasks: { id: string; slug: string; title: string; phases: { id: string; name: string; opensAt: string; closesAt: string; open: boolean }[] }[] }>(anonymous);
    const found = tasks.find((t) => t.slug === task.slug);
    expect(found).toMatchObject({ id: task.id, title: task.title });
    const byName = Object.fromEntries(found!.phases.map((p) => [p.name, p]));
    expect(byName.test).toMatchObject({ id: task.phases.test!.id, open: true, opensAt: expect.stringMatching(/Z$/), closesAt: expect.stringMatching(/Z$/) });
    expect(byName.closed).toMatchObject({ id: task.phases.closed!.id, open: false });
    expect(Object.keys(byName.test!).sort()).toEqual(["closesAt", "id", "name", "open", "opensAt"]);

    expect((await callApi("GET", "/api/v1/tasks", { token: scenario.users.lister.token })).status).toBe(200);
    expect((await callApi("GET", "/api/v1/tasks", { headers: { Authorization: "Bearer cfb_bogus" } })).status).toBe(401);
  });
});

describe("GET /api/v1/phases/{id}/leaderboard: metrics of the ranked setting, and the gold's zeros (issue 24 §1)", () => {
  /**
   * A published CRAC task (primary setting and the partial, exact and singletons variants)
   * whose phase has two CorefUD datasets: `cs` with a key that has a zero anaphor, `en` with the
   * same key without its one zero (the empty node 5.1 of d1: a key that has none); one run,
   * scored by the worker, with the CRAC response on `cs` and the `en` key itself on `en`.
   */
  async function cracPhase() {
    const { conllu, createPhase, createRun, KEY_CONLLU, KEY_CONLLU_DOCS, RESPONSE_CONLLU } = await import("../../../../../../lib/worker/scoring-job.fixtures");
    const withoutZeros = conllu(...KEY_CONLLU_DOCS.map(([name, sentences]) => [name, sentences.map(([id, rows]) => [id, rows.filter((row) => !row.startsWith("5.1\t"))])] as (typeof KEY_CONLLU_DOCS)[number]));
    const f = await createPhase(testDb.prisma, {
      evaluationProfile: "crac",
      datasets: [
        { name: "cs", gold: KEY_CONLLU },
        { name: "en", gold: withoutZeros },
      ],
    });
    await testDb.prisma.task.update({ where: { id: f.taskId }, data: { status: "PUBLISHED", publishedAt: new Date() } });
    const [cs, en] = f.datasets!;
    const run = await createRun(testDb.prisma, f, [
      { datasetId: cs!.id, text: RESPONSE_CONLLU },
      { datasetId: en!.id, text: withoutZeros },
    ]);
    await scoreRun(run);
    return { phaseId: f.phaseId, run };
  }

  type Metrics = Record<string, { f1: number; recall_den?: number | null }>;
  type Board = { variant: string | null; zeros: { inGold: boolean | null; datasets?: Record<string, boolean | null> }; rows: { submissionId: string; value: number; metrics: Metrics; variants: Record<string, Metrics> }[] };

  it("with ?variant=, each row's metrics are that variant's scores (value = its F1), on the macro-averaged board, a dataset's board and in the CSV", async () => {
    const { phaseId, run } = await cracPhase();
    const primary = await expectJson<Board>(await callApi("GET", `/api/v1/phases/${phaseId}/leaderboard`));
    const partial = await expectJson<Board>(await callApi("GET", `/api/v1/phases/${phaseId}/leaderboard?variant=partial`));
    expect(partial.variant).toBe("partial");
    const [p] = partial.rows;
    expect(p!.submissionId).toBe(run);
    expect(p!.metrics).toEqual(p!.variants.partial);
    expect(p!.metrics.conll!.f1).toBe(p!.value);
    // Not the primary setting's numbers (the CRAC response scores differently under partial match).
    expect(Math.abs(p!.metrics.conll!.f1 - primary.rows[0]!.metrics.conll!.f1)).toBeGreaterThan(0.001);
    expect(primary.rows[0]!.metrics.conll!.f1).toBe(primary.rows[0]!.value);

    // A dataset's board: the variant's scores on it, with counts.
    const cs = await expectJson<Board>(await callApi("GET", `/api/v1/phases/${phaseId}/leaderboard?dataset=cs&variant=exact&metric=muc`));
    expect(cs.rows[0]!.metrics).toEqual(cs.rows[0]!.variants.exact);
    expect(cs.rows[0]!.metrics.muc!.f1).toBe(cs.rows[0]!.value);
    expect(typeof cs.rows[0]!.metrics.muc!.recall_den).toBe("number");

    // The CSV's metric columns follow the variant too.
    const csv = await callApi("GET", `/api/v1/phases/${phaseId}/leaderboard?format=csv&variant=partial`);
    const [header, line] = (await csv.text()).trimEnd().split("\r\n").map((l) => l.split(","));
    const cell = (name: string) => Number(line![header!.indexOf(name)]);
    expect(cell("conll_f1")).toBe(p!.metrics.conll!.f1);
    expect(cell("partial_conll_f1")).toBe(p!.metrics.conll!.f1);
    expect(cell("muc_f1")).toBe(p!.metrics.muc!.f1);
  });

  it("zeros: {inGold, datasets} from the stored zero scores: the cs key has a zero anaphor, the en key none; unknown without a zero score", async () => {
    const { phaseId } = await cracPhase();
    const board = await expectJson<Board>(await callApi("GET", `/api/v1/phases/${phaseId}/leaderboard`));
    expect(board.zeros).toEqual({ inGold: true, datasets: { cs: true, en: false } });
    expect((await expectJson<Board>(await callApi("GET", `/api/v1/phases/${phaseId}/leaderboard?dataset=en`))).zeros.inGold).toBe(false);
    expect((await expectJson<Board>(await callApi("GET", `/api/v1/phases/${phaseId}/leaderboard?dataset=cs&variant=partial`))).zeros.inGold).toBe(true);

    // A CoNLL-2012 task computes no zero score: not known, and no dataset facts on its one dataset.
    const scenario = await setupScenario(testDb.prisma, { users: { zeroless: { token: true } }, task: { gold: [{ phase: "test", text: SMALL_KEY }] } });
    const conllPhase = scenario.task!.phases.test!.id;
    await submitScored(conllPhase, scenario.users.zeroless.token!, "No zeros");
    expect((await expectJson<Board>(await callApi("GET", `/api/v1/phases/${conllPhase}/leaderboard`))).zeros).toEqual({ inGold: null });
  });
});
