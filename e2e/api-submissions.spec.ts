/**
 * The submission API over HTTP: `POST /api/v1/phases/{id}/submissions` with a bearer token
 * (and the session cookie), `GET /api/v1/submissions/{id}` until scored, and every refusal:
 * 401 (no, malformed, unknown, revoked token), 404, 409, 413, 415, 422 (with the line
 * number, nothing stored), 429 and 403; one team per user per task, and the quota checked
 * before the file is read. Each test sets up its own task.
 */
import { expect, test, type APIRequestContext, type APIResponse } from "@playwright/test";
import { bearer, signedInContext, signInPage } from "./helpers/accounts";
import { setupScenario } from "./helpers/scenario";
import { BASE_URL, E2E_UPLOAD_MAX_BYTES, queryDb } from "./helpers/server";
import { closedPhase, openPhase, SMALL_KEY, SMALL_RESPONSE } from "./helpers/tasks";

/** A multipart upload of `text` as `fileName` with the given metadata. */
function upload(text: string | Buffer, fields: Record<string, string> = {}, fileName = "system.conll") {
  return {
    multipart: {
      file: { name: fileName, mimeType: "text/plain", buffer: Buffer.isBuffer(text) ? text : Buffer.from(text) },
      systemName: "e2e system",
      ...fields,
    },
  };
}

/** POSTs a submission to a phase. */
function submit(request: APIRequestContext, phaseId: string, token: string | null, text: string | Buffer, fields: Record<string, string> = {}, fileName?: string) {
  return request.post(`/api/v1/phases/${phaseId}/submissions`, { headers: token ? bearer(token) : {}, ...upload(text, fields, fileName) });
}

/** The JSON error body of a refusal, after checking its status and that it is JSON. */
async function expectError(response: APIResponse, status: number, code: string): Promise<{ code: string; message: string } & Record<string, unknown>> {
  expect(response.status(), await response.text()).toBe(status);
  expect(response.headers()["content-type"]).toContain("application/json");
  expect(response.headers()["cache-control"]).toBe("no-store");
  const body = (await response.json()) as { error: { code: string; message: string } & Record<string, unknown> };
  expect(body.error.code).toBe(code);
  expect(body.error.message.length).toBeGreaterThan(10);
  return body.error;
}

/** Polls a submission until its status is one of `statuses` (the worker runs under serve). */
async function waitForStatus(request: APIRequestContext, id: string, token: string, statuses: string[] = ["SCORED", "FAILED"]) {
  let last: Record<string, unknown> = {};
  await expect
    .poll(
      async () => {
        const response = await request.get(`/api/v1/submissions/${id}`, { headers: bearer(token) });
        expect(response.status()).toBe(200);
        last = (await response.json()) as Record<string, unknown>;
        return last.status;
      },
      { timeout: 60_000, intervals: [250, 500, 1000] },
    )
    .toEqual(expect.stringMatching(new RegExp(`^(${statuses.join("|")})$`)));
  return last;
}

async function submissionCount(phaseId: string): Promise<number> {
  const rows = await queryDb<{ n: string }>("select count(*)::text as n from submissions where phase_id = $1", [phaseId]);
  return Number(rows[0]!.n);
}

