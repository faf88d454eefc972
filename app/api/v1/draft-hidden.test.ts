/**
 * A draft task does not exist for anyone but its organizers and site admins (issue 23 F6/F7):
 * on EVERY API route that takes a task slug or a phase id, and for every method its file
 * exports, an anonymous caller, a signed-in bystander and the organizer of another task get
 * exactly the answer (status and body) an unknown slug or phase id gets.
 *
 * The routes are read from the file system (every `route.ts` under app/api/v1 whose folders
 * hold `[slug]` or `[phaseId]`, every HTTP method it exports), so a new route is checked without
 * being listed here. Mutating methods are called with an input that would pass validation
 * ({@link VALID_INPUT}; a route missing there fails the test), so that a 422 cannot answer
 * before the draft is hidden; nested ids (a dataset, an organizer invitation, a snapshot
 * number) are the draft's real ones in both calls.
 */
import { readdirSync, statSync } from "node:fs";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it, vi } from "vitest";

// Vitest project: site-app (its test doubles: app/api/v1/test-doubles.setup.ts).

import { createApiToken } from "@/lib/accounts/api-tokens";
import { useTestDatabase } from "@/lib/db/test-db";
import { inviteOrganizer } from "@/lib/tasks/organizer-invitations";
import { createTask } from "@/lib/tasks/tasks";
import { makeUser, SMALL_KEY } from "@/lib/tasks/test-fixtures";
import { callApi, type CallOptions } from "./test-helpers";

const testDb = useTestDatabase();

const API_DIR = path.dirname(fileURLToPath(import.meta.url));
const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

/** A route file: its path pattern (`/api/v1/phases/:phaseId/…`) and the file. */
interface RouteFile {
  pattern: string;
  file: string;
}

/** Every route file under app/api/v1 that takes a task slug or a phase id. */
function draftRoutes(): RouteFile[] {
  const out: RouteFile[] = [];
  const walk = (dir: string, segments: string[]) => {
    for (const name of readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full, [...segments, name.replace(/^\[(.+)\]$/, ":$1")]);
      else if (name === "route.ts" && (segments.includes(":slug") || segments.includes(":phaseId"))) out.push({ pattern: `/api/v1/${segments.join("/")}`, file: full });
    }
  };
  walk(API_DIR, []);
  return out;
}

const file = (text: string) => ({ name: "run.conll", content: text });

/**
 * For each mutating method of each route: an input that passes validation, so that only the
 * authorization (and the draft rule) decides the answer. `null`: the route takes no body.
 */
const VALID_INPUT: Record<string, Pick<CallOptions, "json" | "multipart"> | null> = {
  "PATCH /api/v1/tasks/:slug": { json: { title: "A better title" } },
  "POST /api/v1/tasks/:slug/publish": null,
  "POST /api/v1/tasks/:slug/archive": null,
  "DELETE /api/v1/tasks/:slug/archive": null,
  "POST /api/v1/tasks/:slug/phases": { json: { name: "extra", opensAt: new Date(Date.now() - 86_400_000).toISOString(), closesAt: new Date(Date.now() + 86_400_000).toISOString() } },
  "POST /api/v1/tasks/:slug/organizer-invitations": { json: { email: "someone-new@example.org" } },
  "DELETE /api/v1/tasks/:slug/organizer-invitations/:id": null,
  "PATCH /api/v1/phases/:phaseId": { json: { dailyLimit: 3 } },
  "DELETE /api/v1/phases/:phaseId": null,
  "POST /api/v1/phases/:phaseId/datasets": { json: { name: "extra", fileName: "extra.conll" } },
  "PATCH /api/v1/phases/:phaseId/datasets/:datasetId": { json: { language: "en" } },
  "DELETE /api/v1/phases/:phaseId/datasets/:datasetId": null,
  "POST /api/v1/phases/:phaseId/gold": { multipart: { file: file(SMALL_KEY) } },
  "POST /api/v1/phases/:phaseId/datasets/:datasetId/blind": { multipart: { file: file(SMALL_KEY.replace(/\t[^\t\n]*[()][^\t\n]*$/gm, "\t-")) } },
  "POST /api/v1/phases/:phaseId/submissions": { multipart: { systemName: "sys", file: file(SMALL_KEY) } },
  "POST /api/v1/phases/:phaseId/rescore": null,
  "POST /api/v1/phases/:phaseId/results": { json: { note: "Final." } },
};

