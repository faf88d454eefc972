/**
 * For the route handler tests under app/api/v1 (test-only; no route imports this): call an API
 * path as Next would (the `route.ts` Next's router would pick for the path, its export for the
 * method, a `Request` carrying what a real client sends, and `{params}`), with real API tokens
 * or a real next-auth session cookie, and set up users, teams and tasks through the app's
 * services (as the e2e `setupScenario` did).
 *
 * The session cookie reaches `lib/auth/session.ts` through `next/headers`, which has no request
 * outside Next: the `site-app` Vitest project replaces it with {@link nextHeadersDouble}
 * (./test-doubles.setup.ts; a test file joins it with the line `// Vitest project: site-app`),
 * whose `cookies()` are those of the request being handled (its `Cookie` header), as in Next.
 *
 * This file must not import `lib/auth/session.ts` (or anything that imports `next/headers`): the
 * double is loaded from here while `next/headers` is being resolved.
 */
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { encode } from "next-auth/jwt";
import { expect } from "vitest";
import { createApiToken } from "@/lib/accounts/api-tokens";
import { authOptions, authSecret, usesSecureCookies } from "@/lib/auth/options";
import type { PrismaClient } from "@/lib/db/client";
import { uploadGoldKey, type GoldKeyMeta } from "@/lib/tasks/gold";
import { addOrganizer, createTask } from "@/lib/tasks/tasks";
import { createTeam, joinCodeFor, joinTeam } from "@/lib/teams/teams";
import { makeUser } from "@/lib/tasks/test-fixtures";
import type { SignedInUser } from "@/lib/accounts/users";
import { scoreSubmission } from "@/lib/worker/scoring-job";
import { openPhase, type TestPhaseInput } from "@/e2e/helpers/fixtures";

// The e2e tests' phases and files, so that both check the same numbers.
import { SMALL_RESPONSE } from "@/e2e/helpers/fixtures";
export { closedPhase, conll, openPhase, SMALL_KEY, SMALL_RESPONSE } from "@/e2e/helpers/fixtures";

/**
 * The site's address in the requests. Each request carries it in its `Host` header, as over
 * HTTP, which is what makes an `Origin` of this address the site's own (`apiViewer`).
 */
export const BASE_URL = "http://localhost:3100";

// ---------------------------------------------------------------------------------------------
// next/headers

/** The cookies of the request being handled (set by {@link callApi} and {@link withCookies}). */
let requestCookies: { name: string; value: string }[] = [];

/** Name/value pairs of a `Cookie` header. */
function parseCookieHeader(header: string | null): { name: string; value: string }[] {
  if (!header) return [];
  return header
    .split(";")
    .map((part) => part.trim())
    .filter((part) => part.includes("="))
    .map((part) => {
      const i = part.indexOf("=");
      return { name: part.slice(0, i), value: part.slice(i + 1) };
    });
}

/**
 * The test double of `next/headers`: `cookies()` are the current request's ({@link withCookies}),
 * and `headers()` are a request's without `X-Forwarded-For` (no per-address limits).
 */
export const nextHeadersDouble = {
  headers: async () => new Headers(),
  cookies: async () => {
    const jar = requestCookies.map((c) => ({ ...c }));
    return { getAll: () => jar, get: (name: string) => jar.find((c) => c.name === name), has: (name: string) => jar.some((c) => c.name === name) };
  },
};

/**
 * Runs `run` as code of a request whose `Cookie` header is `cookie` (a server action, a page):
 * `cookies()` from `next/headers` gives its cookies meanwhile.
 */
export async function withCookies<T>(cookie: string | null, run: () => Promise<T>): Promise<T> {
  const before = requestCookies;
  requestCookies = parseCookieHeader(cookie);
  try {
    return await run();
  } finally {
    requestCookies = before;
  }
}

// ---------------------------------------------------------------------------------------------
// Sessions

