/**
 * Leaderboards and tasks over the API (moved here from e2e/api-leaderboard.spec.ts by issue 22):
 * the JSON and CSV of `GET /api/v1/phases/{id}/leaderboard`, and its LaTeX and Markdown tables
 * (issue 24 §2) on a one-dataset board (runs scored by the worker) and on the macro-averaged
 * board of a phase with three datasets (Score and DatasetScore rows written straight to the
 * database as the worker writes them, as lib/boards/leaderboard.test.ts does); leaderboard visibility (PUBLIC,
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

// Vitest project: site-app (its test doubles: app/api/v1/test-doubles.setup.ts).

import { renderToReadableStream } from "react-dom/server";
import LeaderboardPage from "@/app/tasks/[slug]/phases/[phaseId]/leaderboard/page";
import { useTestDatabase } from "@/lib/db/test-db";
import { formatScore, latexEscape, markdownEscape } from "@/lib/boards/export";
import { insertScores, insertSubmission, makeTaskWithPhase, makeTeam, makeUser } from "@/lib/tasks/test-fixtures";
import { packFile } from "@/lib/storage";
import { callApi, closedPhase, expectError, expectJson, openPhase, scoreRun, sessionCookie, setupScenario, SMALL_KEY, SMALL_RESPONSE, submitScored, withCookies } from "@/app/api/v1/test-helpers";

const testDb = useTestDatabase();

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
  it("conditional requests: an ETag of what the board shows, 304 while it holds, a new one once a run is scored; shared caching for anonymous readers only", async () => {
    const scenario = await setupScenario(testDb.prisma, {
      users: { organizer: { token: true }, member: { token: true } },
      task: { organizers: ["organizer"], gold: [{ phase: "test", text: SMALL_KEY, as: "organizer" }] },
    });
    const phaseId = scenario.task!.phases.test!.id;
    const url = `/api/v1/phases/${phaseId}/leaderboard`;
    await submitScored(phaseId, scenario.users.member.token!, "First");
    const first = await callApi("GET", url);
    expect(first.status).toBe(200);
    const tag = first.headers.get("etag")!;
    expect(tag).toMatch(/^"[0-9a-f]{64}"$/);
    expect(first.headers.get("vary")).toBe("Authorization, Cookie");
    // The same board asked again (a later generatedAt): the same tag, and 304 without a body for its holder.
    expect((await callApi("GET", url)).headers.get("etag")).toBe(tag);
    const notModified = await callApi("GET", url, { headers: { "If-None-Match": tag } });
    expect(notModified.status).toBe(304);
    expect(await notModified.text()).toBe("");
    expect(notModified.headers.get("etag")).toBe(tag);
    expect(notModified.headers.get("cache-control")).toBe("public, max-age=30, stale-while-revalidate=30");
    // Another query is another answer.
    expect((await callApi("GET", `${url}?all=1`, { headers: { "If-None-Match": tag } })).status).toBe(200);
    // The paper tables too (their "Generated:" line changes on every request, their tag does not).
    for (const format of ["latex", "markdown"]) {
      const table = await callApi("GET", `${url}?format=${format}`);
      const again = await callApi("GET", `${url}?format=${format}`, { headers: { "If-None-Match": table.headers.get("etag")! } });
      expect([table.status, again.status, await again.text()]).toEqual([200, 304, ""]);
    }
    // A newly scored run: a new tag, and the run in the answer to the old tag's holder.
    await submitScored(phaseId, scenario.users.member.token!, "Second", SMALL_KEY);
    const changed = await callApi("GET", url, { headers: { "If-None-Match": tag } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("etag")).not.toBe(tag);
    expect(((await changed.json()) as { rows: { systemName: string }[] }).rows.map((r) => r.systemName)).toContain("Second");
    // Answers that depend on who asks are never for shared caches: a team member's (own rows), an organizer's, a hidden board's.
    for (const token of [scenario.users.member.token!, scenario.users.organizer.token!]) {
      const mine = await callApi("GET", url, { token });
      expect(mine.status).toBe(200);
      expect(mine.headers.get("cache-control")).toBe("private, no-cache");
      const again = await callApi("GET", url, { token, headers: { "If-None-Match": mine.headers.get("etag")! } });
      expect(again.status).toBe(304);
      expect(again.headers.get("cache-control")).toBe("private, no-cache");
    }
    await testDb.prisma.phase.update({ where: { id: phaseId }, data: { leaderboardVisibility: "ORGANIZERS" } });
    const hidden = await callApi("GET", `${url}?format=markdown`, { token: scenario.users.organizer.token! });
    expect(hidden.status).toBe(200);
    expect(hidden.headers.get("cache-control")).toBe("private, no-cache");
    expect((await callApi("GET", url)).headers.get("cache-control")).toBe("no-store");
  });

  it("anonymous readers asking at the same moment share one read (lib/http/coalesced.ts): one answer, to its generation time; a later request reads again", async () => {
    // Runs written scored straight to the database (as leaderboard.test.ts does): the read is what is tested, not the scoring.
    const db = testDb.prisma;
    const user = await makeUser(db, "Coalesced reader");
    const team = await makeTeam(db, `Coalesced ${user.id}`, [user.id]);
    const { phase } = await makeTaskWithPhase(db);
    const scored = async (systemName: string, conll: number) => {
      const run = await insertSubmission(db, { phaseId: phase.id, teamId: team.id, submitterId: user.id, systemName });
      await insertScores(db, run.id, phase.id, { conll, muc: [1, 2, 1, 2] });
    };
    await scored("First", 0.5);
    const url = `/api/v1/phases/${phase.id}/leaderboard`;
    const answers = await Promise.all(Array.from({ length: 5 }, () => callApi("GET", url)));
    const texts = await Promise.all(answers.map((a) => a.text()));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    // Each read stamps its own generatedAt: five reads would not all carry the same millisecond.
    expect(new Set(texts).size).toBe(1);
    const shared = JSON.parse(texts[0]!) as { generatedAt: string; rows: { systemName: string }[] };
    expect(shared.rows.map((r) => r.systemName)).toEqual(["First"]);
    // Nothing is kept once the read is done: a run scored after it is in the next answer.
    await scored("Second", 0.9);
    const next = (await (await callApi("GET", url)).json()) as { generatedAt: string; rows: { systemName: string }[] };
    expect(next.generatedAt).not.toBe(shared.generatedAt);
    expect(next.rows.map((r) => r.systemName)).toEqual(["Second"]);
  });

  it("the CSV: an ETag from its first page, the board version and who asks; 304 while it holds, before any row is read again; a new one once a run is scored", async () => {
    const scenario = await setupScenario(testDb.prisma, {
      users: { organizer: { token: true }, member: { token: true } },
      task: { organizers: ["organizer"], gold: [{ phase: "test", text: SMALL_KEY, as: "organizer" }] },
    });
    const phaseId = scenario.task!.phases.test!.id;
    const url = `/api/v1/phases/${phaseId}/leaderboard?format=csv&all=1`;
    await submitScored(phaseId, scenario.users.member.token!, "First");
    const first = await callApi("GET", url);
    expect(first.status).toBe(200);
    const tag = first.headers.get("etag")!;
    expect(tag).toMatch(/^"[0-9a-f]{64}"$/);
    expect([first.headers.get("cache-control"), first.headers.get("vary")]).toEqual(["public, max-age=30, stale-while-revalidate=30", "Authorization, Cookie"]);
    expect(await first.text()).toContain("First");
    const notModified = await callApi("GET", url, { headers: { "If-None-Match": tag } });
    expect([notModified.status, await notModified.text(), notModified.headers.get("etag")]).toEqual([304, "", tag]);
    // Another query, another answer; a team renamed (a board change without a new run), another tag.
    expect((await callApi("GET", `${url}&metric=muc`, { headers: { "If-None-Match": tag } })).status).toBe(200);
    const team = await testDb.prisma.team.findFirstOrThrow({ where: { members: { some: { userId: scenario.users.member.id } } } });
    await testDb.prisma.team.update({ where: { id: team.id }, data: { name: `${team.name} renamed` } });
    const renamed = await callApi("GET", url, { headers: { "If-None-Match": tag } });
    expect(renamed.status).toBe(200);
    expect(await renamed.text()).toContain(`${team.name} renamed`);
    const renamedTag = renamed.headers.get("etag")!;
    // A newly scored run: a new tag, and the run in the answer to the old tag's holder.
    await submitScored(phaseId, scenario.users.member.token!, "Second", SMALL_KEY);
    const changed = await callApi("GET", url, { headers: { "If-None-Match": renamedTag } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("etag")).not.toBe(renamedTag);
    expect(await changed.text()).toContain("Second");
    // A signed-in caller's CSV is theirs: private, and tagged apart from the anonymous one.
    for (const token of [scenario.users.member.token!, scenario.users.organizer.token!]) {
      const mine = await callApi("GET", url, { token });
      expect(mine.headers.get("cache-control")).toBe("private, no-cache");
      expect(mine.headers.get("etag")).not.toBe(changed.headers.get("etag"));
      expect((await callApi("GET", url, { token, headers: { "If-None-Match": mine.headers.get("etag")! } })).status).toBe(304);
    }
  });

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
    // Every anonymous reader gets this answer alike: shared caches may keep it briefly.
    expect(response.headers.get("cache-control")).toBe("public, max-age=30, stale-while-revalidate=30");
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

/** The row lines of a LaTeX answer's `tabular` (not the rules, not the comments), each checked to end with `\\` and to have the spec's column count. */
function latexRows(latex: string): string[] {
  const lines = latex.split("\n");
  const begin = lines.findIndex((l) => l.startsWith("\\begin{tabular}{"));
  const spec = /^\\begin\{tabular\}\{([lr]+)\}$/.exec(lines[begin] ?? "");
  expect(spec, latex).not.toBeNull();
  const end = lines.indexOf("\\end{tabular}");
  expect(end).toBeGreaterThan(begin);
  const rows = lines.slice(begin + 1, end).filter((l) => !l.startsWith("%") && !/^\\(toprule|midrule|bottomrule)$/.test(l));
  for (const row of rows) {
    expect(row.endsWith(" \\\\"), row).toBe(true);
    const spans = [...row.matchAll(/\\multicolumn\{(\d+)\}/g)].reduce((n, m) => n + Number(m[1]) - 1, 0);
    expect(row.split(/(?<!\\)&/).length + spans, row).toBe(spec![1]!.length);
  }
  expect(lines.slice(begin + 1, end).filter((l) => l.startsWith("\\") && !l.includes("&") && !l.startsWith("\\multicolumn"))).toEqual(["\\toprule", "\\midrule", "\\bottomrule"]);
  return rows;
}

