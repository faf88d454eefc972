/**
 * Test fixtures for the scoring pipeline: rows inserted directly with Prisma (a user, a
 * team, a task with its evaluation profile, a phase with its datasets, active gold keys per
 * dataset) and submissions with their files (one SubmissionFile row per dataset), with small
 * CoNLL-2012 files and a small CorefUD CoNLL-U key and response (gold named `*.conllu`
 * through `goldFileName`); and the traces a killed worker leaves (a claimed row, an active
 * pg-boss job).
 * Test-only: used by the worker tests (lib/worker/) and the service tests that score runs.
 */
import { randomUUID } from "node:crypto";
import type PgBoss from "pg-boss";
import type { PrismaClient } from "../db/client";
import { BOSS_SCHEMA, SCORE_QUEUE, enqueueScoring } from "../queue";
import { DATASET_ORDER, defaultDatasetData, type DatasetFormat } from "../tasks/datasets";
import { packFile } from "../storage";
import { claimSubmission, type Claim } from "../submission-states";

/** A CoNLL-2012 file from documents given as `[name, rows]`, rows being `WORD CELL` or "" (sentence break). */
export function conll(...docs: [name: string, rows: string[]][]): string {
  return docs.map(([name, rows]) => [`#begin document (${name}); part 0`, ...rows, "#end document"].join("\n")).join("\n") + "\n";
}

/** Gold key: two documents, singletons included. */
export const KEY = conll(
  ["alpha", ["John\t(1)", "saw\t-", "Mary\t(2)", ".\t-", "", "He\t(1)", "greeted\t-", "her\t(2)", "and\t-", "Bill\t(3)", ".\t-"]],
  ["beta", ["The\t(4", "cat\t4)", "slept\t-", ".\t-", "", "It\t(4)", "dreamt\t-", "of\t-", "mice\t(5)", ".\t-"]],
);

/** A response that gets some things right and some wrong (one merge, one missed mention). */
export const RESPONSE = conll(
  ["alpha", ["John\t(1)", "saw\t-", "Mary\t(1)", ".\t-", "", "He\t(1)", "greeted\t-", "her\t(2)", "and\t-", "Bill\t-", ".\t-"]],
  ["beta", ["The\t-", "cat\t(4)", "slept\t-", ".\t-", "", "It\t(4)", "dreamt\t-", "of\t-", "mice\t(5)", ".\t-"]],
);

/** A second gold version: different document set, so old per-document rows must go. */
export const KEY_V2 = conll(["alpha", ["John\t(1)", "saw\t-", "Mary\t(1)", ".\t-", "", "He\t(1)", "greeted\t-", "her\t(2)", "and\t-", "Bill\t(2)", ".\t-"]]);

/** A file that does not parse: the mention opened on line 3 is never closed. */
export const BROKEN = "#begin document (alpha); part 0\nJohn\t(1)\nsaw\t(2\n.\t-\n#end document\n";

/** A CoNLL-U token line: DEPS in column 9, MISC (the `Entity=` annotation) in column 10. */
export function conlluRow(id: string | number, form: string, misc = "_", deps = "_"): string {
  return [String(id), form, "_", "_", "_", "_", "_", "_", deps, misc].join("\t");
}

/** A CorefUD CoNLL-U document: its name (`# newdoc id`) and its sentences as `[sentId, rows]` ({@link conlluRow}). */
export type ConlluDoc = [name: string, sentences: [sentId: string, rows: string[]][]];

/** A CorefUD CoNLL-U file from documents ({@link ConlluDoc}). */
export function conllu(...docs: ConlluDoc[]): string {
  const lines = docs.flatMap(([name, sentences]) => [
    `# newdoc id = ${name}`,
    "# global.Entity = eid-etype-head-other",
    ...sentences.flatMap(([sentId, rows]) => [`# sent_id = ${sentId}`, ...rows, ""]),
  ]);
  return lines.join("\n") + "\n";
}

const r = conlluRow;

/**
 * CorefUD gold key documents, two: heads that differ from the first word (e2 "the old man",
 * head "man"), a zero (empty node 5.1 with DEPS, in e1), a discontinuous mention (e4 "The
 * report … was") and singletons (e3, e5).
 */
