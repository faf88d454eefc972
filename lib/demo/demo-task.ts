/**
 * Loads the shipped demo tasks, each with one open test phase, its gold key and baseline runs
 * submitted through the real pipeline (the worker scores them like any run):
 * - "LitBank coreference (demo)" (`loadDemoTask`): the 10 LitBank demo documents, CoNLL-2012,
 *   profile `conll2012`, three rule baselines over the gold mentions;
 * - "GUM multi-genre (CorefUD demo)" (`loadGumDemoTask`): 12 GUM documents in six genre
 *   datasets (two documents each, as a CRAC phase has one dataset per corpus), CorefUD
 *   CoNLL-U, profile `crac`, three rule baselines over the gold mentions, each submitted as a
 *   `.tar.gz` archive with one file per dataset; the leaderboard ranks the macro-average.
 * `loadDemoTasks` loads both.
 *
 * Idempotent: run again, it fills in only what is missing (task, datasets, gold keys, team,
 * baselines). A new task is created as a draft and published (`publishTask`) once its gold
 * keys are uploaded, before the baselines, so the demo is public.
 * The tasks are owned by a system organizer account without a password (it cannot sign in).
 */
import { readConll2012 } from "../../scoring/index";
import { writeConll2012 } from "../../scoring/formats/write-conll2012";
import { getPrisma } from "../db/client";
import { writeTarGz } from "../uploads";
import { addDataset, listDatasets, updateDataset, uploadGoldKey, publishTask, createTask } from "../tasks";
import { deriveBlindInput, createSubmission } from "../runs";
import { createTeam } from "../teams";
import type { Viewer } from "../permissions";
import { BASELINES, runBaseline } from "./baselines";
import { GUM_ATTRIBUTION, GUM_DEMO_FILES, GUM_GENRES, gumDemoDatasets, loadGumDemo } from "./gum";
import { GUM_BASELINES, gumMentions, runGumBaseline } from "./gum-baselines";
import { LITBANK_ATTRIBUTION, concatenateKey, loadLitbankDemo } from "./litbank";

export const DEMO_TASK_SLUG = "litbank-demo";
export const DEMO_TASK_TITLE = "LitBank coreference (demo)";
export const DEMO_ORGANIZER_EMAIL = "demo-organizer@corefboard.invalid";
export const DEMO_BASELINE_TEAM = "Corefboard baselines";
export const DEMO_GOLD_FILE = "litbank-demo.conll";

/** The GUM demo task's address (/tasks/gum-corefud-demo). */
export const GUM_DEMO_TASK_SLUG = "gum-corefud-demo";
/** The GUM demo task's title, as the issue names it. */
export const GUM_DEMO_TASK_TITLE = "GUM multi-genre (CorefUD demo)";
/** The name of the archive the GUM demo's gold keys are uploaded in (one file per dataset). */
export const GUM_DEMO_GOLD_ARCHIVE = "gum-demo-test.tar.gz";

const DESCRIPTION = `A demonstration task on English literary fiction: ten LitBank documents (about 20,600 tokens, 2,832 mentions in 807 entities, singletons included).

Submit a CoNLL-2012 file with the same ten documents (matched by their names, e.g. "1023_bleak_house_brat") and your predicted entities in the last column. Runs are scored with MUC, B³, CEAFm, CEAFe, LEA, BLANC and the CoNLL F1, with singletons kept, exactly as the CoNLL reference scorer does.

The three baseline runs use the gold mentions and simple rules; they are labelled as baselines.`;

const GUM_DESCRIPTION = `A demonstration of a CRAC-style task on English in six genres: twelve documents of the GUM corpus (Zeldes 2017), the official test documents of the genres ${GUM_GENRES.map((g) => g.genre).join(", ")} (two each; 10,972 words, 3,142 mentions in 1,809 entities, 1,370 of them singletons), with GUM's own coreference annotation in CorefUD CoNLL-U. Each genre is a dataset of the phase (\`en_gum_academic\` … \`en_gum_voyage\`), as each corpus is in CRAC.

Submit one archive (.zip or .tar.gz) with one CorefUD CoNLL-U file per dataset, named as the submit page lists them (e.g. \`en_gum_bio-corefud-test.conllu\`), each with the dataset's documents matched by their \`# newdoc id\` (e.g. \`GUM_bio_dvorak\`), the key's words and sentences, and your entities in the \`Entity=\` attribute of the MISC column. A dataset left out of the archive counts as 0. Runs are scored as the CRAC shared tasks score them (the CorefUD scorer): head match, singletons excluded, zeros matched by their dependencies; the primary score is the macro-average of the CoNLL F1 over the six datasets. Partial match, exact match and head match with singletons are computed for every run and shown beside it.

GUM's files declare no \`head\` attribute, so the head of a key mention is its first word, as the CorefUD scorer reads them: give your mentions that head (or declare \`head\` in \`# global.Entity\` and write it).

The three baseline runs use the gold mentions and simple rules; they are labelled as baselines.`;

