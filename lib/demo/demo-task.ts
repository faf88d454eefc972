/**
 * Loads the shipped demo task, "LitBank coreference (demo)": one open test phase whose gold
 * key is the 10 LitBank demo documents, and three baseline runs submitted through the real
 * pipeline (they are scored by the worker like any run).
 *
 * Idempotent: run again, it fills in only what is missing (task, gold key, team, baselines).
 * The task is owned by a system organizer account without a password (it cannot sign in).
 */
import { readConll2012 } from "../../scoring/index";
import { writeConll2012 } from "../../scoring/formats/write-conll2012";
import { getPrisma } from "../db/client";
import { uploadGoldKey } from "../services/gold";
import { createSubmission } from "../services/submissions";
import { createTask } from "../services/tasks";
import { createTeam } from "../services/teams";
import type { Viewer } from "../permissions";
import { BASELINES, runBaseline } from "./baselines";
import { LITBANK_ATTRIBUTION, concatenateKey, loadLitbankDemo } from "./litbank";

export const DEMO_TASK_SLUG = "litbank-demo";
export const DEMO_TASK_TITLE = "LitBank coreference (demo)";
export const DEMO_ORGANIZER_EMAIL = "demo-organizer@corefboard.invalid";
export const DEMO_BASELINE_TEAM = "Corefboard baselines";
export const DEMO_GOLD_FILE = "litbank-demo.conll";

const DESCRIPTION = `A demonstration task on English literary fiction: ten LitBank documents (about 20,600 tokens, 2,832 mentions in 807 entities, singletons included).

Submit a CoNLL-2012 file with the same ten documents (matched by their names, e.g. "1023_bleak_house_brat") and your predicted entities in the last column. Runs are scored with MUC, B³, CEAFm, CEAFe, LEA, BLANC and the CoNLL F1, with singletons kept, exactly as the CoNLL reference scorer does.

The three baseline runs use the gold mentions and simple rules; they are labelled as baselines.`;

/** What the loader did. */
export interface DemoLoadResult {
  created: { task: boolean; gold: boolean; team: boolean; baselines: string[] };
  source: string;
  phaseId: string;
}

/**
 * Creates whatever part of the demo task is missing.
 *
 * @param options.log receives one line per step
 * @returns what was created and where the data came from
 * @throws Error when the demo files cannot be found or verified (see `loadLitbankDemo`),
 *   or a database error
 */
export async function loadDemoTask(options: { log?: (line: string) => void } = {}): Promise<DemoLoadResult> {
  const log = options.log ?? (() => {});
  const db = getPrisma();
  const demo = await loadLitbankDemo();
  log(`demo data: 10 LitBank files from ${demo.source} (${demo.location}), sha256 verified`);
  const keyBytes = concatenateKey(demo.files);

  const organizer = await db.user.upsert({
    where: { email: DEMO_ORGANIZER_EMAIL },
    update: {},
    create: { email: DEMO_ORGANIZER_EMAIL, name: "Corefboard demo organizer", role: "ADMIN" },
  });
  const viewer: Viewer = { userId: organizer.id, role: "ADMIN" };
  const created: DemoLoadResult["created"] = { task: false, gold: false, team: false, baselines: [] };

  let task = await db.task.findUnique({ where: { slug: DEMO_TASK_SLUG }, include: { phases: true } });
  if (!task) {
    await createTask(viewer, {
      slug: DEMO_TASK_SLUG,
      title: DEMO_TASK_TITLE,
      description: DESCRIPTION,
      primaryMetric: "conll",
      dataLicense: LITBANK_ATTRIBUTION.license,
      dataSource: LITBANK_ATTRIBUTION.source,
      phases: [
        {
          name: "test",
          opensAt: new Date("2025-01-01T00:00:00Z"),
          closesAt: new Date("2099-12-31T23:59:59Z"),
          displayTimeZone: "UTC",
          dailyLimit: 10,
          totalLimit: 100,
          leaderboardVisibility: "PUBLIC",
          selectionRule: "BEST",
          participantAnalysis: "NONE",
          teamDocumentScores: false,
        },
      ],
    });
    created.task = true;
    log(`created task "${DEMO_TASK_TITLE}" (/tasks/${DEMO_TASK_SLUG})`);
    task = await db.task.findUniqueOrThrow({ where: { slug: DEMO_TASK_SLUG }, include: { phases: true } });
  }
  const phase = task.phases.find((p) => p.name === "test") ?? task.phases[0];

  const activeGold = await db.goldKey.findFirst({ where: { phaseId: phase.id, active: true }, select: { sha256: true } });
  if (!activeGold) {
    const { gold } = await uploadGoldKey(viewer, phase.id, DEMO_GOLD_FILE, keyBytes);
    created.gold = true;
    log(`uploaded gold key v${gold.version}: ${gold.stats.documents} documents, ${gold.stats.mentions} mentions`);
  }

  let team = await db.team.findFirst({ where: { name: DEMO_BASELINE_TEAM } });
  if (!team) {
    await createTeam(organizer.id, DEMO_BASELINE_TEAM);
    team = await db.team.findFirstOrThrow({ where: { name: DEMO_BASELINE_TEAM } });
    created.team = true;
  }

  const existing = new Set(
    (await db.submission.findMany({ where: { phaseId: phase.id, teamId: team.id, isBaseline: true }, select: { systemName: true } })).map(
      (s) => s.systemName,
    ),
  );
  const key = readConll2012(keyBytes, DEMO_GOLD_FILE);
  for (const baseline of BASELINES) {
    if (existing.has(baseline.systemName)) continue;
    const bytes = Buffer.from(writeConll2012(runBaseline(baseline, key)), "utf8");
    const { id } = await createSubmission({
      viewer,
      phaseId: phase.id,
      team: team.id,
      fileName: `${baseline.id}.conll`,
      bytes,
      systemName: baseline.systemName,
      description: baseline.description,
      isBaseline: true,
    });
    created.baselines.push(baseline.id);
    log(`submitted baseline "${baseline.systemName}" (${id}); the worker scores it`);
  }
  if (!created.task && !created.gold && created.baselines.length === 0) log("demo task already loaded");
  return { created, source: demo.source, phaseId: phase.id };
}
