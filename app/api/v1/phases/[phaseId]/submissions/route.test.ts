/**
 * The submission API (moved here from e2e/api-submissions.spec.ts by issue 22): `POST
 * /api/v1/phases/{id}/submissions` with a bearer token and with the session cookie, `GET
 * /api/v1/submissions/{id}` until scored, and every refusal: 401 (no, malformed, unknown,
 * revoked token), 404, 409, 413, 415, 422 (with the line number, nothing stored), 429 and 403;
 * one team per user per task, and the quota checked before the file is read; unknown API paths.
 *
 * Each request goes to the handler Next's router would pick for its path (`callApi` in
 * ../../../test-helpers.ts), with real API tokens and next-auth session cookies, against the
 * file's test database. The queue is the test double (lib/__mocks__/queue.ts): a run is scored
 * by calling the worker's `scoreSubmission`, as the worker would after the job the route enqueued.
 * Each test sets up its own task. The upload limit is 2 MB, as for the e2e server.
 */
import { beforeEach, describe, expect, it, vi } from "vitest";

// Vitest project: site-app (its test doubles: app/api/v1/test-doubles.setup.ts).

import { revalidatePath } from "next/cache";
import { revokeTokenAction } from "@/app/account/actions";
import { listApiTokens } from "@/lib/accounts/api-tokens";
import { uploadBodyBudget } from "@/lib/http/body-budget";
import { MULTIPART_ALLOWANCE_BYTES } from "@/lib/http/api";
import { useTestDatabase } from "@/lib/db/test-db";
import { enqueueScoring } from "@/lib/queue";
import { makeZip } from "@/lib/uploads/archive.fixtures";
import {
  apiRequest,
  BASE_URL,
  callApi,
  closedPhase,
  dispatch,
  expectError,
  expectJson,
  openPhase,
  scoreRun,
  sessionCookie,
  setupScenario,
  SMALL_KEY,
  SMALL_RESPONSE,
  submissionCount,
  withCookies,
  type CallOptions,
} from "@/app/api/v1/test-helpers";

const testDb = useTestDatabase();

/** The upload limit (UPLOAD_MAX_BYTES) of these tests, as playwright.config.ts gave the e2e server. */
const UPLOAD_MAX_BYTES = 2 * 1024 * 1024;

// Undone after each test (the project's `unstubEnvs`): the files of site-app share a process.
beforeEach(() => {
  vi.stubEnv("UPLOAD_MAX_BYTES", String(UPLOAD_MAX_BYTES));
});

/** The multipart fields of an upload of `text` as `fileName` with the given metadata. */
function upload(text: string | Uint8Array, fields: Record<string, string> = {}, fileName = "system.conll"): CallOptions["multipart"] {
  return { file: { name: fileName, content: text, type: "text/plain" }, systemName: "e2e system", ...fields };
}

/** POSTs a submission to a phase with a bearer token (or none). */
function submit(phaseId: string, token: string | null, text: string | Uint8Array, fields: Record<string, string> = {}, options: Omit<CallOptions, "multipart" | "token"> = {}) {
  return callApi("POST", `/api/v1/phases/${phaseId}/submissions`, { token, multipart: upload(text, fields), ...options });
}

/** `GET /api/v1/submissions/{id}` as the holder of `token` (or of the session cookie). */
async function viewRun(id: string, auth: { token?: string; cookie?: string }): Promise<Record<string, unknown>> {
  return expectJson(await callApi("GET", `/api/v1/submissions/${id}`, auth));
}

/** The id of an accepted upload, after checking it was accepted. */
async function accepted(response: Response): Promise<string> {
  return (await expectJson<{ id: string }>(response, 202)).id;
}