export const KEY_CONLLU_DOCS: ConlluDoc[] = [
  [
    "d1",
    [
      ["d1-1", [r(1, "Maria", "Entity=(e1-person-1-)"), r(2, "met"), r(3, "the", "Entity=(e2-person-3-"), r(4, "old"), r(5, "man", "Entity=e2)"), r(6, "near"), r(7, "the", "Entity=(e3-place-2-"), r(8, "river", "Entity=e3)"), r(9, ".")]],
      ["d1-2", [r(1, "She", "Entity=(e1-person-1-)"), r(2, "greeted"), r(3, "him", "Entity=(e2-person-1-)"), r(4, ","), r(5, "and"), r("5.1", "_", "Entity=(e1-person-1-)", "6:nsubj"), r(6, "smiled"), r(7, ".")]],
    ],
  ],
  [
    "d2",
    [
      ["d2-1", [r(1, "The", "Entity=(e4[1/2]-thing-2-"), r(2, "report", "Entity=e4[1/2])"), r(3, ","), r(4, "published"), r(5, "yesterday"), r(6, ","), r(7, "was", "Entity=(e4[2/2]-thing-2-)"), r(8, "long"), r(9, ".")]],
      ["d2-2", [r(1, "It", "Entity=(e4-thing-1-)"), r(2, "was"), r(3, "read"), r(4, "by"), r(5, "many", "Entity=(e5-person-1-)"), r(6, ".")]],
    ],
  ],
];

/** {@link KEY_CONLLU_DOCS} as a file. */
export const KEY_CONLLU = conllu(...KEY_CONLLU_DOCS);

/**
 * The documents of a response to {@link KEY_CONLLU} (same words) that scores differently under each CRAC
 * setting: "old man" with head "old" (a partial match, no head match), "The report" for the
 * discontinuous mention (no exact match), "river" wrongly in e1, a spurious entity e6, the zero
 * found.
 */
export const RESPONSE_CONLLU_DOCS: ConlluDoc[] = [
  [
    "d1",
    [
      ["d1-1", [r(1, "Maria", "Entity=(e1-person-1-)"), r(2, "met"), r(3, "the"), r(4, "old", "Entity=(e2-person-1-"), r(5, "man", "Entity=e2)"), r(6, "near"), r(7, "the"), r(8, "river", "Entity=(e1-place-1-)"), r(9, ".")]],
      ["d1-2", [r(1, "She", "Entity=(e1-person-1-)"), r(2, "greeted"), r(3, "him", "Entity=(e2-person-1-)"), r(4, ","), r(5, "and"), r("5.1", "_", "Entity=(e1-person-1-)", "6:nsubj"), r(6, "smiled"), r(7, ".")]],
    ],
  ],
  [
    "d2",
    [
      ["d2-1", [r(1, "The", "Entity=(e4-thing-2-"), r(2, "report", "Entity=e4)"), r(3, ","), r(4, "published"), r(5, "yesterday", "Entity=(e6-time-1-)"), r(6, ","), r(7, "was"), r(8, "long"), r(9, ".")]],
      ["d2-2", [r(1, "It", "Entity=(e4-thing-1-)"), r(2, "was"), r(3, "read", "Entity=(e6-time-1-)"), r(4, "by"), r(5, "many", "Entity=(e5-person-1-)"), r(6, ".")]],
    ],
  ],
];

/** {@link RESPONSE_CONLLU_DOCS} as a file. */
export const RESPONSE_CONLLU = conllu(...RESPONSE_CONLLU_DOCS);

/** A dataset {@link createPhase} inserted. */
export interface DatasetFixture {
  id: string;
  name: string;
  /** the file name a run's archive holds it under */
  fileName: string;
  format: DatasetFormat;
}

/** Ids of the rows {@link createPhase} inserted. */
export interface PhaseFixture {
  userId: string;
  teamId: string;
  taskId: string;
  phaseId: string;
  /**
   * the phase's first dataset (the only one unless `datasets` was given); absent on a fixture
   * built by hand: the helpers then read the phase's first dataset from the database
   */
  datasetId?: string;
  /** the phase's datasets, in their order (absent: read from the database) */
  datasets?: DatasetFixture[];
}

