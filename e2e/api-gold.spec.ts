/**
 * Gold never leaks (acceptance item). An organizer uploads a gold key whose tokens and chain
 * ids are distinctive canaries; then anonymous visitors, a participant (bearer token and
 * session cookie), another participant and a signed-in non-participant call every route and
 * page they can reach (API reads, error answers, uploads of broken files, HTML pages), and
 * no body or header may contain a canary, nor the gold key's metadata (file name, sha256),
 * which only organizers may see (the console's pages and its runs API and archive answer them
 * 404, or 401 anonymously). Organizers do see the metadata on the console's gold tab.
 *
 * The phase's participant analysis is TEAMS: the task's teams (the participant's and the
 * rival's) see the error analysis, document views and per-document scores, which show the
 * gold's mentions by design (checked: their document view does hold the canary); anonymous
 * readers and the signed-in non-participant see none of it, and every answer they get is
 * checked for canaries, the real document ids included. The non-participant's broken
 * uploads, refused, do not make them a participant.
 */
import { expect, test, type APIRequestContext, type APIResponse } from "@playwright/test";
import { anonymousContext, bearer, signedInContext, type TestUser } from "./helpers/accounts";
import { setupScenario } from "./helpers/scenario";
import { conll, openPhase, postRun, waitScored } from "./helpers/tasks";

/** Token text that only the gold key contains. */
const TOKEN_CANARY = "GOLDCANARY7731";
/** Chain ids that only the gold key uses. */
const CHAIN_CANARIES = ["913377", "913378", "913379"];
/** In the gold key's file name: gold metadata is for organizers only. */
const META_CANARY = "GOLDMETA5519";

/** Gold: canary tokens at the start of mentions and as plain tokens, long and nested chains. */
const GOLD = conll(
  [
    "alpha",
    [
      `${TOKEN_CANARY}\t(913377`,
      `Smith\t913377)`,
      `${TOKEN_CANARY}\t(913378)`,
      "saw\t-",
      "him\t(913377)",
      ".\t-",
      "",
      `The\t(913379|(913378`,
      `${TOKEN_CANARY}\t913378)`,
      "left\t913379)",
      ".\t-",
    ],
  ],
  ["beta", ["It\t(913379)", `${TOKEN_CANARY}\t-`, "rained\t-", ".\t-", "", "Then\t-", "it\t(913379)", "stopped\t-", ".\t-"]],
);

/** A participant's output for the same documents (same token counts, its own tokens and ids). */
const RESPONSE = conll(
  ["alpha", ["x\t(1", "x\t1)", "x\t(2)", "x\t-", "x\t(1)", "x\t-", "", "x\t(3", "x\t-", "x\t3)", "x\t-"]],
  ["beta", ["x\t(4)", "x\t-", "x\t-", "x\t-", "", "x\t-", "x\t(4)", "x\t-", "x\t-"]],
);

/** Covers a key document, misses one, and adds one the key lacks (warnings). */
const PARTIAL_RESPONSE = conll(["alpha", ["x\t(1)", "x\t-", "x\t(1)", "x\t-", "x\t-", "x\t-", "", "x\t-", "x\t-", "x\t-", "x\t-"]], ["gamma", ["x\t(1)", "x\t(1)"]]);

/**
 * Broken where the gold key has canaries: a mention opened on line 2 (gold: a canary token
 * opening chain 913377) is never closed, and line 4 (gold: a canary with chain 913378) has a
 * malformed cell. Code that compared with the gold key would echo it here.
 */
const BROKEN_AT_CANARY = "#begin document (alpha); part 0\nx\t(1\nx\t-\nx\t(2))\nx\t-\n#end document\n";
const BROKEN_BEGIN = "#begin document (beta); part 0\nIt\t(1)\n#begin document (alpha); part 0\n";

interface Viewer {
  who: string;
  context: APIRequestContext;
  headers: Record<string, string>;
  user: TestUser | null;
}

