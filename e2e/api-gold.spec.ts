/**
 * Gold never leaks into pages (acceptance item). An organizer uploads a gold key whose tokens,
 * chain ids and file name are distinctive canaries (./helpers/gold-canaries.ts); then anonymous
 * visitors, a participant, the rival participant and a signed-in non-participant (session
 * cookies) load every page they can reach, and no body or header the real server sends (the
 * HTML with the data Next embeds for its client components, the redirects, the proxy's
 * headers) may contain a canary, nor the gold key's metadata (file name, sha256), which only
 * organizers may see: they do see it on the console's gold tab.
 *
 * The API half of the check (every API route, for these callers and for API tokens: reads,
 * error answers, broken uploads, the console's runs API and archive) is in
 * app/api/v1/gold-access.test.ts, which calls the route handlers directly.
 *
 * The phase's participant analysis is TEAMS: the task's teams (the participant's and the
 * rival's) see the document views, which show the gold's mentions by design; anonymous readers
 * and the signed-in non-participant get 404 for the real documents' pages, which are checked
 * for canaries too. Pages know their viewer by the session cookie alone (`getViewer()` without
 * a request, lib/auth/session.ts): a bearer token makes a page request anonymous, which the
 * anonymous visitor's pages check; the account page sends a bearer caller to sign in, as it
 * does an anonymous one.
 */
import { expect, test, type APIRequestContext, type APIResponse } from "@playwright/test";
import { anonymousContext, bearer, signedInContext, type TestUser } from "./helpers/accounts";
import { GOLD, GOLD_FILE_NAME, goldCanaries, KEY_DOCUMENTS, PARTIAL_RESPONSE, RESPONSE } from "./helpers/gold-canaries";
import { setupScenario } from "./helpers/scenario";
import { openPhase, postRun, waitScored } from "./helpers/tasks";

interface Viewer {
  who: string;
  context: APIRequestContext;
  user: TestUser | null;
}

test("gold content and gold metadata never reach a page of anyone but organizers", async ({ request }) => {
  test.setTimeout(180_000);
  const scenario = await setupScenario({
    users: { organizer: {}, participant: { token: true }, rival: { token: true }, outsider: { token: true } },
    task: {
      phases: [openPhase("test", { participantAnalysis: "TEAMS" })],
      organizers: ["organizer"],
      gold: [{ phase: "test", text: GOLD, fileName: GOLD_FILE_NAME, as: "organizer" }],
    },
  });
  const task = scenario.task!;
  const phaseId = task.phases.test!.id;
  const { organizer, participant, rival, outsider } = scenario.users;
  const gold = scenario.gold[0]!;
  expect(gold).toMatchObject({ version: 1, documents: 2, fileName: GOLD_FILE_NAME });
  const [participantToken, rivalToken] = [participant.token!, rival.token!];

  // Submissions: the participant's (bearer), a partial one, and the rival's, scored by the site's worker.
  const ownId = await postRun(request, phaseId, participantToken, RESPONSE, "Participant Full");
  const partialId = await postRun(request, phaseId, participantToken, PARTIAL_RESPONSE, "Participant Partial", "out.conll", { acknowledgeWarnings: true });
  const rivalId = await postRun(request, phaseId, rivalToken, RESPONSE, "Rival System");
  for (const id of [ownId, partialId, rivalId]) await waitScored(request, id, participantToken);

  const forbidden = goldCanaries(gold.sha256);
  let checked = 0;
  /** One request; its body and headers must hold no canary. */
  const fetchChecked = async (who: string, context: APIRequestContext, url: string, headers: Record<string, string> = {}): Promise<APIResponse> => {
    const response = await context.get(url, { headers });
    const body = await response.text();
    const headerText = JSON.stringify(response.headersArray());
    for (const canary of forbidden) {
      expect(body, `${who}: GET ${url} (${response.status()}) leaks ${canary}`).not.toContain(canary);
      expect(headerText, `${who}: GET ${url} headers leak ${canary}`).not.toContain(canary);
    }
    checked++;
    return response;
  };

  // A bearer token makes a page request anonymous: the account page sends it to sign in.
  for (const [who, token] of [["participant (bearer)", participantToken], ["non-participant (bearer)", outsider.token!]] as const) {
    const account = await fetchChecked(who, request, "/account", bearer(token));
    expect(new URL(account.url()).pathname, `${who}: /account treats a bearer token as no session`).toBe("/signin");
  }

  const viewers: Viewer[] = [
    { who: "anonymous", context: await anonymousContext(), user: null },
    { who: "participant (cookie)", context: await signedInContext(participant), user: participant },
    { who: "rival participant (cookie)", context: await signedInContext(rival), user: rival },
    { who: "non-participant (cookie)", context: await signedInContext(outsider), user: outsider },
  ];
  for (const viewer of viewers) {
    // The task's teams (participant, rival) see the analysis; nobody else does.
    const ofTaskTeams = viewer.user === participant || viewer.user === rival;
    // HTML pages (those that exist; 404 is fine).
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
      ...(ofTaskTeams ? [] : KEY_DOCUMENTS.flatMap((doc) => [`/submissions/${ownId}/documents/${doc}`, `/submissions/${rivalId}/documents/${doc}`])),
      `/compare?a=${ownId}&b=${partialId}`,
      "/metrics",
      "/metrics/muc",
      "/teams",
      "/account",
    ];
    for (const page of pages) {
      const status = (await fetchChecked(viewer.who, viewer.context, page)).status();
      expect(status, `${viewer.who} GET ${page}`).toBeLessThan(500);
    }
  }

  // Organizers do see the gold key's metadata on the console's gold tab.
  const organizerContext = await signedInContext(organizer);
  const manageGold = await organizerContext.get(`/tasks/${task.slug}/manage/gold`);
  expect(manageGold.status()).toBe(200);
  expect(await manageGold.text()).toContain(gold.sha256);
  await organizerContext.dispose();
  for (const viewer of viewers) await viewer.context.dispose();
  test.info().annotations.push({ type: "checked", description: `${checked} responses checked for canaries` });
});
