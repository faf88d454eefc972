/**
 * Gold never leaks over the API (acceptance item; moved here from e2e/api-gold.spec.ts, which
 * keeps the HTML pages, served by the real server). An organizer uploads a gold key whose
 * tokens, chain ids and file name are distinctive canaries (e2e/helpers/gold-canaries.ts); then
 * anonymous visitors, a participant (bearer token and session cookie), the rival participant,
 * and a signed-in non-participant (cookie and bearer token) call every API route they can reach
 * (reads, error answers, uploads of broken files), and no body or header may hold a canary, nor
 * the gold key's metadata (file name, sha256), which only organizers may see (the console's
 * runs API and archive answer them 404, or 401 anonymously). An organizer's view of a run does
 * name the gold version and the run's file.
 *
 * The phase's participant analysis is TEAMS: the task's teams (the participant's and the
 * rival's) see the error analysis, document views and per-document scores, which show the
 * gold's mentions by design (checked: their document view does hold the canary); anonymous
 * readers and the non-participant see none of it, and every answer they get is checked for
 * canaries, the real document ids included. The non-participant's broken uploads, refused, do
 * not make them a participant: the board lists only the three scored runs afterwards.
 *
 * Requests go to the handler Next's router would pick (`callApi`), with real API tokens and
 * next-auth session cookies, against the file's test database. Runs are uploaded through the
 * submissions route and scored by the worker's `scoreSubmission` in this process; the default
 * board's significance (with intervals) is computed by the worker's job too, so that the
 * `significance=1&intervals=1` answer is checked with its numbers in it. The queue is the test
 * double.
 */
import { beforeAll, describe, expect, it, vi } from "vitest";

// Vitest project: site-app (its test doubles: app/api/v1/test-doubles.setup.ts).

import { computeBoardSignificance } from "@/lib/boards";
import { useTestDatabase } from "@/lib/db/test-db";
import { BROKEN_AT_CANARY, BROKEN_BEGIN, GOLD, GOLD_FILE_NAME, goldCanaries, KEY_DOCUMENTS, PARTIAL_RESPONSE, RESPONSE, TOKEN_CANARY } from "@/e2e/helpers/gold-canaries";
import { callApi, expectJson, openPhase, sessionCookie, setupScenario, submitScored, type CallOptions } from "./test-helpers";

const testDb = useTestDatabase();

/** Who calls: by API token or session cookie (neither: anonymous), and which scenario user it is. */
interface Caller {
  who: string;
  token?: string;
  cookie?: string;
  user: "participant" | "rival" | "outsider" | null;
}

/** An answer whose body has been read. */
interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

let phaseId = "";
let board = "";
let ids: { own: string; partial: string; rival: string };
let forbidden: string[] = [];
let organizerCookie = "";
const callers: Caller[] = [];
/** The callers whose broken uploads were sent (and refused). */
const uploaded = new Set<string>();

/**
 * One request as `caller`; its body and headers must hold no canary, and an API answer is
 * JSON or CSV.
 */
async function callChecked(caller: Caller, method: string, url: string, options: Pick<CallOptions, "json" | "multipart"> = {}): Promise<Answer> {
  const response = await callApi(method, url, { token: caller.token ?? null, cookie: caller.cookie ?? null, ...options });
  const text = await response.text();
  const headers = JSON.stringify([...response.headers]);
  for (const canary of forbidden) {
    expect(text, `${caller.who}: ${method} ${url} (${response.status}) leaks ${canary}`).not.toContain(canary);
    expect(headers, `${caller.who}: ${method} ${url} headers leak ${canary}`).not.toContain(canary);
  }
  expect(response.headers.get("content-type"), `${method} ${url}`).toMatch(/application\/json|text\/csv/);
  return { status: response.status, headers: response.headers, text };
}

/** A broken file as the upload form sends it. */
const upload = (text: string, fileName = "broken.conll"): Pick<CallOptions, "multipart"> => ({ multipart: { file: { name: fileName, content: text }, systemName: "probe" } });