test("gold content and gold metadata never reach anyone but organizers", async ({ request }) => {
  test.setTimeout(300_000);
  const scenario = await setupScenario({
    users: { organizer: {}, participant: { token: true }, rival: { token: true }, outsider: { token: true } },
    task: {
      phases: [openPhase("test", { participantAnalysis: "TEAMS" })],
      organizers: ["organizer"],
      gold: [{ phase: "test", text: GOLD, fileName: `gold-${META_CANARY}.conll`, as: "organizer" }],
    },
  });
  const task = scenario.task!;
  const phaseId = task.phases.test!.id;
  const { organizer, participant, rival, outsider } = scenario.users;
  const gold = scenario.gold[0]!;
  expect(gold).toMatchObject({ version: 1, documents: 2, fileName: `gold-${META_CANARY}.conll` });
  const [participantToken, rivalToken, outsiderToken] = [participant.token!, rival.token!, outsider.token!];

  // Submissions: the participant's (bearer), a partial one, and the rival's.
  const ownId = await postRun(request, phaseId, participantToken, RESPONSE, "Participant Full");
  const partialId = await postRun(request, phaseId, participantToken, PARTIAL_RESPONSE, "Participant Partial", "out.conll", { acknowledgeWarnings: true });
  const rivalId = await postRun(request, phaseId, rivalToken, RESPONSE, "Rival System");
  for (const id of [ownId, partialId, rivalId]) await waitScored(request, id, participantToken);

  const forbidden = [TOKEN_CANARY, ...CHAIN_CANARIES, META_CANARY, gold.sha256];
  let checked = 0;
  /** One request; its body and headers must hold no canary. */
  const fetchChecked = async (viewer: Viewer, method: string, url: string, options: { multipart?: Record<string, unknown>; data?: unknown } = {}): Promise<APIResponse> => {
    const response = await viewer.context.fetch(url, { method, headers: viewer.headers, ...(options as object) });
    const body = await response.text();
    const headers = JSON.stringify(response.headersArray());
    for (const canary of forbidden) {
      expect(body, `${viewer.who}: ${method} ${url} (${response.status()}) leaks ${canary}`).not.toContain(canary);
      expect(headers, `${viewer.who}: ${method} ${url} headers leak ${canary}`).not.toContain(canary);
    }
    if (url.startsWith("/api/v1")) expect(response.headers()["content-type"], `${method} ${url}`).toMatch(/application\/json|text\/csv/);
    checked++;
    return response;
  };

  const viewers: Viewer[] = [
    { who: "anonymous", context: await anonymousContext(), headers: {}, user: null },
    { who: "participant (bearer)", context: request, headers: bearer(participantToken), user: participant },
    { who: "participant (cookie)", context: await signedInContext(participant), headers: {}, user: participant },
    { who: "rival participant (cookie)", context: await signedInContext(rival), headers: {}, user: rival },
    { who: "non-participant (cookie)", context: await signedInContext(outsider), headers: {}, user: outsider },
    { who: "non-participant (bearer)", context: request, headers: bearer(outsiderToken), user: outsider },
  ];
  const metrics = ["mentions", "muc", "bcub", "ceafm", "ceafe", "lea", "blanc", "conll"];
  const board = `/api/v1/phases/${phaseId}/leaderboard`;
  const upload = (text: string, fileName = "broken.conll") => ({
    multipart: { file: { name: fileName, mimeType: "text/plain", buffer: Buffer.from(text) }, systemName: "probe" },
  });

  /** The key's document ids as the routes take them (one URL path segment). */
  const keyDocuments = ["alpha/part 0", "beta/part 0"].map(encodeURIComponent);

  for (const viewer of viewers) {
    // The task's teams (participant, rival) see the analysis; nobody else does.
    const ofTaskTeams = viewer.user === participant || viewer.user === rival;
    // API reads.
    expect((await fetchChecked(viewer, "GET", "/api/v1/tasks")).status()).toBe(200);
    for (const metric of metrics) {
      expect((await fetchChecked(viewer, "GET", `${board}?metric=${metric}`)).status()).toBe(200);
      expect((await fetchChecked(viewer, "GET", `${board}?metric=${metric}&all=1`)).status()).toBe(200);
    }
    expect((await fetchChecked(viewer, "GET", `${board}?format=csv`)).status()).toBe(200);
    expect((await fetchChecked(viewer, "GET", `${board}?format=csv&all=1&metric=lea`)).status()).toBe(200);
    for (const id of [ownId, partialId, rivalId]) {
      const response = await fetchChecked(viewer, "GET", `/api/v1/submissions/${id}`);
      expect(response.status(), `${viewer.who} GET submission`).toBe(200);
      const view = (await response.json()) as Record<string, unknown>;
      expect(Object.keys(view)).not.toContain("gold");
      // Per-document scores: the run's team always (public board); others only as the task's teams.
      const ownRun = id !== rivalId ? viewer.user === participant : viewer.user === rival;
      expect(view.perDocument === null, `${viewer.who} perDocument of ${id}`).toBe(!(ownRun || ofTaskTeams));
      // Analyses: the summary is readable by all; the error analysis only by the task's teams.
      const analysis = await fetchChecked(viewer, "GET", `/api/v1/submissions/${id}/analysis`);
      expect(analysis.status(), `${viewer.who} GET analysis`).toBe(200);
      expect(((await analysis.json()) as { canViewErrors: boolean }).canViewErrors, `${viewer.who} canViewErrors`).toBe(ofTaskTeams);
      for (const doc of ["alpha", "beta", "nope"]) {
        expect((await fetchChecked(viewer, "GET", `/api/v1/submissions/${id}/documents/${doc}`)).status(), `${viewer.who} GET document ${doc}`).toBe(404);
      }
      for (const doc of keyDocuments) {
        const url = `/api/v1/submissions/${id}/documents/${doc}`;
        if (ofTaskTeams) {
          // TEAMS shows the gold's mentions and text to the task's teams: that is what the setting says.
          const shown = await viewer.context.fetch(url, { headers: viewer.headers });
          expect(shown.status(), `${viewer.who} GET ${url}`).toBe(200);
          if (doc === keyDocuments[0]) expect(await shown.text()).toContain(TOKEN_CANARY);
        } else {
          expect((await fetchChecked(viewer, "GET", url)).status(), `${viewer.who} GET ${url}`).toBe(404);
        }
      }
    }
    const compare = await fetchChecked(viewer, "GET", `/api/v1/compare?a=${ownId}&b=${rivalId}`);
    expect(compare.status()).toBe(200);
    expect(((await compare.json()) as { documents: unknown[] | null }).documents === null, `${viewer.who} compare documents`).toBe(!ofTaskTeams);
    expect((await fetchChecked(viewer, "GET", `${board}?significance=1&intervals=1`)).status()).toBe(200);
    // Error answers.
    // The organizer's console API: a 401 or 404 for everyone here (none organizes the task).
    for (const url of [`/api/v1/phases/${phaseId}/runs`, `/api/v1/phases/${phaseId}/runs/archive`]) {
      expect((await fetchChecked(viewer, "GET", url)).status(), `${viewer.who} GET ${url}`).toBe(viewer.user ? 404 : 401);
    }
    for (const url of [`${board}?metric=nope`, `${board}?format=xml`, "/api/v1/submissions/nope", "/api/v1/submissions/00000000-0000-4000-8000-000000000000", "/api/v1/phases/00000000-0000-4000-8000-000000000000/leaderboard", "/api/v1/nope"]) {
      expect((await fetchChecked(viewer, "GET", url)).status(), `${viewer.who} GET ${url}`).toBeGreaterThanOrEqual(400);
    }
    const expectedUpload = viewer.user ? 422 : 401;
    expect((await fetchChecked(viewer, "POST", `/api/v1/phases/${phaseId}/submissions`, upload(BROKEN_AT_CANARY))).status()).toBe(expectedUpload);
    expect((await fetchChecked(viewer, "POST", `/api/v1/phases/${phaseId}/submissions`, upload(BROKEN_BEGIN))).status()).toBe(expectedUpload);
    expect((await fetchChecked(viewer, "POST", `/api/v1/phases/${phaseId}/submissions`, upload("not coreference at all\n", "out.jsonl"))).status()).toBe(expectedUpload);
    expect((await fetchChecked(viewer, "POST", `/api/v1/phases/${phaseId}/submissions`, upload(""))).status()).toBe(expectedUpload);
    expect((await fetchChecked(viewer, "PATCH", `/api/v1/phases/${phaseId}`, { data: { leaderboardVisibility: "PUBLIC" } })).status()).toBe(viewer.user ? 403 : 401);

    // HTML pages (those that exist; 404 is fine). Pages know their viewer by the session
    // cookie alone (`getViewer()` without a request, lib/auth/session.ts): a bearer token makes a
    // page request anonymous, which the anonymous viewer's pages check. Shown here once: the
    // account page sends a bearer viewer to sign in, as it does an anonymous one.
    if (viewer.headers.Authorization) {
      const account = await fetchChecked(viewer, "GET", "/account");
      expect(new URL(account.url()).pathname, `${viewer.who}: /account treats a bearer token as no session`).toBe("/signin");
      continue;
    }
    const pages = [
      "/",
      `/tasks/${task.slug}`,
      `/tasks/${task.slug}/manage`,
      `/tasks/${task.slug}/manage/gold`,
      `/tasks/${task.slug}/manage/submissions`,
      `/tasks/${task.slug}/phases/${phaseId}/leaderboard`,
      `/tasks/${task.slug}/phases/${phaseId}/leaderboard?metric=muc&all=1`,
      `/tasks/${task.slug}/phases/${phaseId}/submit`,
      `/submissions/${ownId}`,
      `/submissions/${partialId}`,
      `/submissions/${rivalId}`,
      `/submissions/${ownId}/documents/alpha`,
      `/submissions/${rivalId}/documents/beta`,
      // The real documents: 404 for those outside the task's teams (inside, they show the gold).
      ...(ofTaskTeams ? [] : keyDocuments.flatMap((doc) => [`/submissions/${ownId}/documents/${doc}`, `/submissions/${rivalId}/documents/${doc}`])),
      `/compare?a=${ownId}&b=${partialId}`,
      "/metrics",
      "/metrics/muc",
      "/teams",
      "/account",
    ];
    for (const page of pages) {
      const status = (await fetchChecked(viewer, "GET", page)).status();
      expect(status, `${viewer.who} GET ${page}`).toBeLessThan(500);
    }
  }

  // Broken uploads by signed-in viewers were all refused: only the three scored runs exist.
  const list = (await (await request.get(`${board}?all=1`)).json()) as { rows: { submissionId: string }[] };
  expect(list.rows.map((r) => r.submissionId).sort()).toEqual([ownId, partialId, rivalId].sort());

  // Organizers do see the gold key's metadata on the console's gold tab.
  const organizerContext = await signedInContext(organizer);
  const manageGold = await organizerContext.get(`/tasks/${task.slug}/manage/gold`);
  expect(manageGold.status()).toBe(200);
  expect(await manageGold.text()).toContain(gold.sha256);
  const ownView = (await (await organizerContext.get(`/api/v1/submissions/${ownId}`)).json()) as { viewerIsOrganizer: boolean; file?: unknown; goldVersion: number };
  expect(ownView).toMatchObject({ viewerIsOrganizer: true, goldVersion: 1, file: expect.anything() });
  await organizerContext.dispose();
  for (const viewer of viewers) if (viewer.context !== request) await viewer.context.dispose();
  test.info().annotations.push({ type: "checked", description: `${checked} responses checked for canaries` });
});