/**
 * A `Cookie` header value carrying a next-auth session for the user, as signing in makes it:
 * the app's `jwt` callback fills the token from the user as `verifyCredentials` returns it (with
 * the user's current session version), and next-auth's `encode` encrypts it with the app's
 * secret, under the cookie name next-auth uses for this configuration.
 */
export async function sessionCookie(db: PrismaClient, userId: string): Promise<string> {
  const row = await db.user.findUniqueOrThrow({ where: { id: userId }, select: { id: true, email: true, name: true, role: true, sessionVersion: true } });
  const user: SignedInUser = row;
  const jwt = authOptions.callbacks!.jwt!;
  const token = await jwt({ token: {}, user: user as never, account: null, trigger: "signIn" } as Parameters<typeof jwt>[0]);
  const value = await encode({ token, secret: authSecret()!, maxAge: authOptions.session!.maxAge });
  const name = `${usesSecureCookies() ? "__Secure-" : ""}next-auth.session-token`;
  return `${name}=${value}`;
}

// ---------------------------------------------------------------------------------------------
// Calling routes

type Handler = (request: Request, ctx: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;

const APP_API_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/**
 * The route file Next's router picks for an `/api/...` path, and the params it passes: at each
 * level a static folder before a `[param]` folder before a `[...catchAll]` folder, the first
 * choice that leads to a `route.ts` for the whole path. (Enough for app/api, which has no route
 * groups and no optional catch-all folders.)
 */
export function resolveRoute(pathname: string): { file: string; params: Record<string, string | string[]> } | null {
  const segments = pathname.split("/").slice(2).map((s) => decodeURIComponent(s)); // after "", "api"
  const walk = (dir: string, rest: string[], params: Record<string, string | string[]>): { file: string; params: Record<string, string | string[]> } | null => {
    if (rest.length === 0) {
      const file = path.join(dir, "route.ts");
      return existsFile(file) ? { file, params } : null;
    }
    const [head, ...tail] = rest as [string, ...string[]];
    const folders = readdirSync(dir).filter((name) => statSync(path.join(dir, name)).isDirectory());
    if (folders.includes(head) && !head.startsWith("[")) {
      const found = walk(path.join(dir, head), tail, params);
      if (found) return found;
    }
    for (const name of folders.filter((n) => /^\[[^.[\]]+\]$/.test(n))) {
      const found = walk(path.join(dir, name), tail, { ...params, [name.slice(1, -1)]: head });
      if (found) return found;
    }
    for (const name of folders.filter((n) => /^\[\.\.\.[^\]]+\]$/.test(n))) {
      const file = path.join(dir, name, "route.ts");
      if (existsFile(file)) return { file, params: { ...params, [name.slice(4, -1)]: rest } };
    }
    return null;
  };
  return walk(APP_API_DIR, segments, {});
}

function existsFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** A file part of a multipart body. */
export interface UploadFile {
  name: string;
  content: string | Uint8Array;
  type?: string;
}

/** What a test request carries besides its method and path. */
export interface CallOptions {
  /** an API token, sent as `Authorization: Bearer <token>` */
  token?: string | null;
  /** more headers (`Authorization`, `Origin`, `Content-Type`, ...) */
  headers?: Record<string, string>;
  /** the `Cookie` header (e.g. {@link sessionCookie}) */
  cookie?: string | null;
  /** a JSON body (`Content-Type: application/json`) */
  json?: unknown;
  /** a multipart/form-data body */
  multipart?: Record<string, string | UploadFile>;
  /** a raw body */
  body?: string | Uint8Array;
}

/** The bytes and content type of a multipart body, as a client serializes it. */
export async function multipartBody(fields: Record<string, string | UploadFile>): Promise<{ bytes: Uint8Array; contentType: string }> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value === "string") form.set(name, value);
    else form.set(name, new File([value.content as BlobPart], value.name, { type: value.type ?? "text/plain" }));
  }
  const serialized = new Response(form);
  return { bytes: new Uint8Array(await serialized.arrayBuffer()), contentType: serialized.headers.get("content-type")! };
}

/**
 * A request as a client sends it over HTTP: `Host`, the body's `Content-Length` and
 * `Content-Type`, and the given headers.
 */