beforeAll(async () => {
  const scenario = await setupScenario(testDb.prisma, {
    users: { organizer: {}, participant: { token: true }, rival: { token: true }, outsider: { token: true } },
    task: {
      phases: [openPhase("test", { participantAnalysis: "TEAMS" })],
      organizers: ["organizer"],
      gold: [{ phase: "test", text: GOLD, fileName: GOLD_FILE_NAME, as: "organizer" }],
    },
  });
  phaseId = scenario.task!.phases.test!.id;
  board = `/api/v1/phases/${phaseId}/leaderboard`;
  const gold = scenario.gold[0]!;
  expect(gold).toMatchObject({ version: 1, documents: 2, fileName: GOLD_FILE_NAME });
  forbidden = goldCanaries(gold.sha256);
  const { organizer, participant, rival, outsider } = scenario.users;

  // Submissions: the participant's, a partial one (its warnings confirmed), and the rival's.
  ids = {
    own: await submitScored(phaseId, participant.token!, "Participant Full", RESPONSE),
    partial: await submitScored(phaseId, participant.token!, "Participant Partial", PARTIAL_RESPONSE, { acknowledgeWarnings: "true" }),
    rival: await submitScored(phaseId, rival.token!, "Rival System", RESPONSE),
  };
  // The default board's significance, as the site's worker computes it after scoring.
  const significance = await computeBoardSignificance({ phaseId, viewerId: null, board: { metric: "conll", track: null, dataset: null, rankDataset: null, allRuns: false } });
  expect(significance.status).toBe("computed");

  const cookie = (id: string) => sessionCookie(testDb.prisma, id);
  organizerCookie = await cookie(organizer.id);
  callers.push(
    { who: "anonymous", user: null },
    { who: "participant (bearer)", token: participant.token!, user: "participant" },
    { who: "participant (cookie)", cookie: await cookie(participant.id), user: "participant" },
    { who: "rival participant (cookie)", cookie: await cookie(rival.id), user: "rival" },
    { who: "non-participant (cookie)", cookie: await cookie(outsider.id), user: "outsider" },
    { who: "non-participant (bearer)", token: outsider.token!, user: "outsider" },
  );
  // Scoring three runs and their board's significance: a limit against hangs, not a latency check (it took over 10 s beside the browser tests in CI).
}, 120_000);

