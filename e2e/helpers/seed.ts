/**
 * E2E-only setup commands that no route offers (yet): create a task as a site admin, add an
 * organizer to it, and upload a gold key as an organizer; and `scenario`, which does a whole
 * test's setup in one step (users and tokens through the admin CLI's own `runAdmin`, then
 * teams, then the task, organizers and gold keys). They call the same services the app uses,
 * with the acting user looked up by e-mail, against DATABASE_URL (the server's database).
 * The tests run them inside their own process through `runSeed` (`runScript` in
 * ./server.ts); the command line below does the same from a shell. Not part of the
 * application: nothing in app/ imports this.
 *
 *   node --import tsx e2e/helpers/seed.ts create-task --as admin@example.org   < task.json
 *   node --import tsx e2e/helpers/seed.ts add-organizer --as admin@example.org --task ID --email org@example.org
 *   node --import tsx e2e/helpers/seed.ts upload-gold --as org@example.org --phase ID --file-name key.conll < key.conll
 *   node --import tsx e2e/helpers/seed.ts scenario < plan.json   (see ScenarioPlan)
 *   node --import tsx e2e/helpers/seed.ts seed-board --slug S --team-prefix P --teams N --runs-per-team R --documents D
 *   node --import tsx e2e/helpers/seed.ts scored-runs < runs.json   (see ScoredRunsPlan)
 *   node --import tsx e2e/helpers/seed.ts litbank-demo
 *
 * Each prints one JSON line on stdout: `{id, slug, phases: [{id, name}]}` for create-task,
 * `{userId, name, added}` for add-organizer, the gold key's metadata for upload-gold,
 * {@link ScenarioResult} for scenario, lib/bench/seed-board.ts's `SeededBoard` for seed-board,
 * the new submissions' ids in order for scored-runs, lib/demo/demo-task.ts's `DemoLoadResult`
 * for litbank-demo. Errors go to stderr with exit code 1.
 */
import { pathToFileURL } from "node:url";
import { disconnectPrisma } from "../../lib/db/client";
import type { Viewer } from "../../lib/permissions";
import { defaultDb } from "../../lib/db";
import { uploadGoldKey } from "../../lib/tasks/gold";
import { addOrganizer, createTask, getTaskForViewer } from "../../lib/tasks/tasks";
import { createTeam, joinCodeFor, joinTeam } from "../../lib/teams/teams";
import { getUserByEmail } from "../../lib/accounts/users";
import { seedBoard } from "../../lib/bench/seed-board";
import { loadDemoTask } from "../../lib/demo/demo-task";
import { stopBoss } from "../../lib/queue";
import { requestDefaultBoards } from "../../lib/boards/board-significance";
import { packFile } from "../../lib/storage";
import { scoreSubmission } from "../../lib/worker/scoring-job";
import { runAdmin } from "../../scripts/admin";
import type { TestGoldMeta } from "./tasks";

/** One account of a scenario; `token` asks for an API token too. */
export interface ScenarioUserPlan {
  email: string;
  name: string;
  password: string;
  admin?: boolean;
  token?: boolean;
}

/** A whole test setup (see `setupScenario` in ./scenario.ts). */
export interface ScenarioPlan {
  /** accounts by key */
  users: Record<string, ScenarioUserPlan>;
  /** teams to create: the first member (a user key) creates it, the others join with its code */
  teams?: { name: string; members: string[] }[];
  /** created by `users[task.as]` (must be an admin) */
  task?: {
    as: string;
    input: unknown;
    /** leave the task a DRAFT (default: published at once, without the publishing checks) */
    draft?: boolean;
    /** keys of users to add as organizers */
    organizers?: string[];
    /** gold keys to upload, in order, by phase name, as `users[as]` */
    gold?: { phase: string; fileName: string; text: string; as: string }[];
  };
}

/** What `scenario` prints. */
export interface ScenarioResult {
  users: Record<string, { id: string; token: string | null }>;
  /** by the planned name */
  teams: Record<string, { id: string; name: string }>;
  task: { id: string; slug: string; phases: { id: string; name: string }[] } | null;
  gold: (TestGoldMeta & { phase: string })[];
}

/**
 * Runs the admin CLI (`scripts/admin.ts`'s `runAdmin`) in this process with `stdin` as its
 * standard input, capturing what it prints.
 *
 * @returns its stdout and stderr
 * @throws Error with both when it exits non-zero
 */
export async function runAdminCaptured(argv: string[], stdin = ""): Promise<{ stdout: string; stderr: string }> {
  const out = { stdout: "", stderr: "" };
  const code = await runAdmin(argv, { stdout: (t) => void (out.stdout += t), stderr: (t) => void (out.stderr += t), readStdin: async () => stdin });
  if (code !== 0) throw new Error(`scripts/admin.ts ${argv[0] ?? ""} failed (exit code ${code}):\n${out.stderr}\n${out.stdout}`);
  return out;
}