/** What the loader did for one demo task. */
export interface DemoLoadResult {
  /** `published`: the task was a draft and is published now */
  created: { task: boolean; gold: boolean; published: boolean; team: boolean; baselines: string[] };
  source: string;
  phaseId: string;
}

/** Everything one demo task is made of. */
interface DemoSpec {
  slug: string;
  title: string;
  description: string;
  evaluationProfile?: "crac";
  dataLicense: string;
  dataSource: string;
  /** A one-dataset phase: its gold key file and content. */
  gold?: { fileName: string; key: Buffer };
  /** A phase with several datasets: each with its gold key (uploaded together as `goldArchive`). */
  datasets?: readonly { name: string; language: string; fileName: string; key: Buffer }[];
  goldArchive?: string;
  /** Where the data came from, for the result. */
  source: string;
  baselines: readonly { id: string; systemName: string; description: string; fileName: string; response: () => Promise<Uint8Array> }[];
}

/**
 * Creates whatever part of the LitBank demo task is missing.
 *
 * @param options.log receives one line per step
 * @returns what was created and where the data came from
 * @throws Error when the demo files cannot be found or verified (see `loadLitbankDemo`),
 *   or a database error
 */
export async function loadDemoTask(options: { log?: (line: string) => void } = {}): Promise<DemoLoadResult> {
  const log = options.log ?? (() => {});
  const demo = await loadLitbankDemo();
  log(`demo data: 10 LitBank files from ${demo.source} (${demo.location}), sha256 verified`);
  const key = concatenateKey(demo.files);
  let corpus: ReturnType<typeof readConll2012> | null = null;
  const keyCorpus = () => (corpus ??= readConll2012(key, DEMO_GOLD_FILE));
  return ensureDemo(
    {
      slug: DEMO_TASK_SLUG,
      title: DEMO_TASK_TITLE,
      description: DESCRIPTION,
      dataLicense: LITBANK_ATTRIBUTION.license,
      dataSource: LITBANK_ATTRIBUTION.source,
      gold: { fileName: DEMO_GOLD_FILE, key },
      source: demo.source,
      baselines: BASELINES.map((b) => ({
        id: b.id,
        systemName: b.systemName,
        description: b.description,
        fileName: `${b.id}.conll`,
        response: async () => Buffer.from(writeConll2012(runBaseline(b, keyCorpus())), "utf8"),
      })),
    },
    log,
  );
}

/**
 * Creates whatever part of the GUM demo task is missing: the task (profile `crac`), its six
 * genre datasets (`gumDemoDatasets`), their gold keys (uploaded as one archive,
 * `GUM_DEMO_GOLD_ARCHIVE`) and the three baselines of `GUM_BASELINES`, each a `.tar.gz` with
 * one CorefUD CoNLL-U file per dataset.
 *
 * @param options.log receives one line per step
 * @returns what was created and where the data came from
 * @throws Error when the demo files cannot be found or verified (see `loadGumDemo`), or a
 *   database error
 */
export async function loadGumDemoTask(options: { log?: (line: string) => void } = {}): Promise<DemoLoadResult> {
  const log = options.log ?? (() => {});
  const demo = await loadGumDemo();
  log(`demo data: ${GUM_DEMO_FILES.length} GUM files from ${demo.source} (${demo.location}), sha256 verified`);
  const datasets = gumDemoDatasets(demo.files);
  const mentions = new Map<string, ReturnType<typeof gumMentions>>();
  const mentionsOf = (d: (typeof datasets)[number]) => mentions.get(d.name) ?? mentions.set(d.name, gumMentions(d.key, d.fileName)).get(d.name)!;
  return ensureDemo(
    {
      slug: GUM_DEMO_TASK_SLUG,
      title: GUM_DEMO_TASK_TITLE,
      description: GUM_DESCRIPTION,
      evaluationProfile: "crac",
      dataLicense: GUM_ATTRIBUTION.license,
      dataSource: GUM_ATTRIBUTION.source,
      datasets,
      goldArchive: GUM_DEMO_GOLD_ARCHIVE,
      source: demo.source,
      baselines: GUM_BASELINES.map((b) => ({
        id: b.id,
        systemName: b.systemName,
        description: b.description,
        fileName: `gum-${b.id}.tar.gz`,
        response: () => writeTarGz(datasets.map((d) => ({ path: d.fileName, bytes: Buffer.from(runGumBaseline(b, d.key, mentionsOf(d)), "utf8") }))),
      })),
    },
    log,
  );
}

/**
 * Loads both demo tasks (LitBank, then GUM); see `loadDemoTask` and `loadGumDemoTask`.
 *
 * @returns what was created for each
 * @throws Error as those do; the GUM demo is not tried when the LitBank one fails
 */
export async function loadDemoTasks(options: { log?: (line: string) => void } = {}): Promise<{ litbank: DemoLoadResult; gum: DemoLoadResult }> {
  const litbank = await loadDemoTask(options);
  const gum = await loadGumDemoTask(options);
  return { litbank, gum };
}

