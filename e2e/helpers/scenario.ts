/**
 * A whole test setup in one step (`scenario` of ./seed.ts, run inside the test's process):
 * accounts with optional API tokens (made by the admin CLI's code), and optionally
 * a task created by a fresh site admin, with organizers and gold keys.
 *
 *   const { users, teams, task, gold } = await setupScenario({
 *     users: { organizer: {}, participant: { token: true } },
 *     teams: { "Team A": ["participant"] },
 *     task: { phases: [openPhase("test")], organizers: ["organizer"], gold: [{ phase: "test", text: KEY, as: "organizer" }] },
 *   });
 */
import type { TestUser } from "./accounts";
import type { ScenarioPlan, ScenarioResult } from "./seed";
import { runScript, uniqueTag } from "./server";
import { openPhase, type TestGoldMeta, type TestPhaseInput, type TestTask } from "./tasks";

/** What to set up. User keys are free-form labels (also used in e-mail addresses). */
export interface ScenarioOptions<K extends string> {
  users: Record<K, { admin?: boolean; token?: boolean; name?: string }>;
  /** teams by label (the name gets the scenario's unique tag): the first member creates it, the others join */
  teams?: Record<string, NoInfer<K>[]>;
  task?: {
    slug?: string;
    title?: string;
    primaryMetric?: string;
    /** the task's evaluation profile (default conll2012) */
    evaluationProfile?: "conll2012" | "crac" | "custom";
    /** default: one open phase "test" */
    phases?: TestPhaseInput[];
    /** users (keys) to make organizers */
    organizers?: NoInfer<K>[];
    /** leave the task a DRAFT (default: published at once, without the publishing checks) */
    draft?: boolean;
    /** gold keys to upload, by phase name; `as` a user key (default: the task's admin) */
    gold?: { phase: string; text: string; fileName?: string; as?: NoInfer<K> }[];
  };
}

/** A scenario user: a {@link TestUser} with its API token (null unless asked for). */
export type ScenarioUser = TestUser & { token: string | null };

/** What {@link setupScenario} made. */
export interface Scenario<K extends string> {
  users: Record<K, ScenarioUser>;
  /** the planned teams by label: id and the name they got */
  teams: Record<string, { id: string; name: string }>;
  /** the site admin who created the task (null without a task) */
  admin: ScenarioUser | null;
  task: TestTask | null;
  gold: (TestGoldMeta & { phase: string })[];
}

const ADMIN_KEY = "__task_admin";

/**
 * Sets up accounts, and optionally a task with organizers and gold keys, in one process.
 *
 * @returns the users (with tokens), the task's admin, the task and the gold keys' metadata
 */
export async function setupScenario<K extends string>(options: ScenarioOptions<K>): Promise<Scenario<K>> {
  const tag = uniqueTag();
  const plans: Record<string, ScenarioPlan["users"][string]> = {};
  const people: Record<string, TestUser> = {};
  const entries = Object.entries(options.users) as [string, { admin?: boolean; token?: boolean; name?: string }][];
  if (options.task) entries.push([ADMIN_KEY, { admin: true }]);
  for (const [key, u] of entries) {
    const label = key === ADMIN_KEY ? "admin" : key.toLowerCase().replace(/[^a-z0-9]+/g, "-");
    const person: TestUser = {
      id: "",
      email: `e2e-${label}-${tag}@example.org`,
      name: u.name ?? `E2E ${label} ${tag}`,
      password: `pass-${tag}-long enough`,
      admin: u.admin ?? false,
    };
    people[key] = person;
    plans[key] = { email: person.email, name: person.name, password: person.password, admin: person.admin, token: u.token ?? false };
  }
  const task = options.task;
  const slug = task?.slug ?? `e2e-${tag}`;
  const teamName = (label: string) => `${label} ${tag}`;
  const plan: ScenarioPlan = {
    users: plans,
    teams: Object.entries(options.teams ?? {}).map(([label, members]) => ({ name: teamName(label), members })),
    ...(task
      ? {
          task: {
            as: ADMIN_KEY,
            input: {
              slug,
              title: task.title ?? `E2E task ${slug}`,
              description: "A task created by an end-to-end test.",
              ...(task.primaryMetric ? { primaryMetric: task.primaryMetric } : {}),
              ...(task.evaluationProfile ? { evaluationProfile: task.evaluationProfile } : {}),
              phases: (task.phases ?? [openPhase()]).map((p) => ({ ...p, opensAt: new Date(p.opensAt).toISOString(), closesAt: new Date(p.closesAt).toISOString() })),
            },
            organizers: task.organizers ?? [],
            ...(task.draft ? { draft: true } : {}),
            gold: (task.gold ?? []).map((g) => ({ phase: g.phase, text: g.text, fileName: g.fileName ?? "key.conll", as: g.as ?? ADMIN_KEY })),
          },
        }
      : {}),
  };
  const { stdout } = await runScript("e2e/helpers/seed.ts", ["scenario"], { stdin: JSON.stringify(plan) });
  const result = JSON.parse(stdout.trim().split("\n").pop()!) as ScenarioResult;
  const user = (key: string): ScenarioUser => ({ ...people[key]!, id: result.users[key]!.id, token: result.users[key]!.token });
  const users = Object.fromEntries(Object.keys(options.users).map((k) => [k, user(k)])) as Record<K, ScenarioUser>;
  return {
    users,
    teams: Object.fromEntries(Object.keys(options.teams ?? {}).map((label) => [label, result.teams[teamName(label)]!])),
    admin: task ? user(ADMIN_KEY) : null,
    task: result.task ? { id: result.task.id, slug: result.task.slug, phases: Object.fromEntries(result.task.phases.map((p) => [p.name, p])) } : null,
    gold: result.gold,
  };
}