const draft = { slug: "", phase: "", dataset: "", invitation: "" };
const unknown = { slug: `no-such-task-${Date.now().toString(36)}`, phase: randomUUID() };
const tokens = { bystander: "", otherOrganizer: "" };

/** The concrete path of a pattern, for the draft or the unknown task. */
function concrete(pattern: string, target: "draft" | "unknown"): string {
  return pattern.replace(/:(\w+)/g, (_m, name: string) => {
    switch (name) {
      case "slug":
        return target === "draft" ? draft.slug : unknown.slug;
      case "phaseId":
        return target === "draft" ? draft.phase : unknown.phase;
      case "datasetId":
        return draft.dataset;
      case "id":
        return draft.invitation;
      case "number":
        return "1";
      default:
        throw new Error(`no value for :${name} in ${pattern}`);
    }
  });
}

beforeAll(async () => {
  const db = testDb.prisma;
  const creator = await makeUser(db, "Draft Creator", "ADMIN");
  const bystander = await makeUser(db, "Draft Bystander");
  const otherOrganizer = await makeUser(db, "Other Organizer");
  tokens.bystander = (await createApiToken(bystander.id, "draft")).token;
  tokens.otherOrganizer = (await createApiToken(otherOrganizer.id, "draft")).token;
  const window = { opensAt: new Date(Date.now() - 86_400_000).toISOString(), closesAt: new Date(Date.now() + 86_400_000).toISOString() };
  // Another task, published, organized by otherOrganizer: organizing some task is no key to a draft.
  const other = await createTask(creator.viewer, { slug: `draft-other-${Date.now().toString(36)}`, title: "Other", description: "Another task.", phases: [{ name: "test", ...window }] });
  await db.task.update({ where: { id: other.id }, data: { status: "PUBLISHED", publishedAt: new Date() } });
  await db.taskOrganizer.create({ data: { taskId: other.id, userId: otherOrganizer.id } });

  const task = await createTask(creator.viewer, { slug: `draft-hidden-${Date.now().toString(36)}`, title: "Hidden draft", description: "A draft.", phases: [{ name: "test", ...window }] });
  draft.slug = task.slug;
  const phase = await db.phase.findFirstOrThrow({ where: { taskId: task.id }, select: { id: true, datasets: { select: { id: true } } } });
  draft.phase = phase.id;
  draft.dataset = phase.datasets[0]!.id;
  draft.invitation = (await inviteOrganizer(creator.viewer, task.id, "invited@example.org")).invitation.id;
}, 60_000);

describe("a draft task is a 404 to everyone but its organizers, on every route", () => {
  const routes = draftRoutes();

  it("finds the routes (tasks/:slug and phases/:phaseId families) and has a valid input for each mutating method", async () => {
    expect(routes.length).toBeGreaterThan(15);
    const missing: string[] = [];
    for (const route of routes) {
      const module = (await import(route.file)) as Record<string, unknown>;
      for (const method of METHODS) if (module[method] && method !== "GET" && method !== "HEAD" && !(`${method} ${route.pattern}` in VALID_INPUT)) missing.push(`${method} ${route.pattern}`);
    }
    expect(missing, "mutating routes without an input in VALID_INPUT").toEqual([]);
  });

  for (const route of routes) {
    it(route.pattern, async () => {
      const module = (await import(route.file)) as Record<string, unknown>;
      const methods = METHODS.filter((m) => typeof module[m] === "function");
      expect(methods.length, route.file).toBeGreaterThan(0);
      for (const method of methods) {
        const input = VALID_INPUT[`${method} ${route.pattern}`] ?? {};
        for (const [who, token] of [["anonymous", null], ["bystander", tokens.bystander], ["organizer of another task", tokens.otherOrganizer]] as const) {
          const answer = async (target: "draft" | "unknown") => {
            const response = await callApi(method, concrete(route.pattern, target), { token, ...input });
            return { status: response.status, contentType: response.headers.get("content-type"), body: await response.text() };
          };
          const hidden = await answer("draft");
          const none = await answer("unknown");
          const label = `${method} ${route.pattern} as ${who}`;
          expect(hidden, label).toEqual(none);
          expect([401, 404], `${label}: ${none.status} ${none.body.slice(0, 200)}`).toContain(none.status);
          if (token) expect(none.status, label).toBe(404);
        }
      }
    });
  }
});
