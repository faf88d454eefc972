/**
 * Leaderboards and tasks over the API: the JSON and CSV of `GET /api/v1/phases/{id}/leaderboard`,
 * leaderboard visibility (acceptance item: PUBLIC, PARTICIPANTS and ORGANIZERS in turn, set
 * by an organizer with `PATCH /api/v1/phases/{id}`, for anonymous visitors, a signed-in
 * non-participant, a participant and an organizer, on the API and on the leaderboard page),
 * the authorization of that PATCH, and `GET /api/v1/tasks`.
 */
import { expect, test, type APIRequestContext } from "@playwright/test";
import { anonymousContext, bearer, signedInContext } from "./helpers/accounts";
import { setupScenario } from "./helpers/scenario";
import { closedPhase, openPhase, postRun, SMALL_KEY, SMALL_RESPONSE, waitScored } from "./helpers/tasks";

/** Uploads SMALL_RESPONSE (or `text`) and waits until the worker has scored it. */
async function submitScored(request: APIRequestContext, phaseId: string, token: string, systemName: string, text = SMALL_RESPONSE): Promise<string> {
  const id = await postRun(request, phaseId, token, text, systemName);
  await waitScored(request, id, token);
  return id;
}

test("leaderboard JSON and CSV: the page's table, tie policy, metric choice, all runs", async ({ request }) => {
  const scenario = await setupScenario({
    users: { boardA: { token: true }, boardB: { token: true } },
    task: { primaryMetric: "muc", gold: [{ phase: "test", text: SMALL_KEY }] },
  });
  const task = scenario.task!;
  const phaseId = task.phases.test!.id;
  const [tokenA, tokenB] = [scenario.users.boardA.token!, scenario.users.boardB.token!];
  const first = await submitScored(request, phaseId, tokenA, "=Formula System");
  const second = await submitScored(request, phaseId, tokenA, "Same Again");
  const perfect = await submitScored(request, phaseId, tokenB, "Perfect", SMALL_KEY);

  const response = await request.get(`/api/v1/phases/${phaseId}/leaderboard`);
  expect(response.status()).toBe(200);
  expect(response.headers()["cache-control"]).toBe("no-store");
  const board = (await response.json()) as {
    metric: string;
    allRuns: boolean;
    tiePolicy: string;
    task: { slug: string };
    phase: { id: string; selectionRule: string };
    rows: { rank: number; value: number; submissionId: string; systemName: string; team: { name: string }; metrics: Record<string, { f1: number }> }[];
  };
  expect(board).toMatchObject({ metric: "muc", allRuns: false, task: { slug: task.slug }, phase: { id: phaseId, selectionRule: "BEST" } });
  expect(board.tiePolicy).toContain("share a rank");
  // One row per team (BEST): the perfect run first, then team A's earlier run of the tie.
  expect(board.rows.map((r) => [r.rank, r.submissionId])).toEqual([
    [1, perfect],
    [2, first],
  ]);
  expect(board.rows[0]!.value).toBe(1);
  expect(board.rows[0]!.metrics.conll!.f1).toBe(1);

  const all = (await (await request.get(`/api/v1/phases/${phaseId}/leaderboard?all=1&metric=mentions`)).json()) as typeof board;
  expect(all).toMatchObject({ metric: "mentions", allRuns: true });
  // Ties share a rank; the earlier submission is listed first.
  expect(all.rows.map((r) => [r.rank, r.submissionId])).toEqual([
    [1, perfect],
    [2, first],
    [2, second],
  ]);

  const csv = await request.get(`/api/v1/phases/${phaseId}/leaderboard?format=csv&all=1&metric=mentions`);
  expect(csv.status()).toBe(200);
  expect(csv.headers()["content-type"]).toBe("text/csv; charset=utf-8");
  expect(csv.headers()["content-disposition"]).toBe(`attachment; filename="${task.slug}-test-mentions-all-leaderboard.csv"`);
  const lines = (await csv.text()).trimEnd().split("\r\n");
  expect(lines[0]).toMatch(/^rank,team,system,submission_id,submitted_at,is_baseline,gold_version,scorer_version,mentions_recall,/);
  expect(lines).toHaveLength(4);
  expect(lines[1]).toContain(perfect);
  // CSV injection: a system name starting with "=" is quoted as text.
  expect(lines[2]).toContain("'=Formula System");

  for (const bad of ["metric=nope", "format=xml"]) {
    const refused = await request.get(`/api/v1/phases/${phaseId}/leaderboard?${bad}`);
    expect(refused.status()).toBe(422);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("validation");
  }
  expect((await request.get(`/api/v1/phases/00000000-0000-4000-8000-000000000000/leaderboard`)).status()).toBe(404);
});

