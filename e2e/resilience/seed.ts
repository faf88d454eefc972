/**
 * Seeding for the resilience suite: accounts (with API tokens), a task with an open phase and
 * a gold key, and teams, made in the test process through the services the app uses
 * (lib/tasks, lib/runs, lib/accounts, …) against the site's database. Call {@link useDatabase} first.
 *
 * The scored data are the reference scorer's own test cases
 * (scoring/test/fixtures/reference-scorer/data: TC-A.key and TC-A-1.response).
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { createApiToken } from "../../lib/accounts/api-tokens";
import { disconnectPrisma } from "../../lib/db/client";
import { closeRateLimitStore } from "../../lib/rate-limit";
import type { Viewer } from "../../lib/permissions";
import { uploadGoldKey } from "../../lib/tasks/gold";
import { publishTask } from "../../lib/tasks/lifecycle";
import { createTask, getTaskForViewer } from "../../lib/tasks/tasks";
import { createTeam, getJoinCode, joinTeam } from "../../lib/teams/teams";
import { createUser } from "../../lib/accounts/users";
import { after, before } from "node:test";
import { ROOT, type Site } from "./harness";

const FIXTURES = path.join(ROOT, "scoring", "test", "fixtures", "reference-scorer", "data");

/** The gold key the suite's tasks use: the reference scorer's test case A. */
export const GOLD_KEY = readFileSync(path.join(FIXTURES, "TC-A.key"));

/** A valid run for {@link GOLD_KEY}: the reference scorer's response A-1. */
export const RUN = readFileSync(path.join(FIXTURES, "TC-A-1.response"));

/**
 * Points the services of this process at the site's database (they read DATABASE_URL on
 * first use).
 *
 * @returns a function that closes this process's database connections (Prisma's, and the
 *   rate-limit counters' used by team creation), for `after` or before the database stops
 */
export function useDatabase(databaseUrl: string): () => Promise<void> {
  process.env.DATABASE_URL = databaseUrl;
  return async () => {
    await closeRateLimitStore();
    await disconnectPrisma();
  };
}

/**
 * For a suite's `describe` on the file's one site: registers `before`/`after` hooks that take
 * the site from `getSite` (the file's own `before` has started it), hand it to `onSite`, and
 * point this process's services at its database ({@link useDatabase}), closing their
 * connections after the suite.
 *
 * @param getSite the file's site, once started
 * @param onSite receives the site before the suite's first test
 */
export function useSuiteSite(getSite: () => Site, onSite: (site: Site) => void): void {
  let closeDb: () => Promise<void> = async () => {};
  before(() => {
    const site = getSite();
    onSite(site);
    closeDb = useDatabase(site.databaseUrl);
  });
  after(async () => {
    await closeDb().catch(() => undefined);
  });
}

/** An account made by {@link createAccount}. */
export interface Account {
  id: string;
  email: string;
  password: string;
  /** a `cfb_…` API token, when asked for */
  token: string;
}

let counter = 0;

/** A tag unique to this run, for names and e-mail addresses. */
function tag(): string {
  return `${Date.now().toString(36)}${(counter++).toString(36)}${randomBytes(2).toString("hex")}`;
}

/**
 * Creates an account (as the admin CLI does), with an API token.
 *
 * @param label a word for the e-mail address and name
 * @param options `admin` for the ADMIN role
 */
export async function createAccount(label: string, options: { admin?: boolean } = {}): Promise<Account> {
  const t = tag();
  const email = `resilience-${label}-${t}@example.org`;
  const password = `pw-${randomBytes(12).toString("base64url")}`;
  const user = await createUser({ email, password, name: `Resilience ${label} ${t}`, admin: options.admin ?? false });
  const { token } = await createApiToken(user.id, "resilience");
  return { id: user.id, email, password, token };
}

/** A task made by {@link createScoredTask}. */
export interface SeededTask {
  taskId: string;
  slug: string;
  phaseId: string;
  admin: Account;
}

/**
 * Creates a task with one open phase (yesterday to 30 days ahead) as a new site admin, and
 * uploads {@link GOLD_KEY} as its gold key.
 *
 * @param dailyLimit runs per team per UTC day (null: no limit)
 */
export async function createScoredTask(dailyLimit: number | null): Promise<SeededTask> {
  const admin = await createAccount("admin", { admin: true });
  const actor: Viewer = { userId: admin.id, role: "ADMIN" };
  const slug = `resilience-${tag()}`;
  const day = 24 * 3600 * 1000;
  const { id } = await createTask(actor, {
    slug,
    title: `Resilience ${slug}`,
    description: "A task created by the resilience suite.",
    phases: [{ name: "test", opensAt: new Date(Date.now() - day).toISOString(), closesAt: new Date(Date.now() + 30 * day).toISOString(), dailyLimit }],
  });
  const phase = (await getTaskForViewer(slug, actor)).phases[0]!;
  await uploadGoldKey(actor, phase.id, "key.conll", GOLD_KEY);
  await publishTask(actor, id);
  return { taskId: id, slug, phaseId: phase.id, admin };
}

/**
 * Creates a team owned by `owner`, and has each of `members` join it with its join code.
 *
 * @returns the team's id and name
 */
export async function createTeamWith(owner: Account, members: Account[]): Promise<{ id: string; name: string }> {
  const team = await createTeam(owner.id, `Resilience team ${tag()}`);
  const code = await getJoinCode(owner.id, team.id);
  for (const m of members) await joinTeam(m.id, code);
  return { id: team.id, name: team.name };
}