test("bearer upload: 202 with Location, scored by the worker, scores in the CLI JSON shape", async ({ request }) => {
  const { task, users } = await setupScenario({ users: { submitter: { token: true } }, task: { gold: [{ phase: "test", text: SMALL_KEY }] } });
  const phaseId = task!.phases.test!.id;
  const token = users.submitter.token!;

  const response = await submit(request, phaseId, token, SMALL_RESPONSE, {
    systemName: "Bearer System",
    description: "over HTTP",
    paperUrl: "https://example.org/paper",
    codeUrl: "https://example.org/code",
  });
  expect(response.status(), await response.text()).toBe(202);
  expect(response.headers()["cache-control"]).toBe("no-store");
  const created = (await response.json()) as { id: string; status: string };
  expect(created.status).toBe("QUEUED");
  expect(created.id).toMatch(/^[0-9a-f-]{36}$/);
  expect(response.headers()["location"]).toBe(`/api/v1/submissions/${created.id}`);

  const scored = await waitForStatus(request, created.id, token);
  expect(scored.status, JSON.stringify(scored.error)).toBe("SCORED");
  expect(scored).toMatchObject({
    id: created.id,
    systemName: "Bearer System",
    description: "over HTTP",
    paperUrl: "https://example.org/paper",
    codeUrl: "https://example.org/code",
    goldVersion: 1,
    task: { slug: task!.slug },
    phase: { id: phaseId, name: "test" },
    file: { name: "system.conll", size: Buffer.byteLength(SMALL_RESPONSE) },
    error: null,
    viewerIsTeamMember: true,
  });
  expect(scored.scorerVersion).toEqual(expect.any(String));
  const metrics = scored.metrics as Record<string, Record<string, unknown>>;
  for (const m of ["mentions", "muc", "bcub", "ceafm", "ceafe", "lea"]) {
    const s = metrics[m]!;
    expect(Object.keys(s).sort(), m).toEqual(["f1", "precision", "precision_den", "precision_num", "recall", "recall_den", "recall_num"]);
    for (const k of ["recall", "precision", "f1"]) {
      expect(s[k]).toBeGreaterThanOrEqual(0);
      expect(s[k]).toBeLessThanOrEqual(1);
    }
    expect(s.recall).toBeCloseTo((s.recall_num as number) / (s.recall_den as number), 12);
    expect(s.precision).toBeCloseTo((s.precision_num as number) / (s.precision_den as number), 12);
  }
  expect(metrics.blanc).toMatchObject({ recall: expect.any(Number), precision: expect.any(Number), f1: expect.any(Number) });
  expect(metrics.conll!.f1).toBeCloseTo(((metrics.muc!.f1 as number) + (metrics.bcub!.f1 as number) + (metrics.ceafe!.f1 as number)) / 3, 12);
  // The same numbers as `corefboard score KEY RESPONSE --format json`.
  expect(metrics.mentions).toEqual({ recall: 0.75, precision: 6 / 7, f1: expect.closeTo(0.8, 12), recall_num: 6, recall_den: 8, precision_num: 6, precision_den: 7 });
  expect(metrics.muc).toMatchObject({ recall_num: 1, recall_den: 3, precision_num: 1, precision_den: 3 });
});

test("the web form's way: the session cookie authenticates an upload too", async () => {
  const { task, users } = await setupScenario({ users: { cookie: {} }, task: {} });
  const context = await signedInContext(users.cookie);
  try {
    const response = await submit(context, task!.phases.test!.id, null, SMALL_RESPONSE, { systemName: "Cookie System" });
    expect(response.status(), await response.text()).toBe(202);
    const { id } = (await response.json()) as { id: string };
    const view = await context.get(`/api/v1/submissions/${id}`);
    expect(view.status()).toBe(200);
    expect(await view.json()).toMatchObject({ id, systemName: "Cookie System", viewerIsTeamMember: true });
    // Another site cannot use the cookie to submit (CSRF); this site's own origin can.
    const crossSite = await context.post(`/api/v1/phases/${task!.phases.test!.id}/submissions`, { headers: { Origin: "https://evil.example" }, ...upload(SMALL_RESPONSE) });
    expect(crossSite.status()).toBe(403);
    const sameSite = await context.post(`/api/v1/phases/${task!.phases.test!.id}/submissions`, { headers: { Origin: BASE_URL }, ...upload(SMALL_RESPONSE) });
    expect(sameSite.status(), await sameSite.text()).toBe(202);
  } finally {
    await context.dispose();
  }
});