/**
 * The phase's datasets: `f.datasets`, or read from the database.
 *
 * @throws Error when the phase has no dataset (every phase the services create has one)
 */
export async function phaseDatasets(db: PrismaClient, f: PhaseFixture): Promise<DatasetFixture[]> {
  if (f.datasets) return f.datasets;
  const rows = await db.dataset.findMany({ where: { phaseId: f.phaseId }, orderBy: DATASET_ORDER, select: { id: true, name: true, fileName: true, format: true } });
  if (rows.length === 0) throw new Error(`phase ${f.phaseId} has no dataset: create one (e.g. defaultDatasetData) before adding gold keys or runs`);
  return rows.map((r) => ({ ...r, format: r.format === "conllu" ? "conllu" : "conll2012" }));
}

/** One dataset of a phase with several ({@link PhaseOptions.datasets}). */
export interface DatasetSpec {
  name: string;
  /** default `<name>.conllu` for `conllu`, else `<name>.conll` */
  fileName?: string;
  /** default: `conllu` when the task's profile is `crac`, else `conll2012` */
  format?: DatasetFormat;
  /** its gold key version 1 (default: none) */
  gold?: string | null;
  /** that key's file name (default `<name>-key-v1.conllu` / `.conll` by the format) */
  goldFileName?: string;
}

/** Options of {@link createPhase}. */
export interface PhaseOptions {
  /** gold key version 1 (default {@link KEY}); null: no gold key */
  gold?: string | null;
  /** its file name (default `key-v1.conll`; `.conllu` makes it CorefUD) */
  goldFileName?: string;
  /** the task's `evaluationProfile` (default `conll2012`) */
  evaluationProfile?: "conll2012" | "crac" | "custom";
  /** custom profile: `keepSingletons` (default true), `mentionMatching` (`exact`), `zeroMatching` (`dependent`) */
  keepSingletons?: boolean;
  mentionMatching?: "exact" | "partial" | "head";
  zeroMatching?: "dependent" | "linear";
  /** the task's `mappedClusterF` (default false) */
  mappedClusterF?: boolean;
  /**
   * the phase's datasets, in order, each with its own gold key; when given, `gold` and
   * `goldFileName` are ignored. Default: one dataset ("main") with `gold`.
   */
  datasets?: DatasetSpec[];
}

/**
 * Inserts a user, a team, a task and a phase with its datasets, and active gold keys version
 * 1: by default one dataset, "main", in the format of `goldFileName` (CorefUD when it ends in
 * `.conllu`), with `gold` (unless null); else the `datasets` given, each with its `gold`.
 */
export async function createPhase(db: PrismaClient, options: PhaseOptions = {}): Promise<PhaseFixture> {
  const tag = randomUUID().slice(0, 8);
  const user = await db.user.create({ data: { email: `u-${tag}@example.org`, name: `User ${tag}`, emailConfirmedAt: new Date() } });
  const team = await db.team.create({ data: { name: `Team ${tag}` } });
  const task = await db.task.create({
    data: {
      slug: `task-${tag}`,
      title: `Task ${tag}`,
      evaluationProfile: options.evaluationProfile ?? "conll2012",
      keepSingletons: options.keepSingletons ?? true,
      mentionMatching: options.mentionMatching ?? "exact",
      zeroMatching: options.zeroMatching ?? "dependent",
      mappedClusterF: options.mappedClusterF ?? false,
    },
  });
  const profileFormat: DatasetFormat = (options.evaluationProfile ?? "conll2012") === "crac" ? "conllu" : "conll2012";
  const specs: DatasetSpec[] = options.datasets ?? [
    {
      ...defaultDatasetData(options.evaluationProfile ?? "conll2012"),
      ...(options.goldFileName ? { format: options.goldFileName.toLowerCase().endsWith(".conllu") ? ("conllu" as const) : ("conll2012" as const) } : {}),
      gold: options.gold === undefined ? KEY : options.gold,
      goldFileName: options.goldFileName ?? "key-v1.conll",
    },
  ];
  const phase = await db.phase.create({
    data: { taskId: task.id, name: "test", opensAt: new Date(Date.now() - 86_400_000), closesAt: new Date(Date.now() + 86_400_000) },
  });
  const datasets: DatasetFixture[] = [];
  for (const [position, spec] of specs.entries()) {
    const format = spec.format ?? profileFormat;
    const ext = format === "conllu" ? "conllu" : "conll";
    const row = await db.dataset.create({
      data: { phaseId: phase.id, name: spec.name, fileName: spec.fileName ?? `${spec.name}.${ext}`, format, position },
      select: { id: true, name: true, fileName: true },
    });
    datasets.push({ ...row, format });
  }
  const fixture: PhaseFixture = { userId: user.id, teamId: team.id, taskId: task.id, phaseId: phase.id, datasetId: datasets[0].id, datasets };
  for (const [i, spec] of specs.entries()) {
    if (spec.gold === undefined || spec.gold === null) continue;
    const ext = datasets[i].format === "conllu" ? "conllu" : "conll";
    await addGold(db, fixture, 1, spec.gold, spec.goldFileName ?? `${spec.name}-key-v1.${ext}`, datasets[i].id);
  }
  return fixture;
}

