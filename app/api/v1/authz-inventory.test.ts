/**
 * The authorization inventory (issue 11; moved here from Playwright by issue 22): every API
 * route and method, called as Next calls its handler (a `Request` and `{params}`), as each kind
 * of viewer, with the answer that kind must get. Real auth (API tokens, and no session cookie for
 * anonymous callers) and real services against the test database; only the queue is the test
 * double (lib/__mocks__/queue.ts), and runs are scored by calling the worker's
 * `scoreSubmission` (after each probe too, for the runs a rescore put back in the queue).
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
 * a route that has no probe here (and for a probe naming a route that no longer exists); each
 * probe calls the handler that the label's file exports for the method.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it, vi } from "vitest";

// lib/__mocks__/queue.ts: enqueueScoring is a vi.fn (the runs are scored below, in this process).
vi.mock("@/lib/queue");
// Anonymous requests read the session cookie; there is none outside a request.
vi.mock("next/headers", () => ({ cookies: async () => ({ getAll: () => [] }) }));

import { createApiToken } from "@/lib/accounts/api-tokens";
import { useTestDatabase } from "@/lib/db/test-db";
import { uploadGoldKey } from "@/lib/tasks/gold";
import { deriveBlindInput } from "@/lib/runs/participant-files";
import { packFile } from "@/lib/storage";
import { createTeamInvitation } from "@/lib/teams/invitations";
import { addOrganizer, createTask } from "@/lib/tasks/tasks";
import { makeTeam, makeUser, SMALL_KEY } from "@/lib/tasks/test-fixtures";
import { scoreSubmission } from "@/lib/worker/scoring-job";

const testDb = useTestDatabase();

type Who = "anonymous" | "bystander" | "rival" | "member" | "organizer" | "admin";
const WHO: readonly Who[] = ["anonymous", "bystander", "rival", "member", "organizer", "admin"];
type Outcome = "ok" | "allowed" | "denied" | 401;

/** One route and method, probed as every kind of viewer. */
interface Probe {
  /** the route's `apiRoute` label, e.g. "GET /api/v1/phases/:phaseId" */
  route: string;
  /** the concrete path to request (built after setup), with its query */
  path: () => string;
  /** JSON body */
  json?: unknown;
  /** multipart fields */
  multipart?: Record<string, string | { name: string; text: string }>;
  /** further checks of a 2xx answer's JSON, as the viewer (what the viewer may not see is absent) */
  check?: (who: Who, body: unknown) => void;
  expect: Record<Who, Outcome>;
}

/** A response for SMALL_KEY with one mention fewer (it scores, and differs from the key). */
const SMALL_RESPONSE = SMALL_KEY.replace("It\t(3)", "It\t-");

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
  /** a team the member is in as a plain MEMBER (its founder owns it), and a link of it */
  ledTeam: "",
  ledInvitation: "",
};
const tokens: Record<Exclude<Who, "anonymous">, string> = { bystander: "", rival: "", member: "", organizer: "", admin: "" };

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

