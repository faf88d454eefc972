/**
 * The authorization inventory (issue 11): every API route and method, probed as each kind of
 * viewer, with the answer that kind must get.
 *
 * Viewers: `anonymous` (no credentials); `bystander` (signed in, no part in the task);
 * `rival` (a member of another team that submitted to the task); `member` (a member of the
 * team whose run or team the route names); `organizer` (a TaskOrganizer of the task); `admin`
 * (a site admin who does not organize the task). Signed-in viewers use API tokens.
 *
 * Outcomes: `ok` a 2xx answer; `allowed` passed authorization: a 2xx, or a 409 / 410 / 422 that
 * the route gives for the probe's deliberately unusable input (so that the probe changes
 * nothing, or changes it once); `denied` a 401, 403 or 404 (a viewer who may not know that the
 * thing exists gets the same 404 as for an unknown id); `401` exactly. For each probe the viewers
 * that should be refused go first, so that an allowed viewer's change cannot make a later
 * refusal look right.
 *
 * The first test reads every `apiRoute("METHOD /api/v1/…")` label under app/api and fails for
 * a route that has no probe here (and for a probe naming a route that no longer exists).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { expect, request as playwrightRequest, test, type APIRequestContext } from "@playwright/test";
import { bearer } from "./helpers/accounts";
import { setupScenario, type Scenario } from "./helpers/scenario";
import { BASE_URL, ROOT } from "./helpers/server";
import { openPhase, postRun, SMALL_KEY, SMALL_RESPONSE, waitScored } from "./helpers/tasks";

type Who = "anonymous" | "bystander" | "rival" | "member" | "organizer" | "admin";
const WHO: readonly Who[] = ["anonymous", "bystander", "rival", "member", "organizer", "admin"];
type Outcome = "ok" | "allowed" | "denied" | 401;

/** One route and method, probed as every kind of viewer. */
interface Probe {
  /** the route's `apiRoute` label, e.g. "GET /api/v1/phases/:phaseId" */
  route: string;
  /** the concrete path to request (built after setup) */
  path: () => string;
  /** JSON body, or multipart fields */
  json?: unknown;
  /** further checks of a 2xx answer's JSON, as the viewer (what the viewer may not see is absent) */
  check?: (who: Who, body: unknown) => void;
  multipart?: Record<string, string | { name: string; mimeType: string; buffer: Buffer }>;
  expect: Record<Who, Outcome>;
}

// "siteAdmin", not "admin": the scenario's task creator is its own "admin" user.
type Users = "bystander" | "rival" | "member" | "organizer" | "siteAdmin";
let scenario: Scenario<Users>;
let draft: Scenario<"owner">;
const ids = {
  slug: "",
  phase: "",
  closedPhase: "",
  dataset: "",
  memberRun: "",
  memberRunToWithdraw: "",
  rivalRun: "",
  memberTeam: "",
  draftSlug: "",
  draftPhase: "",
  organizerInvitation: "",
  document: "",
  teamInvitation: "",
};

const everyone = (outcome: Outcome): Record<Who, Outcome> => ({ anonymous: outcome, bystander: outcome, rival: outcome, member: outcome, organizer: outcome, admin: outcome });
/** Organizers and admins pass; anonymous viewers get 401; everyone else is refused. */
const organizersOnly: Record<Who, Outcome> = { anonymous: 401, bystander: "denied", rival: "denied", member: "denied", organizer: "allowed", admin: "allowed" };
/** Signed-in viewers pass; anonymous viewers get 401. */
const signedIn: Record<Who, Outcome> = { anonymous: 401, bystander: "allowed", rival: "allowed", member: "allowed", organizer: "allowed", admin: "allowed" };
/** The team's members pass; anonymous viewers get 401; everyone else is refused. */
const membersOnly: Record<Who, Outcome> = { anonymous: 401, bystander: "denied", rival: "denied", member: "allowed", organizer: "denied", admin: "denied" };
/**
 * The draft task: only its organizers (none of the viewers here) and site admins know it
 * exists; everyone else, anonymous viewers included, gets the same refusal as for an unknown task.
 */