test("leaderboard visibility: PUBLIC, PARTICIPANTS, ORGANIZERS for each kind of viewer, API and page", async ({ request }) => {
  test.setTimeout(240_000);
  const scenario = await setupScenario({
    users: { organizer: { token: true }, participant: { token: true }, outsider: { token: true } },
    task: { organizers: ["organizer"], gold: [{ phase: "test", text: SMALL_KEY, as: "organizer" }] },
  });
  const task = scenario.task!;
  const phaseId = task.phases.test!.id;
  const { organizer, participant, outsider } = scenario.users;
  const [organizerToken, participantToken, outsiderToken] = [organizer.token!, participant.token!, outsider.token!];
  const systemName = `Visible System ${task.slug}`;
  const submissionId = await submitScored(request, phaseId, participantToken, systemName);

  const contexts = {
    anonymous: await anonymousContext(),
    outsider: await signedInContext(outsider),
    participant: await signedInContext(participant),
    organizer: await signedInContext(organizer),
  };
  const tokens = { anonymous: null, outsider: outsiderToken, participant: participantToken, organizer: organizerToken };
  type Who = keyof typeof contexts;
  const expected: Record<string, Record<Who, number>> = {
    PUBLIC: { anonymous: 200, outsider: 200, participant: 200, organizer: 200 },
    PARTICIPANTS: { anonymous: 401, outsider: 403, participant: 200, organizer: 200 },
    ORGANIZERS: { anonymous: 401, outsider: 403, participant: 403, organizer: 200 },
  };
  const pageUrl = `/tasks/${task.slug}/phases/${phaseId}/leaderboard`;
  const pageExists = (await contexts.organizer.get(pageUrl)).status() !== 404;
  if (!pageExists) test.info().annotations.push({ type: "note", description: "no leaderboard page yet: page visibility not checked" });

  for (const visibility of ["PUBLIC", "PARTICIPANTS", "ORGANIZERS"] as const) {
    const patched = await request.patch(`/api/v1/phases/${phaseId}`, { headers: bearer(organizerToken), data: { leaderboardVisibility: visibility } });
    expect(patched.status(), await patched.text()).toBe(200);
    expect(((await patched.json()) as { phase: { leaderboardVisibility: string } }).phase.leaderboardVisibility).toBe(visibility);

    for (const who of Object.keys(contexts) as Who[]) {
      const status = expected[visibility]![who];
      const label = `${visibility} / ${who}`;
      const token = tokens[who];
      // API through the session cookie (or none), and through the bearer token.
      const viaCookie = await contexts[who].get(`/api/v1/phases/${phaseId}/leaderboard`);
      expect(viaCookie.status(), `${label} (cookie)`).toBe(status);
      if (status === 200) {
        const rows = ((await viaCookie.json()) as { rows: { systemName: string }[] }).rows;
        expect(rows.map((r) => r.systemName), label).toEqual([systemName]);
      } else {
        const body = (await viaCookie.json()) as { error: { code: string; message: string } };
        expect(body.error.code).toBe(status === 401 ? "unauthorized" : "forbidden");
        expect(body.error.message).not.toContain(systemName);
      }
      expect((await contexts[who].get(`/api/v1/phases/${phaseId}/leaderboard?format=csv`)).status(), `${label} csv`).toBe(status);
      if (token) expect((await request.get(`/api/v1/phases/${phaseId}/leaderboard`, { headers: bearer(token) })).status(), `${label} (bearer)`).toBe(status);

      // The run itself: its team and the organizers always; others only with the board.
      const run = await contexts[who].get(`/api/v1/submissions/${submissionId}`);
      const runStatus = who === "participant" || who === "organizer" ? 200 : status === 200 ? 200 : 404;
      expect(run.status(), `${label} submission`).toBe(runStatus);

      // The page shows the run exactly to those who may see the board.
      if (pageExists) {
        const page = await contexts[who].get(pageUrl);
        expect(page.status(), `${label} page`).toBeLessThan(500);
        const html = await page.text();
        if (status === 200) expect(html, `${label} page shows the run`).toContain(systemName);
        else expect(html, `${label} page hides the run`).not.toContain(systemName);
      }
    }
  }
  for (const context of Object.values(contexts)) await context.dispose();
});