const file = (text: string) => ({ name: "out.conll", text });

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
  { route: "GET /api/v1/phases/:phaseId/datasets/:datasetId/blind", path: () => `/api/v1/phases/${ids.phase}/datasets/${ids.dataset}/blind`, expect: everyone("ok") },
  { route: "GET /api/v1/phases/:phaseId/datasets/:datasetId/blind", path: () => `/api/v1/phases/${ids.draftPhase}/datasets/main/blind`, expect: { ...draftAdminsOnly, admin: "ok" } },
  { route: "POST /api/v1/phases/:phaseId/datasets/:datasetId/blind", path: () => `/api/v1/phases/${ids.phase}/datasets/${ids.dataset}/blind`, multipart: { note: "no file" }, expect: organizersOnly },
  { route: "POST /api/v1/phases/:phaseId/datasets/:datasetId/blind", path: () => `/api/v1/phases/${ids.draftPhase}/datasets/main/blind`, multipart: { note: "no file" }, expect: draftAdminsOnly },
  { route: "GET /api/v1/phases/:phaseId/sample-submission", path: () => `/api/v1/phases/${ids.phase}/sample-submission`, expect: everyone("ok") },
  { route: "GET /api/v1/phases/:phaseId/sample-submission", path: () => `/api/v1/phases/${ids.draftPhase}/sample-submission`, expect: { ...draftAdminsOnly, admin: "ok" } },
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
  { route: "GET /api/v1/phases/:phaseId/results/:number/latex", path: () => `/api/v1/phases/${ids.closedPhase}/results/1/latex`, expect: everyone("ok") },
  { route: "GET /api/v1/phases/:phaseId/results/:number/markdown", path: () => `/api/v1/phases/${ids.closedPhase}/results/1/markdown`, expect: everyone("ok") },

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
  // Only owners make and revoke links (issue 23 F4): the member is a plain MEMBER of the led team.
  { route: "POST /api/v1/teams/:teamId/invitations", path: () => `/api/v1/teams/${ids.ledTeam}/invitations`, json: { maxUses: 3 }, expect: { ...membersOnly, member: "denied" } },
  { route: "DELETE /api/v1/teams/:teamId/invitations/:id", path: () => `/api/v1/teams/${ids.ledTeam}/invitations/${ids.ledInvitation}`, expect: { ...membersOnly, member: "denied" } },

  // Last: archiving (the draft task; an admin may archive it, which would end the probes of its draft state).
  { route: "POST /api/v1/tasks/:slug/archive", path: () => `/api/v1/tasks/${ids.draftSlug}/archive`, expect: draftAdminsOnly },
];

/** Route labels that need no probe, with the reason. */
const EXEMPT: Record<string, string> = {};

const API_DIR = path.dirname(fileURLToPath(import.meta.url));

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
  walk(API_DIR);
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