/**
 * The same phase for another team: a new team row, and `f` with its `teamId`. Runs of one
 * team are scored one at a time (`claimSubmission`), so tests that claim several runs at once
 * give each its own team.
 */
export async function withNewTeam(db: PrismaClient, f: PhaseFixture): Promise<PhaseFixture> {
  const team = await db.team.create({ data: { name: `Team ${randomUUID().slice(0, 8)}` } });
  return { ...f, teamId: team.id };
}

/**
 * Adds gold key `version` (file name `fileName`, default `key-vN.conll`) to a dataset of the
 * phase (default its first) and makes it that dataset's only active one.
 *
 * @returns the new gold key's id
 */
export async function addGold(
  db: PrismaClient,
  f: PhaseFixture,
  version: number,
  text: string,
  fileName = `key-v${version}.conll`,
  datasetIdOrDefault?: string,
): Promise<string> {
  const datasetId = datasetIdOrDefault ?? f.datasetId ?? (await phaseDatasets(db, f))[0].id;
  const stored = packFile(Buffer.from(text));
  const [, gold] = await db.$transaction([
    db.goldKey.updateMany({ where: { phaseId: f.phaseId, datasetId }, data: { active: false } }),
    db.goldKey.create({
      data: {
        phaseId: f.phaseId,
        datasetId,
        version,
        fileName,
        sha256: stored.sha256,
        gzip: stored.gzip,
        size: stored.size,
        documentCount: 0,
        uploadedById: f.userId,
        active: true,
      },
      select: { id: true },
    }),
  ]);
  return gold.id;
}

/**
 * Inserts a QUEUED submission holding `text` as the file of the phase's first dataset; returns its id.
 *
 * @param systemName the run's system name (default `test system`), set as the row is inserted:
 *   a running worker never sees the row under another name (e.g. `COREFBOARD_TEST_SCORE_DELAY_SYSTEM`'s)
 */
export async function createSubmission(db: PrismaClient, f: PhaseFixture, text: string, fileName = "system.conll", systemName?: string): Promise<string> {
  return createRun(db, f, [{ datasetId: f.datasetId ?? (await phaseDatasets(db, f))[0].id, text, fileName }], fileName, systemName);
}

/** One file of a run ({@link createRun}). */
export interface RunFile {
  datasetId: string;
  text: string;
  /** the name in the archive (default: the dataset's `fileName`) */
  fileName?: string;
}

/**
 * Inserts a QUEUED submission with a file per entry of `files` (SubmissionFile rows, no
 * gold key recorded), as an archive upload stores it. The upload's own sha256 and size are
 * those of the files' texts joined (no archive is built). Returns its id.
 *
 * @param uploadName the upload's file name (default `run.zip`)
 * @param systemName the run's system name (default `test system`)
 */