test("an unreadable file: 422 with line and column, nothing stored, no quota used", async ({ request }) => {
  const { task, users } = await setupScenario({ users: { broken: { token: true } }, task: { phases: [openPhase("test", { dailyLimit: 1 })] } });
  const phaseId = task!.phases.test!.id;
  const token = users.broken.token!;

  // Line 3 opens a mention that is never closed.
  const broken = "#begin document (alpha); part 0\nJohn\t(1)\nsaw\t(2\n.\t-\n#end document\n";
  const error = await expectError(await submit(request, phaseId, token, broken), 422, "validation");
  const errors = error.errors as { file: string; line: number; column: number; expected: string; found: string; message: string }[];
  expect(errors).toHaveLength(1);
  expect(errors[0]).toMatchObject({ file: "system.conll", line: expect.any(Number), column: expect.any(Number), expected: expect.any(String), found: expect.any(String) });
  expect(errors[0]!.line).toBeGreaterThanOrEqual(3);
  expect(error.message).toContain("could not be read");
  expect(await submissionCount(phaseId)).toBe(0);

  // Bad metadata: field errors, nothing stored either.
  const fields = await expectError(await submit(request, phaseId, token, SMALL_RESPONSE, { systemName: " ", paperUrl: "not a url" }), 422, "validation");
  expect((fields.fieldErrors as { path: string }[]).map((f) => f.path).sort()).toEqual(["paperUrl", "systemName"]);
  const noFile = await request.post(`/api/v1/phases/${phaseId}/submissions`, { headers: bearer(token), multipart: { systemName: "x" } });
  expect((await expectError(noFile, 422, "validation")).fieldErrors).toEqual([{ path: "file", message: expect.stringContaining("file") }]);
  expect(await submissionCount(phaseId)).toBe(0);

  // The daily limit of 1 is still unused: a good file is accepted.
  expect((await submit(request, phaseId, token, SMALL_RESPONSE)).status()).toBe(202);
  expect(await submissionCount(phaseId)).toBe(1);
});

test("authentication: missing, malformed, unknown and revoked tokens get 401", async ({ request, page }) => {
  const { task, users } = await setupScenario({ users: { tokens: { token: true } }, task: {} });
  const phaseId = task!.phases.test!.id;
  const user = users.tokens;
  const url = `/api/v1/phases/${phaseId}/submissions`;

  const none = await expectError(await request.post(url, upload(SMALL_RESPONSE)), 401, "unauthorized");
  expect(none.message).toContain("Bearer");
  for (const authorization of ["Bearer nonsense", `Bearer cfb_${"A".repeat(43)}`, "Basic dXNlcjpwYXNz"]) {
    const response = await request.post(url, { headers: { Authorization: authorization }, ...upload(SMALL_RESPONSE) });
    await expectError(response, 401, "unauthorized");
    expect(response.headers()["www-authenticate"]).toContain("Bearer");
  }
  // A bad token is refused on reads too, rather than treated as anonymous.
  await expectError(await request.get("/api/v1/tasks", { headers: { Authorization: "Bearer nonsense" } }), 401, "unauthorized");

  // Revoked on the account page: refused from then on.
  const token = user.token!;
  expect((await submit(request, phaseId, token, SMALL_RESPONSE)).status()).toBe(202);
  await signInPage(page, user);
  await page.goto("/account");
  const row = page.getByTestId("token-row").filter({ hasText: "e2e" });
  await row.getByRole("button", { name: "Revoke e2e" }).click();
  await expect(row).toContainText("revoked");
  await expectError(await submit(request, phaseId, token, SMALL_RESPONSE), 401, "unauthorized");
  await expectError(await request.get("/api/v1/tasks", { headers: bearer(token) }), 401, "unauthorized");
  expect(await submissionCount(phaseId)).toBe(1);
});