describe("gold content and gold metadata never reach anyone but organizers over the API", () => {
  const metrics = ["mentions", "muc", "bcub", "ceafm", "ceafe", "lea", "blanc", "conll"];

  it.each(["anonymous", "participant (bearer)", "participant (cookie)", "rival participant (cookie)", "non-participant (cookie)", "non-participant (bearer)"])(
    "%s: reads, error answers and broken uploads hold no canary; the analysis and documents only for the task's teams",
    async (who) => {
      const caller = callers.find((c) => c.who === who)!;
      // The task's teams (participant, rival) see the analysis; nobody else does.
      const ofTaskTeams = caller.user === "participant" || caller.user === "rival";
      // API reads.
      expect((await callChecked(caller, "GET", "/api/v1/tasks")).status).toBe(200);
      for (const metric of metrics) {
        expect((await callChecked(caller, "GET", `${board}?metric=${metric}`)).status).toBe(200);
        expect((await callChecked(caller, "GET", `${board}?metric=${metric}&all=1`)).status).toBe(200);
      }
      expect((await callChecked(caller, "GET", `${board}?format=csv`)).status).toBe(200);
      expect((await callChecked(caller, "GET", `${board}?format=csv&all=1&metric=lea`)).status).toBe(200);
      for (const id of [ids.own, ids.partial, ids.rival]) {
        const answer = await callChecked(caller, "GET", `/api/v1/submissions/${id}`);
        expect(answer.status, `${who} GET submission`).toBe(200);
        const view = JSON.parse(answer.text) as Record<string, unknown>;
        expect(Object.keys(view)).not.toContain("gold");
        // Per-document scores: the run's team always (public board); others only as the task's teams.
        const ownRun = id !== ids.rival ? caller.user === "participant" : caller.user === "rival";
        expect(view.perDocument === null, `${who} perDocument of ${id}`).toBe(!(ownRun || ofTaskTeams));
        // Analyses: the summary is readable by all; the error analysis only by the task's teams.
        const analysis = await callChecked(caller, "GET", `/api/v1/submissions/${id}/analysis`);
        expect(analysis.status, `${who} GET analysis`).toBe(200);
        expect((JSON.parse(analysis.text) as { canViewErrors: boolean }).canViewErrors, `${who} canViewErrors`).toBe(ofTaskTeams);
        for (const doc of ["alpha", "beta", "nope"]) {
          expect((await callChecked(caller, "GET", `/api/v1/submissions/${id}/documents/${doc}`)).status, `${who} GET document ${doc}`).toBe(404);
        }
        for (const doc of KEY_DOCUMENTS) {
          const url = `/api/v1/submissions/${id}/documents/${doc}`;
          if (ofTaskTeams) {
            // TEAMS shows the gold's mentions and text to the task's teams: that is what the setting says.
            const shown = await callApi("GET", url, { token: caller.token ?? null, cookie: caller.cookie ?? null });
            expect(shown.status, `${who} GET ${url}`).toBe(200);
            if (doc === KEY_DOCUMENTS[0]) expect(await shown.text()).toContain(TOKEN_CANARY);
          } else {
            expect((await callChecked(caller, "GET", url)).status, `${who} GET ${url}`).toBe(404);
          }
        }
      }
      const compare = await callChecked(caller, "GET", `/api/v1/compare?a=${ids.own}&b=${ids.rival}`);
      expect(compare.status).toBe(200);
      expect((JSON.parse(compare.text) as { documents: unknown[] | null }).documents === null, `${who} compare documents`).toBe(!ofTaskTeams);
      // The significance and intervals (computed above): checked with their numbers in the answer.
      const significance = await callChecked(caller, "GET", `${board}?significance=1&intervals=1`);
      expect(significance.status).toBe(200);
      expect((JSON.parse(significance.text) as { significance: { status: string } }).significance.status, `${who} significance`).toBe("ready");

      // Error answers.
      // The organizer's console API: a 401 or 404 for everyone here (none organizes the task).
      for (const url of [`/api/v1/phases/${phaseId}/runs`, `/api/v1/phases/${phaseId}/runs/archive`]) {
        expect((await callChecked(caller, "GET", url)).status, `${who} GET ${url}`).toBe(caller.user ? 404 : 401);
      }
      for (const url of [`${board}?metric=nope`, `${board}?format=xml`, "/api/v1/submissions/nope", "/api/v1/submissions/00000000-0000-4000-8000-000000000000", "/api/v1/phases/00000000-0000-4000-8000-000000000000/leaderboard", "/api/v1/nope"]) {
        expect((await callChecked(caller, "GET", url)).status, `${who} GET ${url}`).toBeGreaterThanOrEqual(400);
      }
      const submissions = `/api/v1/phases/${phaseId}/submissions`;
      const expectedUpload = caller.user ? 422 : 401;
      expect((await callChecked(caller, "POST", submissions, upload(BROKEN_AT_CANARY))).status).toBe(expectedUpload);
      expect((await callChecked(caller, "POST", submissions, upload(BROKEN_BEGIN))).status).toBe(expectedUpload);
      expect((await callChecked(caller, "POST", submissions, upload("not coreference at all\n", "out.jsonl"))).status).toBe(expectedUpload);
      expect((await callChecked(caller, "POST", submissions, upload(""))).status).toBe(expectedUpload);
      uploaded.add(who);
      expect((await callChecked(caller, "PATCH", `/api/v1/phases/${phaseId}`, { json: { leaderboardVisibility: "PUBLIC" } })).status).toBe(caller.user ? 403 : 401);
    },
  );

  it("the broken uploads were all refused: only the three scored runs exist", async () => {
    expect([...uploaded].sort(), "the callers whose uploads were sent").toEqual(callers.map((c) => c.who).sort());
    const list = await expectJson<{ rows: { submissionId: string }[] }>(await callApi("GET", `${board}?all=1`));
    expect(list.rows.map((r) => r.submissionId).sort()).toEqual([ids.own, ids.partial, ids.rival].sort());
  });

  it("an organizer's view of a run names the gold version and the run's file", async () => {
    const view = await expectJson<{ viewerIsOrganizer: boolean; file?: unknown; goldVersion: number }>(await callApi("GET", `/api/v1/submissions/${ids.own}`, { cookie: organizerCookie }));
    expect(view).toMatchObject({ viewerIsOrganizer: true, goldVersion: 1, file: expect.anything() });
  });
});