/** Creates whatever part of one demo task is missing. */
async function ensureDemo(spec: DemoSpec, log: (line: string) => void): Promise<DemoLoadResult> {
  const db = getPrisma();
  const organizer = await db.user.upsert({
    where: { email: DEMO_ORGANIZER_EMAIL },
    update: {},
    create: { email: DEMO_ORGANIZER_EMAIL, name: "Corefboard demo organizer", role: "ADMIN", emailConfirmedAt: new Date() },
  });
  const viewer: Viewer = { userId: organizer.id, role: "ADMIN" };
  const created: DemoLoadResult["created"] = { task: false, gold: false, published: false, team: false, baselines: [] };

  let task = await db.task.findUnique({ where: { slug: spec.slug }, include: { phases: true } });
  if (!task) {
    await createTask(viewer, {
      slug: spec.slug,
      title: spec.title,
      description: spec.description,
      primaryMetric: "conll",
      ...(spec.evaluationProfile ? { evaluationProfile: spec.evaluationProfile } : {}),
      dataLicense: spec.dataLicense,
      dataSource: spec.dataSource,
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
    log(`created task "${spec.title}" (/tasks/${spec.slug})`);
    task = await db.task.findUniqueOrThrow({ where: { slug: spec.slug }, include: { phases: true } });
  }
  const phase = task.phases.find((p) => p.name === "test") ?? task.phases[0];
  if (spec.datasets) await ensureDatasets(viewer, phase.id, spec.datasets, log);

  const goldCount = await db.goldKey.count({ where: { phaseId: phase.id, active: true } });
  if (goldCount < (spec.datasets?.length ?? 1)) {
    const { fileName, bytes } = spec.datasets
      ? { fileName: spec.goldArchive ?? "gold.tar.gz", bytes: await writeTarGz(spec.datasets.map((d) => ({ path: d.fileName, bytes: d.key }))) }
      : { fileName: spec.gold!.fileName, bytes: spec.gold!.key };
    const upload = await uploadGoldKey(viewer, phase.id, fileName, bytes);
    created.gold = true;
    for (const d of upload.datasets) {
      if (!d.unchanged) log(`uploaded gold key v${d.gold.version} of dataset ${d.dataset.name}: ${d.gold.stats.documents} documents, ${d.gold.stats.mentions} mentions`);
    }
  }

  // Participant files: each dataset's blind input, derived from its gold key, so that the
  // phase's sample submission (the README's starting point for the demo) can be downloaded.
  const withoutBlind = await db.dataset.findMany({ where: { phaseId: phase.id, blindInputs: { none: {} } }, select: { id: true, name: true }, orderBy: { position: "asc" } });
  for (const d of withoutBlind) {
    const blind = await deriveBlindInput(viewer, phase.id, d.id);
    log(`derived the blind input of dataset ${d.name} (${blind.size} bytes)`);
  }

  // A new task is a draft: publish it once its gold keys are in (publishTask checks them).
  const { status } = await db.task.findUniqueOrThrow({ where: { id: task.id }, select: { status: true } });
  if (status === "DRAFT") {
    await publishTask(viewer, task.id);
    created.published = true;
    log(`published task "${spec.title}"`);
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
  for (const baseline of spec.baselines) {
    if (existing.has(baseline.systemName)) continue;
    const { id, warnings } = await createSubmission({
      viewer,
      phaseId: phase.id,
      team: team.id,
      fileName: baseline.fileName,
      bytes: await baseline.response(),
      systemName: baseline.systemName,
      description: baseline.description,
      isBaseline: true,
    });
    created.baselines.push(baseline.id);
    log(`submitted baseline "${baseline.systemName}" (${id}); the worker scores it`);
    for (const w of warnings) log(`  warning on baseline "${baseline.systemName}": ${w.message}`);
  }
  if (!created.task && !created.gold && !created.published && created.baselines.length === 0) log(`demo task "${spec.title}" already loaded`);
  return { created, source: spec.source, phaseId: phase.id };
}

/**
 * Gives the demo phase the datasets of `wanted`, in order: the phase's first dataset (the
 * default "main" of a new phase) becomes the first one, the others are added. Datasets that
 * already exist by name are left as they are.
 */
async function ensureDatasets(
  viewer: Viewer,
  phaseId: string,
  wanted: readonly { name: string; language: string; fileName: string }[],
  log: (line: string) => void,
): Promise<void> {
  const existing = await listDatasets(phaseId);
  const names = new Set(existing.map((d) => d.name));
  if (wanted.every((d) => names.has(d.name))) return;
  for (const [position, d] of wanted.entries()) {
    if (names.has(d.name)) continue;
    const fields = { name: d.name, language: d.language, fileName: d.fileName, format: "conllu", position };
    const renamed = position === 0 && existing.length === 1 && !wanted.some((w) => w.name === existing[0].name);
    if (renamed) await updateDataset(viewer, existing[0].id, fields);
    else await addDataset(viewer, phaseId, fields);
    log(`${renamed ? "named the first dataset" : "added dataset"} ${d.name} (${d.fileName})`);
  }
}