export async function createRun(db: PrismaClient, f: PhaseFixture, files: RunFile[], uploadName = "run.zip", systemName = "test system"): Promise<string> {
  const upload = packFile(Buffer.from(files.map((file) => file.text).join("")));
  const datasets = await phaseDatasets(db, f);
  const row = await db.submission.create({
    data: {
      phaseId: f.phaseId,
      teamId: f.teamId,
      submitterId: f.userId,
      systemName,
      fileName: uploadName,
      sha256: upload.sha256,
      size: upload.size,
      files: {
        create: files.map((file) => {
          const stored = packFile(Buffer.from(file.text));
          const dataset = datasets.find((d) => d.id === file.datasetId);
          if (!dataset) throw new Error(`createRun: dataset ${file.datasetId} is not in the phase`);
          return { datasetId: file.datasetId, fileName: file.fileName ?? dataset.fileName, sha256: stored.sha256, gzip: stored.gzip, size: stored.size };
        }),
      },
    },
  });
  return row.id;
}

/**
 * A valid CoNLL-2012 response with `mentions` single-token mentions (documents of 5,000
 * tokens, sentences of 20, none of them in the key): megabytes of text whose parse needs
 * far more than 64 MB of heap and far more than 50 ms.
 */
export function bigResponse(mentions: number): string {
  const lines: string[] = [];
  for (let i = 0; i < mentions; i++) {
    if (i % 5000 === 0) {
      if (i > 0) lines.push("#end document");
      lines.push(`#begin document (big${i / 5000}); part 0`);
    }
    lines.push(`w${i}\t(${i % 5000})`);
    if (i % 20 === 19) lines.push("");
  }
  lines.push("#end document", "");
  return lines.join("\n");
}

/** What {@link simulateDeadWorker} left behind. */
export interface DeadWorkerRun {
  claim: Claim;
  /** the pg-boss job the dead worker was running (state `active`) */
  jobId: string;
}

/**
 * The traces of a worker killed while scoring a submission: the row claimed by
 * `workerId` (SCORING, attempt + 1) with a heartbeat `heartbeatAgeMs` old, and its pg-boss
 * job `active` since `jobAgeMs` ago. The submission must be QUEUED, with no job yet.
 */
export async function simulateDeadWorker(
  db: PrismaClient,
  boss: PgBoss,
  submissionId: string,
  options: { workerId?: string; heartbeatAgeMs?: number; jobAgeMs?: number } = {},
): Promise<DeadWorkerRun> {
  const { workerId = "dead-host:4242", heartbeatAgeMs = 3600_000, jobAgeMs = heartbeatAgeMs } = options;
  await enqueueScoring([submissionId], { boss });
  const { rows } = await boss.getDb().executeSql(
    `UPDATE ${BOSS_SCHEMA}.job SET state = 'active', started_on = now() - $3::int * interval '1 millisecond'
      WHERE name = $1 AND singleton_key = $2 AND state = 'created' RETURNING id`,
    [SCORE_QUEUE, submissionId, jobAgeMs],
  );
  if (rows.length !== 1) throw new Error(`simulateDeadWorker: expected one created job for ${submissionId}, found ${rows.length}`);
  const claimed = await claimSubmission(db, submissionId, workerId, { heartbeatStaleMs: 1, staleAfterMs: 1, maxAttempts: 1000 });
  if (!claimed.claimed) throw new Error(`simulateDeadWorker: could not claim ${submissionId}: ${claimed.reason}`);
  await db.$executeRaw`UPDATE submissions SET heartbeat_at = now() - ${heartbeatAgeMs}::int * interval '1 millisecond' WHERE id = ${submissionId}::uuid`;
  return { claim: claimed.claim, jobId: rows[0].id as string };
}

/** The state of a pg-boss job (`created`, `active`, `completed`, `cancelled`, ...). */
export async function jobState(boss: PgBoss, jobId: string): Promise<string | undefined> {
  const { rows } = await boss.getDb().executeSql(`SELECT state FROM ${BOSS_SCHEMA}.job WHERE id = $1`, [jobId]);
  return rows[0]?.state as string | undefined;
}

/** The jobs of a submission, oldest first: `[{ id, state }]`. */
export async function jobsOf(boss: PgBoss, submissionId: string): Promise<{ id: string; state: string }[]> {
  const { rows } = await boss.getDb().executeSql(
    `SELECT id, state FROM ${BOSS_SCHEMA}.job WHERE name = $1 AND singleton_key = $2 ORDER BY created_on, id`,
    [SCORE_QUEUE, submissionId],
  );
  return rows as { id: string; state: string }[];
}