const draftAdminsOnly: Record<Who, Outcome> = { anonymous: "denied", bystander: "denied", rival: "denied", member: "denied", organizer: "denied", admin: "allowed" };

const file = (text: string) => ({ name: "out.conll", mimeType: "text/plain", buffer: Buffer.from(text) });

/** The probes: one per route and method (more where a route's rule depends on the target). */
const PROBES: Probe[] = [
  // Tasks.
  { route: "GET /api/v1/tasks", path: () => "/api/v1/tasks", expect: everyone("ok") },
  { route: "GET /api/v1/tasks/:slug", path: () => `/api/v1/tasks/${ids.slug}`, expect: everyone("ok") },
  { route: "GET /api/v1/tasks/:slug", path: () => `/api/v1/tasks/${ids.draftSlug}`, expect: { ...draftAdminsOnly, admin: "ok" } },
  { route: "PATCH /api/v1/tasks/:slug", path: () => `/api/v1/tasks/${ids.slug}`, json: { title: "" }, expect: organizersOnly },
  { route: "GET /api/v1/tasks/:slug/publish", path: () => `/api/v1/tasks/${ids.slug}/publish`, expect: { ...organizersOnly, organizer: "ok", admin: "ok" } },
  { route: "POST /api/v1/tasks/:slug/publish", path: () => `/api/v1/tasks/${ids.draftSlug}/publish`, expect: draftAdminsOnly },
  { route: "DELETE /api/v1/tasks/:slug/archive", path: () => `/api/v1/tasks/${ids.slug}/archive`, expect: organizersOnly },
  { route: "POST /api/v1/tasks/:slug/phases", path: () => `/api/v1/tasks/${ids.slug}/phases`, json: { name: "" }, expect: organizersOnly },
  { route: "GET /api/v1/tasks/:slug/audit", path: () => `/api/v1/tasks/${ids.slug}/audit`, expect: { ...organizersOnly, organizer: "ok", admin: "ok" } },
  { route: "GET /api/v1/tasks/:slug/organizer-invitations", path: () => `/api/v1/tasks/${ids.slug}/organizer-invitations`, expect: { ...organizersOnly, organizer: "ok", admin: "ok" } },
  { route: "POST /api/v1/tasks/:slug/organizer-invitations", path: () => `/api/v1/tasks/${ids.slug}/organizer-invitations`, json: { email: "not an address" }, expect: organizersOnly },
  { route: "DELETE /api/v1/tasks/:slug/organizer-invitations/:id", path: () => `/api/v1/tasks/${ids.slug}/organizer-invitations/${ids.organizerInvitation}`, expect: organizersOnly },

  // Phases.
  { route: "GET /api/v1/phases/:phaseId", path: () => `/api/v1/phases/${ids.phase}`, expect: everyone("ok") },
  { route: "GET /api/v1/phases/:phaseId", path: () => `/api/v1/phases/${ids.draftPhase}`, expect: { ...draftAdminsOnly, admin: "ok" } },
  { route: "PATCH /api/v1/phases/:phaseId", path: () => `/api/v1/phases/${ids.phase}`, json: { dailyLimit: -1 }, expect: organizersOnly },
  { route: "DELETE /api/v1/phases/:phaseId", path: () => `/api/v1/phases/${ids.phase}`, expect: organizersOnly },
  { route: "GET /api/v1/phases/:phaseId/datasets", path: () => `/api/v1/phases/${ids.phase}/datasets`, expect: everyone("ok") },
  { route: "POST /api/v1/phases/:phaseId/datasets", path: () => `/api/v1/phases/${ids.phase}/datasets`, json: { name: "" }, expect: organizersOnly },
  { route: "PATCH /api/v1/phases/:phaseId/datasets/:datasetId", path: () => `/api/v1/phases/${ids.phase}/datasets/${ids.dataset}`, json: { name: "" }, expect: organizersOnly },
  { route: "DELETE /api/v1/phases/:phaseId/datasets/:datasetId", path: () => `/api/v1/phases/${ids.phase}/datasets/${ids.dataset}`, expect: organizersOnly },
  { route: "POST /api/v1/phases/:phaseId/gold", path: () => `/api/v1/phases/${ids.phase}/gold`, multipart: { note: "no file" }, expect: organizersOnly },
  { route: "POST /api/v1/phases/:phaseId/gold", path: () => `/api/v1/phases/${ids.draftPhase}/gold`, multipart: { note: "no file" }, expect: draftAdminsOnly },
  { route: "GET /api/v1/phases/:phaseId/leaderboard", path: () => `/api/v1/phases/${ids.phase}/leaderboard`, expect: everyone("ok") },
  { route: "GET /api/v1/phases/:phaseId/leaderboard", path: () => `/api/v1/phases/${ids.draftPhase}/leaderboard`, expect: { ...draftAdminsOnly, admin: "ok" } },
  { route: "POST /api/v1/phases/:phaseId/submissions", path: () => `/api/v1/phases/${ids.phase}/submissions`, multipart: { systemName: "no file" }, expect: signedIn },
  { route: "POST /api/v1/phases/:phaseId/submissions", path: () => `/api/v1/phases/${ids.draftPhase}/submissions`, multipart: { systemName: "x", file: file(SMALL_RESPONSE) }, expect: draftAdminsOnly },
  { route: "GET /api/v1/phases/:phaseId/runs", path: () => `/api/v1/phases/${ids.phase}/runs`, expect: { ...organizersOnly, organizer: "ok", admin: "ok" } },
  { route: "GET /api/v1/phases/:phaseId/runs/archive", path: () => `/api/v1/phases/${ids.phase}/runs/archive`, expect: { ...organizersOnly, organizer: "ok", admin: "ok" } },
  { route: "POST /api/v1/phases/:phaseId/rescore", path: () => `/api/v1/phases/${ids.closedPhase}/rescore`, expect: organizersOnly },
  { route: "GET /api/v1/phases/:phaseId/results", path: () => `/api/v1/phases/${ids.closedPhase}/results`, expect: everyone("ok") },
  { route: "POST /api/v1/phases/:phaseId/results", path: () => `/api/v1/phases/${ids.phase}/results`, json: { note: "" }, expect: organizersOnly },
  { route: "GET /api/v1/phases/:phaseId/results/:number", path: () => `/api/v1/phases/${ids.closedPhase}/results/1`, expect: everyone("ok") },
  { route: "GET /api/v1/phases/:phaseId/results/:number/csv", path: () => `/api/v1/phases/${ids.closedPhase}/results/1/csv`, expect: everyone("ok") },

  // Submissions.
  { route: "GET /api/v1/submissions/:id", path: () => `/api/v1/submissions/${ids.memberRun}`, expect: everyone("ok") },
  {
    // The pronoun disclosure is public; the error analysis (it shows the gold) is the organizers' only on a phase whose participant analysis is NONE.
    route: "GET /api/v1/submissions/:id/analysis",
    path: () => `/api/v1/submissions/${ids.memberRun}/analysis`,
    expect: everyone("ok"),
    check: (who, body) => {
      const analysis = body as { canViewErrors: boolean; errorTotals: unknown; documents: unknown };
      const organizer = who === "organizer" || who === "admin";
      expect(analysis.canViewErrors, who).toBe(organizer);
      expect(analysis.errorTotals === null, who).toBe(!organizer);
      expect(analysis.documents === null, who).toBe(!organizer);
    },
  },
  { route: "GET /api/v1/submissions/:id/documents/:document", path: () => `/api/v1/submissions/${ids.memberRun}/documents/${encodeURIComponent(ids.document)}`, expect: { anonymous: "denied", bystander: "denied", rival: "denied", member: "denied", organizer: "ok", admin: "ok" } },
  { route: "POST /api/v1/submissions/:id/withdraw", path: () => `/api/v1/submissions/${ids.memberRunToWithdraw}/withdraw`, expect: membersOnly },
  { route: "POST /api/v1/submissions/:id/disqualify", path: () => `/api/v1/submissions/${ids.rivalRun}/disqualify`, json: { reason: "" }, expect: organizersOnly },
  { route: "DELETE /api/v1/submissions/:id/disqualify", path: () => `/api/v1/submissions/${ids.rivalRun}/disqualify`, expect: organizersOnly },
  { route: "POST /api/v1/submissions/:id/hide", path: () => `/api/v1/submissions/${ids.rivalRun}/hide`, expect: organizersOnly },
  { route: "DELETE /api/v1/submissions/:id/hide", path: () => `/api/v1/submissions/${ids.rivalRun}/hide`, expect: organizersOnly },
  { route: "POST /api/v1/submissions/:id/rescore", path: () => `/api/v1/submissions/${ids.rivalRun}/rescore`, expect: organizersOnly },
  { route: "POST /api/v1/submissions/:id/final", path: () => `/api/v1/submissions/${ids.memberRun}/final`, expect: membersOnly },
  { route: "DELETE /api/v1/submissions/:id/final", path: () => `/api/v1/submissions/${ids.memberRun}/final`, expect: membersOnly },
  { route: "GET /api/v1/compare", path: () => `/api/v1/compare?a=${ids.memberRun}&b=${ids.rivalRun}`, expect: everyone("ok") },

  // Teams.
  { route: "GET /api/v1/teams/:teamId/invitations", path: () => `/api/v1/teams/${ids.memberTeam}/invitations`, expect: { ...membersOnly, member: "ok" } },
  { route: "POST /api/v1/teams/:teamId/invitations", path: () => `/api/v1/teams/${ids.memberTeam}/invitations`, expect: membersOnly },
  { route: "DELETE /api/v1/teams/:teamId/invitations/:id", path: () => `/api/v1/teams/${ids.memberTeam}/invitations/${ids.teamInvitation}`, expect: membersOnly },

  // Last: archiving (the draft task; an admin may archive it, which would end the probes of its draft state).
  { route: "POST /api/v1/tasks/:slug/archive", path: () => `/api/v1/tasks/${ids.draftSlug}/archive`, expect: draftAdminsOnly },
];