/** The cells of a Markdown answer's table rows (after the header and alignment rows), split on unescaped pipes. */
function markdownCells(markdown: string): string[][] {
  const rows = markdown.split("\n").filter((l) => l.startsWith("| "));
  return rows.map((l) => l.slice(2, -2).split(/(?<!\\) \| /));
}

/**
 * A published crac task whose open phase has datasets main, cs and de, each with an active gold
 * key, and runs as the worker stores them (per-dataset DatasetScore rows, phase-level Score rows
 * averaged over the three): team "R&D_Lab|x …" 1st (macro 0.6: main 0.9, cs 0.9, de left out →
 * 0), Beta 2nd (0.5 on each), the organizers' baseline (0.7 on each: above both, unranked).
 */
async function threeDatasetPhase() {
  const db = testDb.prisma;
  const org = await makeUser(db, "Board Org");
  const u1 = await makeUser(db, "Board U1");
  const u2 = await makeUser(db, "Board U2");
  const { task, phase } = await makeTaskWithPhase(db, { organizerIds: [org.id], evaluationProfile: "crac" });
  const special = await makeTeam(db, "R&D_Lab|x", [u1.id]);
  const beta = await makeTeam(db, "Beta", [u2.id]);
  const orgTeam = await makeTeam(db, "Organizers", [org.id]);
  const main = await db.dataset.findFirstOrThrow({ where: { phaseId: phase.id } });
  const cs = await db.dataset.create({ data: { phaseId: phase.id, name: "cs", language: "cs", fileName: "cs.conllu", format: "conllu", position: 1 } });
  const de = await db.dataset.create({ data: { phaseId: phase.id, name: "de", language: "de", fileName: "de.conllu", format: "conllu", position: 2 } });
  const golds = new Map<string, string>();
  for (const d of [main, cs, de]) {
    const stored = packFile(new TextEncoder().encode(`gold ${d.name}`));
    const g = await db.goldKey.create({
      data: { phaseId: phase.id, datasetId: d.id, version: 1, fileName: d.fileName, sha256: stored.sha256, gzip: stored.gzip, size: stored.size, documentCount: 1, uploadedById: org.id, active: true },
    });
    golds.set(d.id, g.id);
  }
  const add = async (teamId: string, submitterId: string, systemName: string, per: Record<"main" | "cs" | "de", number | null>, isBaseline = false) => {
    const s = await insertSubmission(db, { phaseId: phase.id, teamId, submitterId, systemName, isBaseline });
    await db.submission.update({ where: { id: s.id }, data: { goldVersion: null } });
    let sum = 0;
    for (const [name, value] of Object.entries(per) as ["main" | "cs" | "de", number | null][]) {
      const d = { main, cs, de }[name];
      if (value === null) {
        await db.submissionFile.deleteMany({ where: { submissionId: s.id, datasetId: d.id } });
        continue;
      }
      sum += value;
      if (d.id !== main.id) {
        const stored = packFile(new TextEncoder().encode(`${name} ${systemName}`));
        await db.submissionFile.create({ data: { submissionId: s.id, phaseId: phase.id, datasetId: d.id, fileName: d.fileName, sha256: stored.sha256, gzip: stored.gzip, size: stored.size } });
      }
      await db.submissionFile.update({ where: { submissionId_datasetId: { submissionId: s.id, datasetId: d.id } }, data: { goldKeyId: golds.get(d.id)! } });
      await db.datasetScore.create({ data: { submissionId: s.id, phaseId: phase.id, datasetId: d.id, metric: "conll", f1: value } });
    }
    await db.score.create({ data: { submissionId: s.id, phaseId: phase.id, metric: "conll", f1: sum / 3 } });
    return s.id;
  };
  await add(special.id, u1.id, "sys_1 {v2}", { main: 0.9, cs: 0.9, de: null });
  await add(beta.id, u2.id, "beta*run", { main: 0.5, cs: 0.5, de: 0.5 });
  await add(orgTeam.id, org.id, "baseline", { main: 0.7, cs: 0.7, de: 0.7 }, true);
  return { task, phase, special, beta, orgTeam };
}