/** The admin CLI's stdout for `argv` (see {@link runAdminCaptured}). */
async function admin(argv: string[]): Promise<string> {
  return (await runAdminCaptured(argv)).stdout;
}

async function runScenario(plan: ScenarioPlan): Promise<ScenarioResult> {
  const result: ScenarioResult = { users: {}, teams: {}, task: null, gold: [] };
  for (const [key, u] of Object.entries(plan.users)) {
    const out = await admin(["create-user", "--email", u.email, "--name", u.name, "--password", u.password, ...(u.admin ? ["--admin"] : [])]);
    const id = /\(id ([0-9a-f-]{36})\)/.exec(out)?.[1];
    if (!id) throw new Error(`create-user printed no id: ${out}`);
    const token = u.token ? (await admin(["create-token", "--email", u.email, "--name", "e2e"])).trim() : null;
    result.users[key] = { id, token };
  }
  const emailOf = (key: string) => {
    const u = plan.users[key];
    if (!u) throw new Error(`scenario: no user "${key}"`);
    return u.email;
  };
  for (const t of plan.teams ?? []) {
    const [owner, ...others] = t.members.map((key) => {
      const user = result.users[key];
      if (!user) throw new Error(`scenario: team "${t.name}" names no user "${key}"`);
      return user;
    });
    if (!owner) throw new Error(`scenario: team "${t.name}" has no members`);
    const team = await createTeam(owner.id, t.name);
    for (const member of others) await joinTeam(member.id, joinCodeFor(team.id));
    result.teams[t.name] = { id: team.id, name: team.name };
  }
  if (plan.task) {
    const creator = await actor(emailOf(plan.task.as));
    const { id, slug } = await createTask(creator, plan.task.input);
    if (!plan.task.draft) await publishForTest(id);
    const phases = await phasesOf(slug, creator);
    result.task = { id, slug, phases };
    for (const key of plan.task.organizers ?? []) await addOrganizer(creator, id, emailOf(key));
    for (const g of plan.task.gold ?? []) {
      const phase = phases.find((p) => p.name === g.phase);
      if (!phase) throw new Error(`scenario: no phase "${g.phase}"`);
      const { gold } = await uploadGoldKey(await actor(emailOf(g.as)), phase.id, g.fileName, Buffer.from(g.text));
      result.gold.push({ phase: g.phase, id: gold.id, version: gold.version, fileName: gold.fileName, sha256: gold.sha256, size: gold.size, documents: gold.documents, stats: { ...gold.stats } });
    }
  }
  return result;
}

/** Runs for `scored-runs`: each is stored and scored in order (the earlier run first on ties). */
export interface ScoredRunsPlan {
  phaseId: string;
  runs: { teamId: string; submitterId: string; systemName: string; fileName: string; text: string }[];
}

/**
 * Stores runs of a one-dataset phase as an accepted upload leaves them (a QUEUED submission
 * with its gzip-packed file for the phase's dataset, PUBLIC, and the submitter's team
 * recorded for the task), then scores each one here with the worker's own job
 * (`scoreSubmission`, in its default pool: this process's shared scoring threads, which stay
 * warm for the next call and do not keep the process alive): the rows are those the worker writes, without an
 * upload, a queue or a worker in between. Creation times are a millisecond apart, in order.
 * Then, as the worker does after scoring a run, the significance of the phase's default
 * boards is asked of the site's worker (`requestDefaultBoards`, through the queue), so that
 * it is ready by the time a page shows it.
 *
 * @returns the submissions' ids, in the plan's order
 * @throws Error when the phase has no or several datasets, or a run does not end SCORED
 */
async function scoredRuns(plan: ScoredRunsPlan): Promise<string[]> {
  const db = defaultDb();
  const phase = await db.phase.findUniqueOrThrow({ where: { id: plan.phaseId }, select: { taskId: true, datasets: { select: { id: true } } } });
  if (phase.datasets.length !== 1) throw new Error(`scored-runs: phase ${plan.phaseId} has ${phase.datasets.length} datasets; one is supported`);
  const datasetId = phase.datasets[0]!.id;
  const start = Date.now() - plan.runs.length;
  const ids: string[] = [];
  for (const [i, run] of plan.runs.entries()) {
    const stored = packFile(Buffer.from(run.text, "utf8"));
    await db.taskParticipant.createMany({ data: [{ taskId: phase.taskId, userId: run.submitterId, teamId: run.teamId }], skipDuplicates: true });
    const { id } = await db.submission.create({
      data: {
        phaseId: plan.phaseId,
        teamId: run.teamId,
        submitterId: run.submitterId,
        systemName: run.systemName,
        fileName: run.fileName,
        sha256: stored.sha256,
        size: stored.size,
        files: { create: { datasetId, fileName: run.fileName, sha256: stored.sha256, gzip: stored.gzip, size: stored.size } },
        status: "QUEUED",
        visibility: "PUBLIC",
        createdAt: new Date(start + i),
      },
      select: { id: true },
    });
    const outcome = await scoreSubmission(id, { workerId: `e2e-seed:${process.pid}` });
    // SKIPPED: the site's reconciler found the row QUEUED in between and its worker claimed it first.
    const status = outcome.status === "SKIPPED" ? await settledStatus(id) : outcome.status;
    if (status !== "SCORED") throw new Error(`scored-runs: run ${i} (${run.systemName}) ended ${status}: ${JSON.stringify(outcome)}`);
    ids.push(id);
  }
  try {
    await requestDefaultBoards(plan.phaseId);
  } finally {
    await stopBoss();
  }
  return ids;
}