/** Route labels that need no probe, with the reason. */
const EXEMPT: Record<string, string> = {};

/** Every `apiRoute("METHOD /api/v1/…")` label in the app's route files. */
function routeLabels(): string[] {
  const labels: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name === "route.ts") for (const m of readFileSync(full, "utf8").matchAll(/apiRoute\(\s*"([A-Z]+ \/api\/v1\/[^"]*)"/g)) labels.push(m[1]!);
    }
  };
  walk(path.join(ROOT, "app", "api"));
  return [...new Set(labels)].sort();
}

/** Whether a status is the outcome. */
function matches(outcome: Outcome, status: number): boolean {
  switch (outcome) {
    case "ok":
      return status >= 200 && status < 300;
    case "allowed":
      return (status >= 200 && status < 300) || status === 409 || status === 410 || status === 422;
    case "denied":
      return status === 401 || status === 403 || status === 404;
    case 401:
      return status === 401;
  }
}

test.describe("authorization inventory", () => {
  test("every API route has a probe, and every probe names a route", () => {
    const labels = routeLabels();
    const probed = new Set(PROBES.map((p) => p.route));
    expect(labels.filter((l) => !probed.has(l) && !(l in EXEMPT)), "routes without a probe").toEqual([]);
    expect([...probed].filter((r) => !labels.includes(r)), "probes of routes that do not exist").toEqual([]);
  });

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    scenario = await setupScenario<Users>({
      users: { bystander: { token: true }, rival: { token: true }, member: { token: true }, organizer: { token: true }, siteAdmin: { admin: true, token: true } },
      teams: { Members: ["member"], Rivals: ["rival"] },
      task: {
        phases: [openPhase("main"), openPhase("final")],
        organizers: ["organizer"],
        gold: [
          { phase: "main", text: SMALL_KEY, as: "organizer" },
          { phase: "final", text: SMALL_KEY, as: "organizer" },
        ],
      },
    });
    draft = await setupScenario<"owner">({ users: { owner: {} }, task: { draft: true, phases: [openPhase("test")] } });
    const task = scenario.task!;
    ids.slug = task.slug;
    ids.phase = task.phases.main!.id;
    ids.closedPhase = task.phases.final!.id;
    ids.memberTeam = scenario.teams.Members!.id;
    ids.draftSlug = draft.task!.slug;
    ids.draftPhase = draft.task!.phases.test!.id;
    const api = await playwrightRequest.newContext({ baseURL: BASE_URL });
    const member = scenario.users.member.token!;
    const rival = scenario.users.rival.token!;
    const organizer = scenario.users.organizer.token!;
    ids.memberRun = await postRun(api, ids.phase, member, SMALL_KEY, "member-run");
    ids.memberRunToWithdraw = await postRun(api, ids.phase, member, SMALL_RESPONSE, "member-run-2");
    ids.rivalRun = await postRun(api, ids.phase, rival, SMALL_RESPONSE, "rival-run");
    const finalRun = await postRun(api, ids.closedPhase, rival, SMALL_RESPONSE, "rival-final");
    for (const [id, token] of [
      [ids.memberRun, member],
      [ids.memberRunToWithdraw, member],
      [ids.rivalRun, rival],
      [finalRun, rival],
    ] as const)
      await waitScored(api, id, token);
    const analysis = (await (await api.get(`/api/v1/submissions/${ids.memberRun}/analysis`, { headers: bearer(organizer) })).json()) as { documents: { document: string }[] };
    ids.document = analysis.documents[0]!.document;
    const datasets = (await (await api.get(`/api/v1/phases/${ids.phase}/datasets`)).json()) as { datasets: { id: string }[] };
    ids.dataset = datasets.datasets[0]!.id;
    // The "final" phase closes now, and its results are published (snapshot 1).
    const close = await api.patch(`/api/v1/phases/${ids.closedPhase}`, { headers: bearer(organizer), data: { closesAt: new Date().toISOString() } });
    expect(close.status(), await close.text()).toBe(200);
    const publish = await api.post(`/api/v1/phases/${ids.closedPhase}/results`, { headers: bearer(organizer), data: { note: "Final results." } });
    expect(publish.status(), await publish.text()).toBeLessThan(300);
    const invite = await api.post(`/api/v1/tasks/${ids.slug}/organizer-invitations`, { headers: bearer(organizer), data: { email: `co-${ids.slug}@example.org` } });
    expect(invite.status(), await invite.text()).toBeLessThan(300);
    ids.organizerInvitation = ((await invite.json()) as { invitation: { id: string } }).invitation.id;
    const link = await api.post(`/api/v1/teams/${ids.memberTeam}/invitations`, { headers: bearer(member) });
    expect(link.status(), await link.text()).toBeLessThan(300);
    ids.teamInvitation = ((await link.json()) as { invitation: { id: string } }).invitation.id;
    await api.dispose();
  });

  for (const probe of PROBES) {
    test(`${probe.route} (${probe.path.toString().includes("draft") ? "draft task" : "published task"})`, async () => {
      const api: APIRequestContext = await playwrightRequest.newContext({ baseURL: BASE_URL });
      const token = (who: Who): string | null => (who === "anonymous" ? null : scenario.users[who === "admin" ? "siteAdmin" : who].token);
      // Refusals first, then the viewers who pass.
      const order = [...WHO].sort((a, b) => Number(probe.expect[a] !== "denied" && probe.expect[a] !== 401) - Number(probe.expect[b] !== "denied" && probe.expect[b] !== 401));
      const seen: string[] = [];
      try {
        for (const who of order) {
          const method = probe.route.split(" ")[0]!;
          const t = token(who);
          const response = await api.fetch(probe.path(), {
            method,
            headers: t ? bearer(t) : {},
            ...(probe.json !== undefined ? { data: probe.json } : {}),
            ...(probe.multipart ? { multipart: probe.multipart } : {}),
            maxRedirects: 0,
          });
          seen.push(`${who}: ${response.status()}`);
          expect(matches(probe.expect[who], response.status()), `${probe.route} as ${who}: expected ${probe.expect[who]}, got ${response.status()} ${(await response.text()).slice(0, 300)}`).toBe(true);
          if (probe.check && response.ok()) probe.check(who, await response.json());
        }
      } finally {
        test.info().annotations.push({ type: "answers", description: seen.join(", ") });
        await api.dispose();
      }
    });
  }
});