export async function apiRequest(method: string, pathAndQuery: string, options: CallOptions = {}): Promise<Request> {
  const url = new URL(pathAndQuery, BASE_URL);
  const headers: Record<string, string> = { Host: url.host };
  let body: Uint8Array | undefined;
  if (options.json !== undefined) {
    body = new TextEncoder().encode(JSON.stringify(options.json));
    headers["Content-Type"] = "application/json";
  } else if (options.multipart) {
    const encoded = await multipartBody(options.multipart);
    body = encoded.bytes;
    headers["Content-Type"] = encoded.contentType;
  } else if (options.body !== undefined) {
    body = typeof options.body === "string" ? new TextEncoder().encode(options.body) : options.body;
  }
  if (body) headers["Content-Length"] = String(body.byteLength);
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  if (options.cookie) headers.Cookie = options.cookie;
  return new Request(url, { method, headers: { ...headers, ...options.headers }, body: body as BodyInit | undefined });
}

/**
 * Hands a request to the handler Next would call for its path and method, with the request's
 * cookies visible to `next/headers` while it runs.
 *
 * @throws Error when no route matches the path or its file exports no handler for the method
 *   (Next would answer 404 or 405 itself)
 */
export async function dispatch(request: Request): Promise<Response> {
  const { pathname } = new URL(request.url);
  const route = resolveRoute(pathname);
  if (!route) throw new Error(`no route.ts matches ${pathname}`);
  const module = (await import(route.file)) as Record<string, Handler | undefined>;
  const handler = module[request.method];
  if (!handler) throw new Error(`${route.file} exports no ${request.method}`);
  return withCookies(request.headers.get("cookie"), () => handler(request, { params: Promise.resolve(route.params) }));
}

/** Builds the request ({@link apiRequest}) and dispatches it ({@link dispatch}). */
export async function callApi(method: string, pathAndQuery: string, options: CallOptions = {}): Promise<Response> {
  return dispatch(await apiRequest(method, pathAndQuery, options));
}

/** The JSON error of a refusal, after checking its status, that it is JSON and not cached, and its code. */
export async function expectError(response: Response, status: number, code: string): Promise<{ code: string; message: string } & Record<string, unknown>> {
  const text = await response.text();
  expect(response.status, text.slice(0, 500)).toBe(status);
  expect(response.headers.get("content-type")).toContain("application/json");
  expect(response.headers.get("cache-control")).toBe("no-store");
  const body = JSON.parse(text) as { error: { code: string; message: string } & Record<string, unknown> };
  expect(body.error.code).toBe(code);
  expect(body.error.message.length).toBeGreaterThan(10);
  return body.error;
}

/** The JSON of an answer, after checking its status. */
export async function expectJson<T = Record<string, unknown>>(response: Response, status = 200): Promise<T> {
  const text = await response.text();
  expect(response.status, text.slice(0, 500)).toBe(status);
  return JSON.parse(text) as T;
}

// ---------------------------------------------------------------------------------------------
// Set-up

let scenarios = 0;

/** A user of a scenario, with its API token (null unless asked for). */
export interface ScenarioUser {
  id: string;
  email: string;
  name: string;
  role: SignedInUser["role"];
  token: string | null;
}

/** A task of a scenario: ids, slug, title and its phases by name. */
export interface ScenarioTask {
  id: string;
  slug: string;
  title: string;
  phases: Record<string, { id: string; name: string }>;
}

/**
 * Users (with an API token named "e2e" when asked), teams (the first member creates it, the
 * others join with its code), and optionally a task created by a fresh site admin and
 * published at once, with organizers and gold keys (file name "key.conll" unless given):
 * through the services the app uses. Returns the gold keys' metadata too, in upload order.
 */