/** A submission's status once it is neither QUEUED nor SCORING (polled every 100 ms for up to 60 s). */
async function settledStatus(id: string): Promise<string> {
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; await new Promise((done) => setTimeout(done, 100))) {
    const { status } = await defaultDb().submission.findUniqueOrThrow({ where: { id }, select: { status: true } });
    if (status !== "QUEUED" && status !== "SCORING") return status;
  }
  return "still not scored after 60 s";
}

async function readProcessStdin(): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function option(args: string[], name: string): string {
  const i = args.indexOf(name);
  const value = i >= 0 ? args[i + 1] : undefined;
  if (!value) throw new Error(`missing ${name}`);
  return value;
}

/**
 * Publishes a test's new task at once, skipping the publishing checks (a test task may have
 * no gold key yet): tests that exercise the draft and its checks ask for a draft instead.
 */
async function publishForTest(taskId: string): Promise<void> {
  await defaultDb().task.update({ where: { id: taskId }, data: { status: "PUBLISHED", publishedAt: new Date() } });
}

/** The acting user with this e-mail address, as services take it. */
async function actor(email: string): Promise<NonNullable<Viewer>> {
  const user = await getUserByEmail(email);
  if (!user) throw new Error(`no user ${email}`);
  return { userId: user.id, role: user.role };
}

/** A task's phases (id and name), read through the service the task page uses. */
async function phasesOf(slug: string, viewer: Viewer): Promise<{ id: string; name: string }[]> {
  return (await getTaskForViewer(slug, viewer)).phases.map(({ id, name }) => ({ id, name }));
}

/**
 * Runs one seed command against DATABASE_URL (in this process: e2e/helpers/server.ts's
 * `runScript` calls it inside the Playwright worker; or from the command line).
 *
 * @param argv the arguments after the script name
 * @param stdin what the command reads as its standard input (the task, plan or gold key)
 * @returns the JSON-serializable result to print
 * @throws Error on an unknown command, a missing option, or when a service refuses
 */
export async function runSeed(argv: string[], stdin: Buffer = Buffer.alloc(0)): Promise<unknown> {
  const [command, ...args] = argv;
  switch (command) {
    case "create-task": {
      const input = JSON.parse(stdin.toString("utf8")) as unknown;
      const creator = await actor(option(args, "--as"));
      const { id, slug } = await createTask(creator, input);
      if (!args.includes("--draft")) await publishForTest(id);
      return { id, slug, phases: await phasesOf(slug, creator) };
    }
    case "scenario":
      return runScenario(JSON.parse(stdin.toString("utf8")) as ScenarioPlan);
    case "add-organizer":
      return addOrganizer(await actor(option(args, "--as")), option(args, "--task"), option(args, "--email"));
    case "upload-gold": {
      const { gold } = await uploadGoldKey(await actor(option(args, "--as")), option(args, "--phase"), option(args, "--file-name"), stdin);
      return gold;
    }
    case "seed-board": {
      // A board of many scored runs, written as the worker writes them (lib/bench/seed-board.ts).
      const whole = (name: string) => Number(option(args, name));
      return seedBoard(process.env.DATABASE_URL ?? "", {
        slug: option(args, "--slug"),
        teamPrefix: option(args, "--team-prefix"),
        teams: whole("--teams"),
        runsPerTeam: whole("--runs-per-team"),
        documents: whole("--documents"),
      });
    }
    case "scored-runs":
      return scoredRuns(JSON.parse(stdin.toString("utf8")) as ScoredRunsPlan);
    case "litbank-demo":
      // The LitBank demo task as `npm run demo` loads it (without the GUM one): its baselines
      // are queued for the site's worker.
      try {
        return await loadDemoTask();
      } finally {
        await stopBoss();
      }
    default:
      throw new Error(`unknown command ${command ?? "(none)"}; use create-task, add-organizer, upload-gold, scenario, seed-board, scored-runs or litbank-demo`);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  readProcessStdin().then((stdin) => runSeed(process.argv.slice(2), stdin)).then(
    async (result) => {
      process.stdout.write(`${JSON.stringify(result)}\n`);
      await disconnectPrisma().catch(() => {});
      process.exit(0);
    },
    async (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      await disconnectPrisma().catch(() => {});
      process.exit(1);
    },
  );
}