test("size limit: 413 from Content-Length before reading, and for a file just over the limit", async ({ request }) => {
  const { task, users } = await setupScenario({ users: { size: { token: true } }, task: {} });
  const phaseId = task!.phases.test!.id;
  const token = users.size.token!;

  const threeMb = Buffer.alloc(3 * 1024 * 1024, "x");
  const big = await expectError(await submit(request, phaseId, token, threeMb), 413, "too_large");
  expect(big.message).toMatch(/^The upload is 3(\.\d)? MB; the largest accepted file is 2 MB\.$/);
  expect(big.maxBytes).toBe(E2E_UPLOAD_MAX_BYTES);

  // Within the multipart allowance, but the file itself is over UPLOAD_MAX_BYTES.
  const justOver = Buffer.alloc(E2E_UPLOAD_MAX_BYTES + 1000, "x");
  const file = await expectError(await submit(request, phaseId, token, justOver), 413, "too_large");
  expect(file).toMatchObject({ maxBytes: E2E_UPLOAD_MAX_BYTES, size: E2E_UPLOAD_MAX_BYTES + 1000 });
  expect(await submissionCount(phaseId)).toBe(0);
});

test("phase window, unknown phase, content type: 409, 404, 415", async ({ request }) => {
  const { task, users } = await setupScenario({ users: { window: { token: true } }, task: { phases: [openPhase("test"), closedPhase("closed")] } });
  const token = users.window.token!;

  const closed = await expectError(await submit(request, task!.phases.closed!.id, token, SMALL_RESPONSE), 409, "phase_closed");
  expect(closed.message).toMatch(/closed phase is closed\. It accepts submissions from .+ until .+UTC/);
  expect(closed).toMatchObject({ opensAt: expect.any(String), closesAt: expect.any(String) });

  await expectError(await submit(request, "00000000-0000-4000-8000-000000000000", token, SMALL_RESPONSE), 404, "not_found");
  await expectError(await submit(request, "not-a-phase", token, SMALL_RESPONSE), 404, "not_found");

  const json = await request.post(`/api/v1/phases/${task!.phases.test!.id}/submissions`, { headers: bearer(token), data: { systemName: "x" } });
  await expectError(json, 415, "unsupported_media_type");
  expect(await submissionCount(task!.phases.test!.id)).toBe(0);
});

test("quota: the second submission of the day gets 429 saying when the limit resets", async ({ request }) => {
  const { task, users } = await setupScenario({
    users: { quota: { token: true } },
    // With gold keys, so that the runs are scored: a run failed for want of a gold key is a
    // platform failure, which does not count against the quota.
    task: {
      phases: [openPhase("test", { dailyLimit: 1 }), openPhase("total", { totalLimit: 1 })],
      gold: [{ phase: "test", text: SMALL_KEY }, { phase: "total", text: SMALL_KEY }],
    },
  });
  const token = users.quota.token!;

  expect((await submit(request, task!.phases.test!.id, token, SMALL_RESPONSE)).status()).toBe(202);
  const daily = await expectError(await submit(request, task!.phases.test!.id, token, SMALL_RESPONSE), 429, "quota_exceeded");
  expect(daily.message).toMatch(/reset at 00:00 UTC; the next submission is possible from .+UTC/);
  expect(daily).toMatchObject({ limit: "daily", resetsAt: expect.stringMatching(/T00:00:00\.000Z$/) });

  expect((await submit(request, task!.phases.total!.id, token, SMALL_RESPONSE)).status()).toBe(202);
  const total = await expectError(await submit(request, task!.phases.total!.id, token, SMALL_RESPONSE), 429, "quota_exceeded");
  expect(total).toMatchObject({ limit: "total" });
  expect(await submissionCount(task!.phases.test!.id)).toBe(1);
});

test("teams: naming a team one is not in gets 403", async ({ request }) => {
  const { task, users } = await setupScenario({ users: { alice: { token: true }, bob: { token: true } }, task: {} });
  const phaseId = task!.phases.test!.id;
  const [aliceToken, bobToken] = [users.alice.token!, users.bob.token!];
  // Alice's first submission creates her personal team; its name is on the submission.
  const first = await submit(request, phaseId, aliceToken, SMALL_RESPONSE);
  expect(first.status()).toBe(202);
  const { id } = (await first.json()) as { id: string };
  const view = (await (await request.get(`/api/v1/submissions/${id}`, { headers: bearer(aliceToken) })).json()) as { team: { id: string; name: string } };

  await expectError(await submit(request, phaseId, bobToken, SMALL_RESPONSE, { team: view.team.name }), 403, "forbidden");
  await expectError(await submit(request, phaseId, bobToken, SMALL_RESPONSE, { team: view.team.id }), 403, "forbidden");
  expect(await submissionCount(phaseId)).toBe(1);
  // Alice may name her own team.
  expect((await submit(request, phaseId, aliceToken, SMALL_RESPONSE, { team: view.team.name })).status()).toBe(202);
});