describe("POST /api/v1/phases/{id}/submissions", () => {
  it("bearer upload: 202 with Location, scored by the worker, scores in the CLI JSON shape", async () => {
    const { task, users } = await setupScenario(testDb.prisma, { users: { submitter: { token: true } }, task: { gold: [{ phase: "test", text: SMALL_KEY }] } });
    const phaseId = task!.phases.test!.id;
    const token = users.submitter.token!;

    const response = await submit(phaseId, token, SMALL_RESPONSE, {
      systemName: "Bearer System",
      description: "over HTTP",
      paperUrl: "https://example.org/paper",
      codeUrl: "https://example.org/code",
    });
    expect(response.headers.get("cache-control")).toBe("no-store");
    const created = await expectJson<{ id: string; status: string }>(response, 202);
    expect(created.status).toBe("QUEUED");
    expect(created.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.headers.get("location")).toBe(`/api/v1/submissions/${created.id}`);

    // Handed to the worker's queue; QUEUED until the worker has scored it.
    expect(vi.mocked(enqueueScoring)).toHaveBeenCalledWith([created.id]);
    expect((await viewRun(created.id, { token })).status).toBe("QUEUED");
    await scoreRun(created.id);
    const scored = await viewRun(created.id, { token });
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

  it("the web form's way: the session cookie authenticates an upload too", async () => {
    const { task, users } = await setupScenario(testDb.prisma, { users: { cookie: {} }, task: {} });
    const phaseId = task!.phases.test!.id;
    const cookie = await sessionCookie(testDb.prisma, users.cookie.id);

    const id = await accepted(await submit(phaseId, null, SMALL_RESPONSE, { systemName: "Cookie System" }, { cookie }));
    expect(await viewRun(id, { cookie })).toMatchObject({ id, systemName: "Cookie System", viewerIsTeamMember: true });
    // Another site cannot use the cookie to submit (CSRF); this site's own origin can.
    await expectError(await submit(phaseId, null, SMALL_RESPONSE, {}, { cookie, headers: { Origin: "https://evil.example" } }), 403, "forbidden");
    await accepted(await submit(phaseId, null, SMALL_RESPONSE, {}, { cookie, headers: { Origin: BASE_URL } }));
    expect(await submissionCount(testDb.prisma, phaseId)).toBe(2);
  });

  it("an archive leaving a dataset out: 409 with `missingDatasets` and `acknowledgeWith` (nothing stored), 202 once confirmed; 422 on a phase whose check is \"error\"", async () => {
    const { task, users } = await setupScenario(testDb.prisma, { users: { submitter: { token: true } }, task: { phases: [openPhase("test", { dailyLimit: 5 })] } });
    const phaseId = task!.phases.test!.id;
    const token = users.submitter.token!;
    await testDb.prisma.dataset.deleteMany({ where: { phaseId } });
    for (const [position, name] of ["en_a", "cs_b"].entries()) {
      await testDb.prisma.dataset.create({ data: { phaseId, name, language: name.slice(0, 2), fileName: `${name}.conll`, format: "conll2012", position } });
    }
    const archive = await makeZip([{ path: "en_a.conll", text: SMALL_RESPONSE }]);
    const send = (fields: Record<string, string> = {}) => callApi("POST", `/api/v1/phases/${phaseId}/submissions`, { token, multipart: upload(archive, fields, "run.zip") });

    const asked = await expectError(await send(), 409, "conflict");
    expect(asked).toMatchObject({
      missingDatasets: ["cs_b"],
      unmatched: 0,
      missing: 0,
      acknowledgeWith: "acknowledgeWarnings=true",
      warnings: [{ code: "missing-dataset", message: 'dataset cs_b: run.zip has no file "cs_b.conll"; the dataset will count as 0 in the average', file: "run.zip" }],
    });
    expect(await submissionCount(testDb.prisma, phaseId)).toBe(0);

    const created = await expectJson<{ missingDatasets: string[]; warnings: { code: string }[] }>(await send({ acknowledgeWarnings: "true" }), 202);
    expect(created.missingDatasets).toEqual(["cs_b"]);
    expect(created.warnings.map((w) => w.code)).toEqual(["missing-dataset"]);
    expect(await submissionCount(testDb.prisma, phaseId)).toBe(1);

    await testDb.prisma.phase.update({ where: { id: phaseId }, data: { documentCheck: "error" } });
    const refused = await expectError(await send({ acknowledgeWarnings: "true" }), 422, "validation");
    expect(refused).toMatchObject({ missingDatasets: ["cs_b"] });
    expect(await submissionCount(testDb.prisma, phaseId)).toBe(1);
  });

  it("an unreadable file: 422 with line and column, nothing stored, no quota used", async () => {
    const { task, users } = await setupScenario(testDb.prisma, { users: { broken: { token: true } }, task: { phases: [openPhase("test", { dailyLimit: 1 })] } });
    const phaseId = task!.phases.test!.id;
    const token = users.broken.token!;

    // Line 3 opens a mention that is never closed.
    const broken = "#begin document (alpha); part 0\nJohn\t(1)\nsaw\t(2\n.\t-\n#end document\n";
    const error = await expectError(await submit(phaseId, token, broken), 422, "validation");
    const errors = error.errors as { file: string; line: number; column: number; expected: string; found: string; message: string }[];
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ file: "system.conll", line: expect.any(Number), column: expect.any(Number), expected: expect.any(String), found: expect.any(String) });
    expect(errors[0]!.line).toBeGreaterThanOrEqual(3);
    expect(error.message).toContain("could not be read");
    expect(await submissionCount(testDb.prisma, phaseId)).toBe(0);

    // Bad metadata: field errors, nothing stored either.
    const fields = await expectError(await submit(phaseId, token, SMALL_RESPONSE, { systemName: " ", paperUrl: "not a url" }), 422, "validation");
    expect((fields.fieldErrors as { path: string }[]).map((f) => f.path).sort()).toEqual(["paperUrl", "systemName"]);
    const noFile = await callApi("POST", `/api/v1/phases/${phaseId}/submissions`, { token, multipart: { systemName: "x" } });
    expect((await expectError(noFile, 422, "validation")).fieldErrors).toEqual([{ path: "file", message: expect.stringContaining("file") }]);
    expect(await submissionCount(testDb.prisma, phaseId)).toBe(0);

    // The daily limit of 1 is still unused: a good file is accepted.
    await accepted(await submit(phaseId, token, SMALL_RESPONSE));
    expect(await submissionCount(testDb.prisma, phaseId)).toBe(1);
  });

  it("authentication: missing, malformed, unknown and revoked tokens get 401", async () => {
    const { task, users } = await setupScenario(testDb.prisma, { users: { tokens: { token: true } }, task: {} });
    const phaseId = task!.phases.test!.id;
    const user = users.tokens;
    const url = `/api/v1/phases/${phaseId}/submissions`;

    const none = await expectError(await callApi("POST", url, { multipart: upload(SMALL_RESPONSE) }), 401, "unauthorized");
    expect(none.message).toContain("Bearer");
    for (const authorization of ["Bearer nonsense", `Bearer cfb_${"A".repeat(43)}`, "Basic dXNlcjpwYXNz"]) {
      const response = await callApi("POST", url, { headers: { Authorization: authorization }, multipart: upload(SMALL_RESPONSE) });
      expect(response.headers.get("www-authenticate"), authorization).toContain("Bearer");
      await expectError(response, 401, "unauthorized");
    }
    // A bad token is refused on reads too, rather than treated as anonymous.
    await expectError(await callApi("GET", "/api/v1/tasks", { headers: { Authorization: "Bearer nonsense" } }), 401, "unauthorized");

    // Revoked on the account page (its revoke button's server action, as the signed-in user): refused from then on.
    const token = user.token!;
    await accepted(await submit(phaseId, token, SMALL_RESPONSE));
    const row = (await listApiTokens(user.id)).find((t) => t.name === "e2e")!;
    expect(row.revokedAt).toBeNull();
    const form = new FormData();
    form.set("tokenId", row.id);
    await withCookies(await sessionCookie(testDb.prisma, user.id), () => revokeTokenAction(form));
    expect((await listApiTokens(user.id)).find((t) => t.id === row.id)!.revokedAt).toEqual(expect.any(Date));
    expect(vi.mocked(revalidatePath)).toHaveBeenCalledWith("/account");
    await expectError(await submit(phaseId, token, SMALL_RESPONSE), 401, "unauthorized");
    await expectError(await callApi("GET", "/api/v1/tasks", { token }), 401, "unauthorized");
    expect(await submissionCount(testDb.prisma, phaseId)).toBe(1);
  });

  it("size limit: 413 from Content-Length before reading, and for a file just over the limit", async () => {
    const { task, users } = await setupScenario(testDb.prisma, { users: { size: { token: true } }, task: {} });
    const phaseId = task!.phases.test!.id;
    const token = users.size.token!;

    // A 3 MB upload, declared in Content-Length: refused without reading the body.
    const threeMb = new Uint8Array(3 * 1024 * 1024).fill("x".charCodeAt(0));
    const request = await apiRequest("POST", `/api/v1/phases/${phaseId}/submissions`, { token, multipart: upload(threeMb) });
    expect(Number(request.headers.get("content-length"))).toBeGreaterThan(3 * 1024 * 1024);
    const big = await expectError(await dispatch(request), 413, "too_large");
    expect(request.bodyUsed, "the body was read").toBe(false);
    expect(big.message).toMatch(/^The upload is 3(\.\d)? MB; the largest accepted file is 2 MB\.$/);
    expect(big.maxBytes).toBe(UPLOAD_MAX_BYTES);

    // Within the multipart allowance, but the file itself is over UPLOAD_MAX_BYTES: refused as
    // soon as the streamed file passes the limit (`size`: the bytes read by then).
    const justOver = new Uint8Array(UPLOAD_MAX_BYTES + 1000).fill("x".charCodeAt(0));
    const file = await expectError(await submit(phaseId, token, justOver), 413, "too_large");
    expect(file.maxBytes).toBe(UPLOAD_MAX_BYTES);
    expect(file.size).toBeGreaterThan(UPLOAD_MAX_BYTES);
    expect(file.message).toMatch(/^The upload is over 2(\.\d+)? MB; the largest accepted file is 2 MB\.$/);
    expect(await submissionCount(testDb.prisma, phaseId)).toBe(0);
  });

  it("memory budget: with every upload byte reserved a new upload gets 503 with Retry-After, nothing stored; it goes through once the bytes are back; answers carry the security headers", async () => {
    const { task, users } = await setupScenario(testDb.prisma, { users: { budget: { token: true } }, task: {} });
    const phaseId = task!.phases.test!.id;
    const token = users.budget.token!;
    const budget = uploadBodyBudget(UPLOAD_MAX_BYTES + MULTIPART_ALLOWANCE_BYTES);
    const release = budget.reserve(budget.totalBytes);
    let busy: Response;
    try {
      busy = await submit(phaseId, token, SMALL_RESPONSE);
    } finally {
      release();
    }
    expect(Number(busy.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    await expectError(busy, 503, "service_busy");
    expect(await submissionCount(testDb.prisma, phaseId)).toBe(0);
    expect(budget.reserved, "the refused upload reserved nothing").toBe(0);

    const ok = await submit(phaseId, token, SMALL_RESPONSE);
    expect(ok.headers.get("x-content-type-options")).toBe("nosniff");
    expect(ok.headers.get("content-security-policy")).toMatch(/script-src 'self' 'nonce-/);
    await accepted(ok);
    expect(budget.reserved, "the bytes are given back after the upload").toBe(0);
  });

  it("phase window, unknown phase, content type: 409, 404, 415", async () => {
    const { task, users } = await setupScenario(testDb.prisma, { users: { window: { token: true } }, task: { phases: [openPhase("test"), closedPhase("closed")] } });
    const token = users.window.token!;

    const closed = await expectError(await submit(task!.phases.closed!.id, token, SMALL_RESPONSE), 409, "phase_closed");
    expect(closed.message).toMatch(/closed phase is closed\. It accepts submissions from .+ until .+UTC/);
    expect(closed).toMatchObject({ opensAt: expect.any(String), closesAt: expect.any(String) });

    await expectError(await submit("00000000-0000-4000-8000-000000000000", token, SMALL_RESPONSE), 404, "not_found");
    await expectError(await submit("not-a-phase", token, SMALL_RESPONSE), 404, "not_found");

    const json = await callApi("POST", `/api/v1/phases/${task!.phases.test!.id}/submissions`, { token, json: { systemName: "x" } });
    await expectError(json, 415, "unsupported_media_type");
    expect(await submissionCount(testDb.prisma, task!.phases.test!.id)).toBe(0);
  });

  it("quota: the second submission of the day gets 429 saying when the limit resets", async () => {
    const { task, users } = await setupScenario(testDb.prisma, {
      users: { quota: { token: true } },
      // With gold keys, so that the runs are scored: a run failed for want of a gold key is a
      // platform failure, which does not count against the quota.
      task: {
        phases: [openPhase("test", { dailyLimit: 1 }), openPhase("total", { totalLimit: 1 })],
        gold: [
          { phase: "test", text: SMALL_KEY },
          { phase: "total", text: SMALL_KEY },
        ],
      },
    });
    const token = users.quota.token!;

    await scoreRun(await accepted(await submit(task!.phases.test!.id, token, SMALL_RESPONSE)));
    const daily = await expectError(await submit(task!.phases.test!.id, token, SMALL_RESPONSE), 429, "quota_exceeded");
    expect(daily.message).toMatch(/reset at 00:00 UTC; the next submission is possible from .+UTC/);
    expect(daily).toMatchObject({ limit: "daily", resetsAt: expect.stringMatching(/T00:00:00\.000Z$/) });

    await scoreRun(await accepted(await submit(task!.phases.total!.id, token, SMALL_RESPONSE)));
    const total = await expectError(await submit(task!.phases.total!.id, token, SMALL_RESPONSE), 429, "quota_exceeded");
    expect(total).toMatchObject({ limit: "total" });
    expect(await submissionCount(testDb.prisma, task!.phases.test!.id)).toBe(1);
  });

  it("teams: naming a team one is not in gets 403", async () => {
    const { task, users } = await setupScenario(testDb.prisma, { users: { alice: { token: true }, bob: { token: true } }, task: {} });
    const phaseId = task!.phases.test!.id;
    const [aliceToken, bobToken] = [users.alice.token!, users.bob.token!];
    // Alice's first submission creates her personal team; its name is on the submission.
    const id = await accepted(await submit(phaseId, aliceToken, SMALL_RESPONSE));
    const view = (await viewRun(id, { token: aliceToken })) as { team: { id: string; name: string } };

    await expectError(await submit(phaseId, bobToken, SMALL_RESPONSE, { team: view.team.name }), 403, "forbidden");
    await expectError(await submit(phaseId, bobToken, SMALL_RESPONSE, { team: view.team.id }), 403, "forbidden");
    expect(await submissionCount(testDb.prisma, phaseId)).toBe(1);
    // Alice may name her own team.
    await accepted(await submit(phaseId, aliceToken, SMALL_RESPONSE, { team: view.team.name }));
  });

  it("one team per task: the first run fixes the user's team in every phase; the quota is checked before the file is read", async () => {
    const { task, users, teams } = await setupScenario(testDb.prisma, {
      users: { carol: { token: true }, dave: { token: true } },
      teams: { "Carol A": ["carol"], "Carol B": ["carol", "dave"] },
      // Gold keys, so that runs count against the quota (see the quota test).
      task: {
        phases: [openPhase("test", { dailyLimit: 2 }), openPhase("dev")],
        gold: [
          { phase: "test", text: SMALL_KEY },
          { phase: "dev", text: SMALL_KEY },
        ],
      },
    });
    const [test_, dev] = [task!.phases.test!.id, task!.phases.dev!.id];
    const [carol, dave] = [users.carol.token!, users.dave.token!];
    const [a, b] = [teams["Carol A"]!, teams["Carol B"]!];
    /** The team of an accepted run (scored, as the worker would). */
    const teamOf = async (response: Response, token: string) => {
      const id = await accepted(response);
      await scoreRun(id);
      return ((await viewRun(id, { token })) as { team: { id: string } }).team.id;
    };

    // In two teams with no run in the task yet: the team must be named.
    const choose = await expectError(await submit(test_, carol, SMALL_RESPONSE), 422, "validation");
    expect(choose.fieldErrors).toEqual([expect.objectContaining({ path: "team" })]);
    expect(await teamOf(await submit(test_, carol, SMALL_RESPONSE, { team: a.name }), carol)).toBe(a.id);
    // From now on Carol submits for team A in every phase of the task.
    for (const phaseId of [test_, dev]) {
      const refused = await expectError(await submit(phaseId, carol, SMALL_RESPONSE, { team: b.id }), 403, "forbidden");
      expect(refused.message).toBe(`You submit for team "${a.name}" in this task; ask the organizers to change it.`);
    }
    expect(await teamOf(await submit(dev, carol, SMALL_RESPONSE), carol)).toBe(a.id);
    // Dave, in team B only, submits for B: team B's quota is its own.
    expect(await teamOf(await submit(test_, dave, SMALL_RESPONSE), dave)).toBe(b.id);

    // Team A's second and last run today; then an over-quota broken file is refused for the quota (429), unread.
    await scoreRun(await accepted(await submit(test_, carol, SMALL_RESPONSE)));
    await expectError(await submit(test_, carol, "#begin document (x); part 0\nw\t(1\n"), 429, "quota_exceeded");
    // Dave's broken file is read (team B has runs left): 422, and nothing is stored.
    await expectError(await submit(test_, dave, "#begin document (x); part 0\nw\t(1\n"), 422, "validation");
    expect(await submissionCount(testDb.prisma, test_)).toBe(3);
    const recorded = await testDb.prisma.$queryRaw<{ team_id: string }[]>`select team_id::text from task_participants where task_id = ${task!.id}::uuid order by created_at`;
    expect(recorded.map((r) => r.team_id)).toEqual([a.id, b.id]);
  });
});

describe("unknown API paths and ids", () => {
  it("answer JSON 404s, never HTML", async () => {
    const token = (await setupScenario(testDb.prisma, { users: { paths: { token: true } } })).users.paths.token!;
    for (const path of ["/api/v1/nothing-here", "/api/v1/phases/x/y/z", "/api/v1/submissions/not-an-id", "/api/v1/submissions/00000000-0000-4000-8000-000000000000", "/api/v1/phases/not-a-phase/leaderboard"]) {
      await expectError(await callApi("GET", path, { token }), 404, "not_found");
    }
    await expectError(await callApi("POST", "/api/v1/nothing-here", { json: {} }), 404, "not_found");
  });
});