test("PATCH /api/v1/phases/{id}: organizers only, validated, JSON errors", async ({ request }) => {
  const scenario = await setupScenario({
    users: { organizer: { token: true }, other: { token: true } },
    task: { phases: [openPhase("test"), closedPhase("closed")], organizers: ["organizer"] },
  });
  const phaseId = scenario.task!.phases.test!.id;
  const [organizerToken, otherToken] = [scenario.users.organizer.token!, scenario.users.other.token!];
  const url = `/api/v1/phases/${phaseId}`;

  const anonymous = await request.patch(url, { data: { dailyLimit: 3 } });
  expect(anonymous.status()).toBe(401);
  const stranger = await request.patch(url, { headers: bearer(otherToken), data: { dailyLimit: 3 } });
  expect(stranger.status()).toBe(403);
  expect(((await stranger.json()) as { error: { code: string } }).error.code).toBe("forbidden");
  expect((await request.patch("/api/v1/phases/00000000-0000-4000-8000-000000000000", { headers: bearer(organizerToken), data: {} })).status()).toBe(404);

  const bad = await request.patch(url, { headers: bearer(organizerToken), data: { leaderboardVisibility: "EVERYONE", secret: 1 } });
  expect(bad.status()).toBe(422);
  expect(((await bad.json()) as { error: { fieldErrors: unknown[] } }).error.fieldErrors.length).toBeGreaterThan(0);
  const notJson = await request.patch(url, { headers: { ...bearer(organizerToken), "Content-Type": "text/plain" }, data: "dailyLimit=3" });
  expect(notJson.status()).toBe(415);
  const malformed = await request.patch(url, { headers: { ...bearer(organizerToken), "Content-Type": "application/json" }, data: Buffer.from("{not json") });
  expect(malformed.status()).toBe(400);
  const backwards = await request.patch(url, { headers: bearer(organizerToken), data: { closesAt: "2000-01-01T00:00:00Z" } });
  expect(backwards.status()).toBe(422);

  const ok = await request.patch(url, { headers: bearer(organizerToken), data: { dailyLimit: 3, selectionRule: "LATEST" } });
  expect(ok.status(), await ok.text()).toBe(200);
  expect(ok.headers()["cache-control"]).toBe("no-store");
  expect(((await ok.json()) as { phase: unknown }).phase).toMatchObject({ id: phaseId, dailyLimit: 3, selectionRule: "LATEST", leaderboardVisibility: "PUBLIC" });
});

test("GET /api/v1/tasks lists tasks with their phases and whether they are open", async ({ request }) => {
  const scenario = await setupScenario({ users: { lister: { token: true } }, task: { phases: [openPhase("test"), closedPhase("closed")] } });
  const task = scenario.task!;
  const anonymous = await request.get("/api/v1/tasks");
  expect(anonymous.status()).toBe(200);
  expect(anonymous.headers()["cache-control"]).toBe("no-store");
  const { tasks } = (await anonymous.json()) as { tasks: { id: string; slug: string; title: string; phases: { id: string; name: string; opensAt: string; closesAt: string; open: boolean }[] }[] };
  const found = tasks.find((t) => t.slug === task.slug);
  expect(found).toMatchObject({ id: task.id, title: `E2E task ${task.slug}` });
  const byName = Object.fromEntries(found!.phases.map((p) => [p.name, p]));
  expect(byName.test).toMatchObject({ id: task.phases.test!.id, open: true, opensAt: expect.stringMatching(/Z$/), closesAt: expect.stringMatching(/Z$/) });
  expect(byName.closed).toMatchObject({ id: task.phases.closed!.id, open: false });
  expect(Object.keys(byName.test!).sort()).toEqual(["closesAt", "id", "name", "open", "opensAt"]);

  const token = scenario.users.lister.token!;
  expect((await request.get("/api/v1/tasks", { headers: bearer(token) })).status()).toBe(200);
  expect((await request.get("/api/v1/tasks", { headers: { Authorization: "Bearer cfb_bogus" } })).status()).toBe(401);
});