test("one team per task: the first run fixes the user's team in every phase; the quota is checked before the file is read", async ({ request }) => {
  const { task, users, teams } = await setupScenario({
    users: { carol: { token: true }, dave: { token: true } },
    teams: { "Carol A": ["carol"], "Carol B": ["carol", "dave"] },
    // Gold keys, so that runs count against the quota (see the quota test).
    task: { phases: [openPhase("test", { dailyLimit: 2 }), openPhase("dev")], gold: [{ phase: "test", text: SMALL_KEY }, { phase: "dev", text: SMALL_KEY }] },
  });
  const [test_, dev] = [task!.phases.test!.id, task!.phases.dev!.id];
  const [carol, dave] = [users.carol.token!, users.dave.token!];
  const [a, b] = [teams["Carol A"]!, teams["Carol B"]!];
  const teamOf = async (response: APIResponse, token: string) => {
    expect(response.status(), await response.text()).toBe(202);
    const { id } = (await response.json()) as { id: string };
    return ((await (await request.get(`/api/v1/submissions/${id}`, { headers: bearer(token) })).json()) as { team: { id: string } }).team.id;
  };

  // In two teams with no run in the task yet: the team must be named.
  const choose = await expectError(await submit(request, test_, carol, SMALL_RESPONSE), 422, "validation");
  expect(choose.fieldErrors).toEqual([expect.objectContaining({ path: "team" })]);
  expect(await teamOf(await submit(request, test_, carol, SMALL_RESPONSE, { team: a.name }), carol)).toBe(a.id);
  // From now on Carol submits for team A in every phase of the task.
  for (const phaseId of [test_, dev]) {
    const refused = await expectError(await submit(request, phaseId, carol, SMALL_RESPONSE, { team: b.id }), 403, "forbidden");
    expect(refused.message).toBe(`You submit for team "${a.name}" in this task; ask the organizers to change it.`);
  }
  expect(await teamOf(await submit(request, dev, carol, SMALL_RESPONSE), carol)).toBe(a.id);
  // Dave, in team B only, submits for B: team B's quota is its own.
  expect(await teamOf(await submit(request, test_, dave, SMALL_RESPONSE), dave)).toBe(b.id);

  // Team A's second and last run today; then an over-quota broken file is refused for the quota (429), unread.
  expect((await submit(request, test_, carol, SMALL_RESPONSE)).status()).toBe(202);
  await expectError(await submit(request, test_, carol, "#begin document (x); part 0\nw\t(1\n"), 429, "quota_exceeded");
  // Dave's broken file is read (team B has runs left): 422, and nothing is stored.
  await expectError(await submit(request, test_, dave, "#begin document (x); part 0\nw\t(1\n"), 422, "validation");
  expect(await submissionCount(test_)).toBe(3);
  const recorded = await queryDb<{ team_id: string }>("select team_id from task_participants where task_id = $1 order by created_at", [task!.id]);
  expect(recorded.map((r) => r.team_id)).toEqual([a.id, b.id]);
});

test("unknown API paths and ids answer JSON 404s, never HTML", async ({ request }) => {
  const token = (await setupScenario({ users: { paths: { token: true } } })).users.paths.token!;
  for (const path of ["/api/v1/nothing-here", "/api/v1/phases/x/y/z", "/api/v1/submissions/not-an-id", "/api/v1/submissions/00000000-0000-4000-8000-000000000000", "/api/v1/phases/not-a-phase/leaderboard"]) {
    await expectError(await request.get(path, { headers: bearer(token) }), 404, "not_found");
  }
  const post = await request.post("/api/v1/nothing-here", { data: {} });
  await expectError(post, 404, "not_found");
});