export async function setupScenario<K extends string>(
  db: PrismaClient,
  options: {
    users: Record<K, { admin?: boolean; token?: boolean }>;
    teams?: Record<string, NoInfer<K>[]>;
    task?: { primaryMetric?: string; phases?: TestPhaseInput[]; organizers?: NoInfer<K>[]; gold?: { phase: string; text: string; fileName?: string; as?: NoInfer<K> }[] };
  },
): Promise<{ users: Record<K, ScenarioUser>; teams: Record<string, { id: string; name: string }>; task: ScenarioTask | null; gold: GoldKeyMeta[] }> {
  const tag = `${Date.now().toString(36)}${(scenarios++).toString(36)}`;
  const users = {} as Record<K, ScenarioUser>;
  for (const [key, u] of Object.entries(options.users) as [K, { admin?: boolean; token?: boolean }][]) {
    const made = await makeUser(db, `API ${key} ${tag}`, u.admin ? "ADMIN" : "USER");
    users[key] = { id: made.id, email: made.email, name: made.name!, role: made.role, token: u.token ? (await createApiToken(made.id, "e2e")).token : null };
  }
  const teams: Record<string, { id: string; name: string }> = {};
  for (const [label, members] of Object.entries(options.teams ?? {})) {
    const [owner, ...others] = members.map((key) => users[key]);
    const team = await createTeam(owner!.id, `${label} ${tag}`);
    for (const member of others) await joinTeam(member.id, joinCodeFor(team.id));
    teams[label] = { id: team.id, name: team.name };
  }
  let task: ScenarioTask | null = null;
  const gold: GoldKeyMeta[] = [];
  if (options.task) {
    const admin = await makeUser(db, `API admin ${tag}`, "ADMIN");
    const slug = `api-${tag}`;
    const title = `API task ${slug}`;
    const created = await createTask(admin.viewer, {
      slug,
      title,
      description: "A task created by a route handler test.",
      ...(options.task.primaryMetric ? { primaryMetric: options.task.primaryMetric } : {}),
      phases: (options.task.phases ?? [openPhase()]).map((p) => ({ ...p, opensAt: new Date(p.opensAt).toISOString(), closesAt: new Date(p.closesAt).toISOString() })),
    });
    await db.task.update({ where: { id: created.id }, data: { status: "PUBLISHED", publishedAt: new Date() } });
    const phases = await db.phase.findMany({ where: { taskId: created.id }, select: { id: true, name: true } });
    task = { id: created.id, slug: created.slug, title, phases: Object.fromEntries(phases.map((p) => [p.name, p])) };
    for (const key of options.task.organizers ?? []) await addOrganizer(admin.viewer, created.id, users[key].email);
    for (const g of options.task.gold ?? []) {
      const as = g.as ? { userId: users[g.as].id, role: users[g.as].role } : admin.viewer;
      gold.push((await uploadGoldKey(as, task.phases[g.phase]!.id, g.fileName ?? "key.conll", Buffer.from(g.text))).gold);
    }
  }
  return { users, teams, task, gold };
}

/** Scores a queued run as the worker would, and expects it SCORED. */
export async function scoreRun(submissionId: string): Promise<void> {
  const outcome = await scoreSubmission(submissionId, { workerId: "route-tests:1" });
  expect(outcome.status, JSON.stringify(outcome)).toBe("SCORED");
}

/**
 * Uploads a run (one file, `out.conll`) through the submissions route with an API token, and
 * scores it as the worker would ({@link scoreRun}).
 *
 * @param fields more form fields, e.g. `{ acknowledgeWarnings: "true" }`
 * @returns the run's id
 */
export async function submitScored(phaseId: string, token: string, systemName: string, text = SMALL_RESPONSE, fields: Record<string, string> = {}): Promise<string> {
  const multipart = { systemName, file: { name: "out.conll", content: text }, ...fields };
  const { id } = await expectJson<{ id: string }>(await callApi("POST", `/api/v1/phases/${phaseId}/submissions`, { token, multipart }), 202);
  await scoreRun(id);
  return id;
}

/** Submissions stored for a phase. */
export function submissionCount(db: PrismaClient, phaseId: string): Promise<number> {
  return db.submission.count({ where: { phaseId } });
}