describe("GET /api/v1/phases/{id}/leaderboard?format=latex|markdown", () => {
  it("a phase with several datasets: macro-average then one column per dataset, best ranked value bold, the JSON's rows and order, names escaped, every row", async () => {
    const f = await threeDatasetPhase();
    const url = `/api/v1/phases/${f.phase.id}/leaderboard`;
    const json = await expectJson<{ rows: { rank: number | null; systemName: string; team: { name: string } }[] }>(await callApi("GET", url));
    expect(json.rows.map((r) => [r.rank, r.systemName])).toEqual([
      [null, "baseline"],
      [1, "sys_1 {v2}"],
      [2, "beta*run"],
    ]);

    const latex = await callApi("GET", `${url}?format=latex&limit=1`);
    expect(latex.status).toBe(200);
    expect(latex.headers.get("content-type")).toBe("text/x-tex; charset=utf-8");
    expect(latex.headers.get("content-disposition")).toBe(`attachment; filename="${f.task.slug}-test-conll-leaderboard.tex"`);
    expect(latex.headers.get("cache-control")).toBe("public, max-age=30, stale-while-revalidate=30");
    expect(latex.headers.get("etag")).toMatch(/^"[0-9a-f]{64}"$/);
    const tex = await latex.text();
    expect(tex).toContain(`% Corefboard leaderboard: ${f.task.title} (${f.task.slug})\n% Phase: test\n`);
    expect(tex).toContain("% Setting: CRAC (CorefUD scorer: head match, singletons excluded, dependent zeros); primary setting\n");
    expect(tex).toMatch(/\n% Generated: \d{4}-\d\d-\d\dT[\d:.]+Z\n/);
    expect(tex).toContain("\\begin{tabular}{rllrrrr}\n\\toprule\n");
    const rows = latexRows(tex);
    // Every row (limit is ignored), in the JSON's order; the baseline's 70.00 is never bold.
    expect(rows).toEqual([
      "Rank & Team & System & Macro avg. & main & cs & de \\\\",
      `-- & ${f.orgTeam.name} & baseline (baseline) & 70.00 & 70.00 & 70.00 & 70.00 \\\\`,
      `1 & ${latexEscape(f.special.name)} & sys\\_1 \\{v2\\} & \\textbf{60.00} & \\textbf{90.00} & \\textbf{90.00} & 0.00$^\\dagger$ \\\\`,
      `2 & ${f.beta.name} & beta*run & 50.00 & 50.00 & 50.00 & \\textbf{50.00} \\\\`,
      expect.stringContaining("no file for this dataset"),
    ]);
    expect(latexEscape(f.special.name)).toMatch(/^R\\&D\\_Lab\$\|\$x /);

    // The team filter applies; ranks stay the board's.
    const filtered = latexRows(await (await callApi("GET", `${url}?format=latex&team=beta`)).text());
    expect(filtered.slice(1)).toEqual([`2 & ${f.beta.name} & beta*run & \\textbf{50.00} & \\textbf{50.00} & \\textbf{50.00} & \\textbf{50.00} \\\\`]);

    // Markdown ranked by one dataset: the JSON's order for it, pipes and emphasis escaped.
    const byDe = await expectJson<{ rows: { systemName: string }[] }>(await callApi("GET", `${url}?rankDataset=de`));
    const markdown = await callApi("GET", `${url}?format=markdown&rankDataset=de`);
    expect(markdown.status).toBe(200);
    expect(markdown.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    expect(markdown.headers.get("content-disposition")).toBe(`attachment; filename="${f.task.slug}-test-conll-by-de-leaderboard.md"`);
    const md = await markdown.text();
    expect(md.startsWith(`<!--\nCorefboard leaderboard: ${f.task.title} (${f.task.slug})\n`)).toBe(true);
    expect(md).toContain("Metric: ranked by CoNLL F1 on the de dataset;");
    const cells = markdownCells(md);
    expect(cells[0]).toEqual(["Rank", "Team", "System", "Macro avg.", "main", "cs", "de"]);
    expect(cells.slice(2).map((c) => c[2])).toEqual(byDe.rows.map((r) => markdownEscape(r.systemName) + (r.systemName === "baseline" ? " (baseline)" : "")));
    expect(cells.slice(2).find((c) => c[0] === "2")).toEqual(["2", markdownEscape(f.special.name), "sys\\_1 {v2}", "**60.00**", "**90.00**", "**90.00**", "0.00†"]);
    expect(markdownEscape(f.special.name)).toContain("R\\&D\\_Lab\\|x");
    expect(cells.slice(2).find((c) => c[0] === "1")?.[2]).toBe("beta\\*run");

    await expectError(await callApi("GET", `${url}?format=pdf`), 422, "validation");
    await expectError(await callApi("GET", `${url}?format=latex&dataset=fr`), 422, "validation");
  });

  it("a phase with one dataset: the ranking metric's F1 then MUC, B³, CEAFe and CoNLL, values as the JSON's, all=1 and metric honoured", async () => {
    const scenario = await setupScenario(testDb.prisma, {
      users: { texA: { token: true }, texB: { token: true } },
      task: { primaryMetric: "muc", gold: [{ phase: "test", text: SMALL_KEY }] },
    });
    const task = scenario.task!;
    const phaseId = task.phases.test!.id;
    await submitScored(phaseId, scenario.users.texA.token!, "100% & more");
    await submitScored(phaseId, scenario.users.texA.token!, "second");
    await submitScored(phaseId, scenario.users.texB.token!, "Perfect", SMALL_KEY);
    const url = `/api/v1/phases/${phaseId}/leaderboard`;

    type Row = { rank: number | null; value: number; systemName: string; metrics: Record<string, { f1: number }> };
    const json = await expectJson<{ rows: Row[] }>(await callApi("GET", `${url}?all=1&metric=muc`));
    const latex = await callApi("GET", `${url}?all=1&metric=muc&format=latex`);
    expect(latex.headers.get("content-disposition")).toBe(`attachment; filename="${task.slug}-test-muc-all-leaderboard.tex"`);
    const tex = await latex.text();
    expect(tex).toContain("% Metric: ranked by MUC F1\n% Runs: every run\n");
    const rows = latexRows(tex);
    expect(rows[0]).toBe("Rank & Team & System & MUC & B\\textsuperscript{3} & CEAF\\textsubscript{e} & CoNLL \\\\");
    expect(rows).toHaveLength(1 + json.rows.length);
    json.rows.forEach((r, i) => {
      const cells = rows[i + 1]!.replace(/ \\\\$/, "").split(" & ");
      expect(cells[0]).toBe(String(r.rank));
      expect(cells[2]).toBe(latexEscape(r.systemName));
      const plain = cells.slice(3).map((c) => c.replace(/^\\textbf\{(.*)\}$/, "$1"));
      expect(plain).toEqual([r.value, r.metrics.bcub!.f1, r.metrics.ceafe!.f1, r.metrics.conll!.f1].map(formatScore));
    });
    // The perfect run is first and bold everywhere; the two others tie on MUC and share its rank.
    expect(rows[1]).toMatch(/^1 & .* & Perfect & \\textbf\{100\.00\} & \\textbf\{100\.00\} & \\textbf\{100\.00\} & \\textbf\{100\.00\} \\\\$/);
    expect(rows[2]).toContain(" & 100\\% \\& more & ");
    expect(rows.slice(2).every((r) => !r.includes("\\textbf"))).toBe(true);

    const md = markdownCells(await (await callApi("GET", `${url}?format=markdown`)).text());
    expect(md[0]).toEqual(["Rank", "Team", "System", "MUC", "B³", "CEAFe", "CoNLL"]);
    // One run per team by default.
    expect(md.slice(2).map((c) => c[2])).toEqual(["Perfect", "100% \\& more"]);
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
    const { conllu, createPhase, createRun, KEY_CONLLU, KEY_CONLLU_DOCS, RESPONSE_CONLLU } = await import("@/lib/worker/scoring-job.fixtures");
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