type Handler = (request: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

/**
 * The handler a route label names: the `route.ts` under app/api at the label's path (`:name`
 * segments are `[name]` folders), its export named by the method; and the params Next would
 * pass for `pathname` (decoded).
 */
async function handlerFor(route: string, pathname: string): Promise<{ handler: Handler; params: Record<string, string> }> {
  const [method, pattern] = route.split(" ") as [string, string];
  const segments = pattern.split("/").slice(3); // after "", "api", "v1"
  const actual = pathname.split("/").slice(3);
  const params: Record<string, string> = {};
  segments.forEach((segment, i) => {
    if (segment.startsWith(":")) params[segment.slice(1)] = decodeURIComponent(actual[i]!);
  });
  const file = path.join(API_DIR, ...segments.map((s) => (s.startsWith(":") ? `[${s.slice(1)}]` : s)), "route.ts");
  const module = (await import(file)) as Record<string, Handler | undefined>;
  const handler = module[method];
  if (!handler) throw new Error(`${file} exports no ${method}`);
  return { handler, params };
}

const BASE = "http://localhost:3000";
const bearer = (token: string | null): Record<string, string> => (token ? { Authorization: `Bearer ${token}` } : {});

/** Calls the route's handler as `token`'s holder (null: anonymous), as Next would. */
async function call(route: string, pathAndQuery: string, token: string | null, body: { json?: unknown; multipart?: Probe["multipart"] } = {}): Promise<Response> {
  const url = new URL(pathAndQuery, BASE);
  const { handler, params } = await handlerFor(route, url.pathname);
  const method = route.split(" ")[0]!;
  let init: RequestInit = { method, headers: bearer(token) };
  if (body.json !== undefined) init = { ...init, headers: { ...bearer(token), "Content-Type": "application/json" }, body: JSON.stringify(body.json) };
  if (body.multipart) {
    const form = new FormData();
    for (const [k, v] of Object.entries(body.multipart)) form.set(k, typeof v === "string" ? v : new File([v.text], v.name, { type: "text/plain" }));
    init = { ...init, body: form };
  }
  return handler(new Request(url, init), { params: Promise.resolve(params) });
}

/** Calls a route as `token`'s holder and expects a 2xx; returns its JSON. */
async function ok<T>(route: string, pathAndQuery: string, token: string, body: { json?: unknown; multipart?: Probe["multipart"] } = {}): Promise<T> {
  const response = await call(route, pathAndQuery, token, body);
  const text = await response.text();
  expect(response.status, `${route}: ${text.slice(0, 300)}`).toBeLessThan(300);
  return JSON.parse(text) as T;
}

/** Uploads a run through the submissions route as `token`'s holder, then scores it as the worker would. */
async function scoredRun(phaseId: string, token: string, text: string, systemName: string): Promise<string> {
  const { id } = await ok<{ id: string }>("POST /api/v1/phases/:phaseId/submissions", `/api/v1/phases/${phaseId}/submissions`, token, { multipart: { systemName, file: file(text) } });
  const outcome = await scoreSubmission(id, { workerId: "authz-inventory:1" });
  expect(outcome.status, JSON.stringify(outcome)).toBe("SCORED");
  return id;
}

/** Scores every queued run, as the worker would after a probe re-queued some (a rescore). */
async function drainQueue(): Promise<void> {
  const queued = await testDb.prisma.submission.findMany({ where: { status: "QUEUED" }, select: { id: true } });
  // (A run in the draft phase, which has no gold key, ends FAILED, as it would under the worker.)
  for (const { id } of queued) await scoreSubmission(id, { workerId: "authz-inventory:1" });
}

const DAY = 24 * 3600 * 1000;
const openPhase = (name: string) => ({ name, opensAt: new Date(Date.now() - DAY).toISOString(), closesAt: new Date(Date.now() + 30 * DAY).toISOString() });

beforeAll(async () => {
  const db = testDb.prisma;
  const creator = await makeUser(db, "Inventory Creator", "ADMIN");
  const users = {
    bystander: await makeUser(db, "Inventory Bystander"),
    rival: await makeUser(db, "Inventory Rival"),
    member: await makeUser(db, "Inventory Member"),
    organizer: await makeUser(db, "Inventory Organizer"),
    admin: await makeUser(db, "Inventory Site Admin", "ADMIN"),
  };
  for (const who of Object.keys(tokens) as (keyof typeof tokens)[]) tokens[who] = (await createApiToken(users[who].id, "inventory")).token;
  ids.memberTeam = (await makeTeam(db, "Members", [users.member.id])).id;
  await makeTeam(db, "Rivals", [users.rival.id]);

  // The published task: two open phases with gold keys; "final" closes below and gets results.
  const task = await createTask(creator.viewer, { slug: `inventory-${Date.now().toString(36)}`, title: "Inventory task", description: "The authorization inventory's task.", phases: [openPhase("main"), openPhase("final")] });
  await db.task.update({ where: { id: task.id }, data: { status: "PUBLISHED", publishedAt: new Date() } });
  await addOrganizer(creator.viewer, task.id, users.organizer.email);
  const phases = await db.phase.findMany({ where: { taskId: task.id }, select: { id: true, name: true } });
  ids.slug = task.slug;
  ids.phase = phases.find((p) => p.name === "main")!.id;
  ids.closedPhase = phases.find((p) => p.name === "final")!.id;
  for (const phaseId of [ids.phase, ids.closedPhase]) await uploadGoldKey(users.organizer.viewer, phaseId, "key.conll", Buffer.from(SMALL_KEY));

  // The draft task, organized by its creator only.
  const draft = await createTask(creator.viewer, { slug: `inventory-draft-${Date.now().toString(36)}`, title: "Inventory draft", description: "A draft.", phases: [openPhase("test")] });
  ids.draftSlug = draft.slug;
  ids.draftPhase = (await db.phase.findFirstOrThrow({ where: { taskId: draft.id }, select: { id: true } })).id;

  ids.memberRun = await scoredRun(ids.phase, tokens.member, SMALL_KEY, "member-run");
  ids.memberRunToWithdraw = await scoredRun(ids.phase, tokens.member, SMALL_RESPONSE, "member-run-2");
  ids.rivalRun = await scoredRun(ids.phase, tokens.rival, SMALL_RESPONSE, "rival-run");
  await scoredRun(ids.closedPhase, tokens.rival, SMALL_RESPONSE, "rival-final");

  const analysis = await ok<{ documents: { document: string }[] }>("GET /api/v1/submissions/:id/analysis", `/api/v1/submissions/${ids.memberRun}/analysis`, tokens.organizer);
  ids.document = analysis.documents[0]!.document;
  const datasets = await ok<{ datasets: { id: string }[] }>("GET /api/v1/phases/:phaseId/datasets", `/api/v1/phases/${ids.phase}/datasets`, tokens.organizer);
  ids.dataset = datasets.datasets[0]!.id;
  // Participant files: the main phase's blind input derived from its gold key; the draft's stored directly (it has no gold key).
  await deriveBlindInput(users.organizer.viewer, ids.phase, ids.dataset);
  const draftDataset = await db.dataset.findFirstOrThrow({ where: { phaseId: ids.draftPhase }, select: { id: true } });
  const draftBlind = packFile(Buffer.from(SMALL_RESPONSE.replace(/\t[^\t\n]*[()][^\t\n]*$/gm, "\t-")));
  await db.blindInput.create({ data: { phaseId: ids.draftPhase, datasetId: draftDataset.id, source: "uploaded", sha256: draftBlind.sha256, gzip: draftBlind.gzip, size: draftBlind.size, createdById: creator.id } });
  // The "final" phase closes now, and its results are published (snapshot 1).
  await ok("PATCH /api/v1/phases/:phaseId", `/api/v1/phases/${ids.closedPhase}`, tokens.organizer, { json: { closesAt: new Date().toISOString() } });
  await ok("POST /api/v1/phases/:phaseId/results", `/api/v1/phases/${ids.closedPhase}/results`, tokens.organizer, { json: { note: "Final results." } });
  const invite = await ok<{ invitation: { id: string } }>("POST /api/v1/tasks/:slug/organizer-invitations", `/api/v1/tasks/${ids.slug}/organizer-invitations`, tokens.organizer, { json: { email: `co-${ids.slug}@example.org` } });
  ids.organizerInvitation = invite.invitation.id;
  const link = await ok<{ invitation: { id: string } }>("POST /api/v1/teams/:teamId/invitations", `/api/v1/teams/${ids.memberTeam}/invitations`, tokens.member);
  ids.teamInvitation = link.invitation.id;
  // Last: once in two teams, the member's uploads elsewhere would have to name one.
  const founder = await makeUser(db, "Led team founder");
  ids.ledTeam = (await makeTeam(db, "Led", [founder.id, users.member.id])).id;
  ids.ledInvitation = (await createTeamInvitation(founder.viewer, ids.ledTeam)).invitation.id;
}, 120_000);

describe("authorization inventory", () => {
  it("every API route has a probe, and every probe names a route", () => {
    const labels = routeLabels();
    expect(labels.length).toBeGreaterThan(40);
    const probed = new Set(PROBES.map((p) => p.route));
    expect(labels.filter((l) => !probed.has(l) && !(l in EXEMPT)), "routes without a probe").toEqual([]);
    expect([...probed].filter((r) => !labels.includes(r)), "probes of routes that do not exist").toEqual([]);
  });

  // In order (sequential within the file): the archive probe is last.
  for (const probe of PROBES) {
    it(`${probe.route} (${probe.path.toString().includes("draft") ? "draft task" : "published task"})`, async () => {
      // Refusals first, then the viewers who pass.
      const order = [...WHO].sort((a, b) => Number(probe.expect[a] !== "denied" && probe.expect[a] !== 401) - Number(probe.expect[b] !== "denied" && probe.expect[b] !== 401));
      for (const who of order) {
        const response = await call(probe.route, probe.path(), who === "anonymous" ? null : tokens[who], { json: probe.json, multipart: probe.multipart });
        const text = await response.text();
        expect(matches(probe.expect[who], response.status), `${probe.route} as ${who}: expected ${probe.expect[who]}, got ${response.status} ${text.slice(0, 300)}`).toBe(true);
        if (probe.check && response.ok) probe.check(who, JSON.parse(text));
      }
      await drainQueue();
    });
  }
});
