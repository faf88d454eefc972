/**
 * A big, realistic leaderboard written fast, for the web load benchmark
 * (`scripts/bench-web.ts`, issue 12 §1) and for tests: one published task with one open phase,
 * one dataset and an active gold key, `teams` teams and `teams × runsPerTeam` SCORED, PUBLIC
 * runs, each with its file, its Score, DatasetScore and DocumentScore rows and its RunAnalysis
 * row, written with a few bulk statements per 250 runs (`unnest` of one array per column)
 * instead of one service call per run: 10,000 runs with 1.6 million DocumentScore rows take
 * about 40 s on 2 cores.
 *
 * The rows are exactly those the scoring worker (`lib/worker/scoring-job.ts`) writes for the
 * stored files, because they are made by the same functions from real scoring:
 * 1. A synthetic CoNLL-2012 gold key of `documents` documents (word-like tokens, pronouns,
 *    sentences, entities with singletons) is generated, written (`writeConll2012`) and read
 *    back (`readCorpus`), as the worker reads it.
 * 2. `variants` response versions of every document are generated, from nearly right to poor
 *    (mentions dropped, boundaries moved, spurious mentions, entities split and merged; no two
 *    response mentions overlap), written and read back, and each (document, version) pair is
 *    scored once with `scoreDocument` under the task's primary setting (`conll2012` profile:
 *    exact spans, singletons kept, every non-optional metric) and analysed once (`analyzeRun`
 *    on that document alone).
 * 3. A run is one version per document (its team's skill, a little better with each run, sets
 *    which): its file is those documents' text in key order (stored gzip-compressed as
 *    concatenated gzip members, which `gunzip` reads as one file), its report is
 *    `assembleReport` over the chosen scored documents (what `evaluate` returns for that file),
 *    its Score and DatasetScore rows are the worker's `scoreRows` of that report, its
 *    DocumentScore rows the worker's `documentScoreRows` of the chosen documents (expanded in
 *    the database from a temporary table of every version's rows), and its RunAnalysis row the
 *    worker's `analysisRow` of the documents' analyses added up as `analyzeRun` adds them up
 *    over a whole run. So corpus counts are the sums of the document counts, and re-scoring a
 *    run with the real worker writes the same rows (`seed-board.test.ts` checks it).
 *
 * Everything is written in one transaction. When the database user is a superuser (as the
 * embedded Postgres' is), it runs with `session_replication_role = replica`, which skips the
 * foreign-key triggers: the rows are consistent by construction, and checking 1.6 million of
 * them one by one would triple the time.
 *
 * What else is written: an organizer account (no password: it cannot sign in) organizing the
 * task; per team one account (no password), its OWNER membership and its TaskParticipant row.
 * The phase opened 60 days before `now` and closes 30 days after it, its board is PUBLIC, ranked
 * BEST per team by the CoNLL F1, and `participantAnalysis` is PUBLIC so that anyone may open a
 * run's error-analysis document view. Runs are spread over the 60 days (a team's runs in order),
 * each scored a few seconds after it was made. The tables are ANALYZEd at the end, as autovacuum
 * would have done on a live site.
 *
 * Deterministic for a given `seed` and `now` (ids aside: they are random UUIDs).
 */
import { createHash, randomUUID } from "node:crypto";
import { gzipSync } from "node:zlib";
import pg from "pg";
import { uniformInt } from "pure-rand/distribution/uniformInt";
import { xoroshiro128plus } from "pure-rand/generator/xoroshiro128plus";
import { assembleReport, planEvaluation, scoreDocument, type EvaluationPlan, type Report, type ScoredDocument } from "../../scoring/evaluate";
import { addErrorCounts, analyzeRun, ENGLISH_PRONOUNS, zeroErrorCounts, type PronounDisclosure, type RunAnalysisResult } from "../../scoring/analysis/index";
import { readCorpus } from "../../scoring/formats/index";
import { writeConll2012 } from "../../scoring/formats/write-conll2012";
import type { Corpus, Document, Entity, Mention } from "../../scoring/types";
import { evaluateOptionsFor, runEvaluation, taskEvaluationProfile } from "../tasks/evaluation";
import { SCORER_VERSION } from "../scorer/version";
import { corpusStats } from "../upload-pool/stats";
import type { DocumentScoreRowLike } from "../boards/scores";
import { analysisRow, documentScoreRows, scoreRows } from "../worker/scoring-job";

type Rng = ReturnType<typeof xoroshiro128plus>;

/** What to seed. */
export interface SeedBoardOptions {
  /** teams, each with its account (default 1,000) */
  teams?: number;
  /** scored runs per team (default 10) */
  runsPerTeam?: number;
  /** documents of the gold key, hence of every run (default 20) */
  documents?: number;
  /** response versions generated per document, from nearly right to poor (default 12; 2 to 64) */
  variants?: number;
  /** the generator's seed (default 12) */
  seed?: number;
  /** the task's slug (default `bench-board`; must not exist yet) */
  slug?: string;
  /** put before every team's name (default none): team names are unique, so a second board in one database needs its own */
  teamPrefix?: string;
  /** the moment the phase's dates and the runs' times are set around (default: now) */
  now?: Date;
  /** runs written per statement batch (default 250) */
  batchSize?: number;
  /** receives progress lines (default: none) */
  log?: (line: string) => void;
}

/** A run the benchmark visits, with its place on the BEST board. */
export interface SeededRun {
  submissionId: string;
  teamId: string;
  teamName: string;
  systemName: string;
  /** the run's CoNLL F1 (a fraction in [0, 1]) */
  conllF1: number;
  /** 0-based place of the run's team on the BEST board (by CoNLL F1, ties: earlier run first) */
  boardIndex: number;
}

/** What {@link seedBoard} made: ids and paths the benchmark and tests need. */
export interface SeededBoard {
  taskId: string;
  slug: string;
  title: string;
  phaseId: string;
  datasetId: string;
  goldKeyId: string;
  organizerId: string;
  /** counts of what was written */
  teams: number;
  runs: number;
  documents: number;
  documentScoreRows: number;
  /** the gold key's document ids in key order (e.g. `bench_doc_000/part 0`) */
  documentIds: string[];
  /** the best run of the team in the middle of the BEST board (the submission page's run) */
  midRun: SeededRun;
  /** the best runs of the two teams in the middle of the board, neighbours on it (the compare page's runs) */
  compare: { a: SeededRun; b: SeededRun };
  /** a run and one of its documents for the error-analysis document view */
  documentView: { submissionId: string; document: string };
  /** page paths, ready to append to the site's origin */
  paths: {
    leaderboard: string;
    leaderboardJson: string;
    submission: string;
    compare: string;
    document: string;
  };
  /** wall time of the seeding, in seconds */
  seconds: number;
}

/** Defaults of {@link SeedBoardOptions}. */
export const SEED_BOARD_DEFAULTS = { teams: 1000, runsPerTeam: 10, documents: 20, variants: 12, seed: 12, slug: "bench-board", batchSize: 250 } as const;

/** The gold key's and the dataset's file name (one CoNLL-2012 dataset, as a new phase has). */
const GOLD_FILE = "main.conll";

const NAMES = ["Ada", "Boris", "Clara", "Dmitri", "Elena", "Felix", "Greta", "Hugo", "Irene", "Jonas", "Karla", "Lukas", "Mara", "Nils", "Olga", "Pavel", "Rosa", "Simon", "Tereza", "Viktor"];
const NOUNS = ["house", "letter", "river", "garden", "train", "village", "window", "doctor", "horse", "book", "storm", "road", "church", "table", "ship", "market"];
const WORDS = ["the", "a", "of", "and", "to", "in", "was", "had", "that", "with", "on", "for", "at", "from", "said", "came", "went", "saw", "old", "little", "long", "again", "then", "there", "very", "not", "but", "as", "by", "when", ",", ".", ";"];
const PRONOUNS = ["he", "she", "it", "they", "him", "her", "them", "his", "its", "their", "himself", "herself"];
const TEAM_WORDS = ["Alpine", "Baltic", "Cedar", "Delta", "Ember", "Fjord", "Granite", "Harbor", "Iris", "Juniper", "Kestrel", "Lumen", "Meadow", "Nimbus", "Orchid", "Prairie"];
const SYSTEM_WORDS = ["span", "cluster", "mention", "entity", "link", "graph", "seq2seq", "longdoc"];

/** Generator helpers over one pure-rand generator. */
function random(seed: number) {
  const rng: Rng = xoroshiro128plus(seed);
  const int = (lo: number, hi: number) => uniformInt(rng, lo, hi);
  const unit = () => uniformInt(rng, 0, 999_999) / 1_000_000;
  const pick = <T>(items: readonly T[]): T => items[int(0, items.length - 1)];
  return { int, unit, pick };
}

/** A synthetic key document: non-overlapping mentions of 1–3 tokens, entities with singletons, pronouns. */
function keyDocument(index: number, seed: number): Pick<Document, "name" | "part" | "tokens" | "sentenceStarts" | "entities"> {
  const r = random(seed * 7919 + index);
  const length = r.int(100, 220);
  const tokens = Array.from({ length }, () => r.pick(WORDS));
  const sentenceStarts = [0];
  for (let t = r.int(10, 25); t < length; t += r.int(10, 25)) sentenceStarts.push(t);
  const mentions: Mention[] = [];
  for (let t = r.int(0, 3); t < length; ) {
    const len = Math.min([1, 1, 1, 2, 2, 3][r.int(0, 5)], length - t);
    mentions.push([t, t + len - 1]);
    t += len + r.int(1, 4);
  }
  const entities: Entity[] = [];
  for (const m of mentions) {
    // Most mentions refer back to a recent entity; about a third start a new one.
    if (entities.length === 0 || r.unit() < 0.33) entities.push([m]);
    else entities[Math.max(0, entities.length - 1 - Math.floor(entities.length * r.unit() ** 2))].push(m);
  }
  for (const e of entities) {
    const name = r.pick(NAMES);
    e.forEach(([s, end], k) => {
      if (s === end) tokens[s] = k > 0 && r.unit() < 0.6 ? r.pick(PRONOUNS) : name;
      else for (let t = s; t <= end; t++) tokens[t] = t === s ? "the" : t === end ? r.pick(NOUNS) : "old";
    });
  }
  // A few pronouns that are no mention (non-referential "it", ...), for the disclosure table.
  const taken = new Set(mentions.flatMap(([s, e]) => Array.from({ length: e - s + 1 }, (_, k) => s + k)));
  for (let t = 0; t < length; t++) if (!taken.has(t) && r.unit() < 0.03) tokens[t] = r.pick(["it", "there", "you"]);
  return { name: `bench_doc_${String(index).padStart(3, "0")}`, part: 0, tokens, sentenceStarts, entities };
}

/**
 * A response version of a key document at quality `q` (1: the key itself, lower: more
 * errors): mentions dropped, boundaries moved by a token, spurious mentions, entities split and
 * merged. Response mentions never overlap, so the written file reads back as generated.
 */
function responseDocument(key: Pick<Document, "name" | "part" | "tokens" | "sentenceStarts" | "entities">, q: number, seed: number): Pick<Document, "name" | "part" | "tokens" | "sentenceStarts" | "entities"> {
  const r = random(seed);
  const n = key.tokens.length;
  const taken = new Uint8Array(n);
  const mark = ([s, e]: Mention, v: number) => {
    for (let t = s; t <= e; t++) taken[t] = v;
  };
  for (const e of key.entities) for (const m of e) mark(m, 1);
  const err = 1 - q;
  const kept: { mention: Mention; entity: number }[] = [];
  key.entities.forEach((entity, k) => {
    for (const m of entity) {
      if (r.unit() < err * 0.45) {
        mark(m, 0);
        continue;
      }
      let mention: Mention = m;
      if (r.unit() < err * 0.25) {
        if (m[1] > m[0]) mention = [m[0], m[1] - 1];
        else if (m[1] + 1 < n && !taken[m[1] + 1]) mention = [m[0], m[1] + 1];
      }
      mark(m, 0);
      mark(mention, 1);
      kept.push({ mention, entity: k });
    }
  });
  // Entities: a kept mention follows its key entity unless it is moved (split off, or merged
  // into another entity's cluster).
  const clusters = new Map<string, Mention[]>();
  const add = (id: string, m: Mention) => {
    const list = clusters.get(id);
    if (list) list.push(m);
    else clusters.set(id, [m]);
  };
  for (const { mention, entity } of kept) {
    const roll = r.unit();
    if (roll < err * 0.3) add(`split-${entity}`, mention);
    else if (roll < err * 0.45) add(`key-${r.int(0, key.entities.length - 1)}`, mention);
    else add(`key-${entity}`, mention);
  }
  // Spurious mentions on free tokens: alone, or joined to an existing cluster.
  const spurious = Math.round(kept.length * err * 0.35);
  const ids = [...clusters.keys()];
  for (let i = 0, tries = 0; i < spurious && tries < spurious * 20; tries++) {
    const s = r.int(0, n - 1);
    const e = Math.min(n - 1, s + (r.unit() < 0.7 ? 0 : 1));
    let free = true;
    for (let t = s; t <= e; t++) if (taken[t]) free = false;
    if (!free) continue;
    mark([s, e], 1);
    add(ids.length > 0 && r.unit() < 0.5 ? r.pick(ids) : `spurious-${i}`, [s, e]);
    i++;
  }
  const entities = [...clusters.values()].map((ms) => ms.sort((a, b) => a[0] - b[0])).sort((a, b) => a[0][0] - b[0][0]);
  return { ...key, entities };
}

/** The scored versions of every document and the key they are scored against. */
interface Material {
  key: Corpus;
  keyText: Buffer;
  /** [version][document]: the version's text of the document (a whole `#begin … #end` block) */
  texts: Buffer[][];
  /** [version][document]: gzip of that text, one gzip member */
  gzips: Buffer[][];
  /** [version][document]: the document scored under the primary setting */
  scored: ScoredDocument[][];
  /** [version][document]: the run analysis (`analyzeRun`) of that document alone */
  analyses: RunAnalysisResult[][];
  /** [version][document]: its DocumentScore rows (`documentScoreRows`) */
  documentRows: DocumentScoreRowLike[][][];
  plan: EvaluationPlan;
}

/**
 * Generates, writes, reads back and scores the key and every document version, and analyses
 * each version of each document (`analyzeRun` on the one document, with the primary setting's
 * singleton rule and the English pronoun list, as the scoring thread runs it on a whole run).
 */
function material(documents: number, variants: number, seed: number): Material {
  const keyDocs = Array.from({ length: documents }, (_, d) => keyDocument(d, seed));
  const keyText = Buffer.from(writeConll2012(keyDocs), "utf8");
  const key = readCorpus(keyText, GOLD_FILE);
  const options = evaluateOptionsFor(taskEvaluationProfile(TASK_EVALUATION).primary, false, { mappedClusterF: false });
  const one = (file: string, doc: Document): Corpus => ({ file, documents: [doc], warnings: [] });
  const out: Material = { key, keyText, texts: [], gzips: [], scored: [], analyses: [], documentRows: [], plan: undefined as unknown as EvaluationPlan };
  for (let v = 0; v < variants; v++) {
    // Version 0 is nearly right (q 0.97), the last one poor (q 0.40).
    const q = 0.97 - (0.57 * v) / Math.max(1, variants - 1);
    const texts = keyDocs.map((k, d) => Buffer.from(writeConll2012([responseDocument(k, q, seed * 1_000_003 + v * 4099 + d)]), "utf8"));
    const corpus = readCorpus(Buffer.concat(texts), "response.conll");
    if (corpus.warnings.length > 0 || corpus.documents.length !== documents || corpus.documents.some((doc, d) => doc.id !== key.documents[d].id)) {
      throw new Error(`seedBoard: response version ${v} does not read back as generated (${corpus.warnings[0]?.message ?? "documents"})`);
    }
    out.plan ??= planEvaluation(key, corpus, options);
    const scored = key.documents.map((k, d) => scoreDocument(out.plan, k, corpus.documents[d], { key: GOLD_FILE, response: "response.conll" }));
    if (scored.some((x) => x.warnings.length > 0)) throw new Error(`seedBoard: response version ${v} raises scorer warnings`);
    out.texts.push(texts);
    out.gzips.push(texts.map((t) => gzipSync(t, { level: 6 })));
    out.scored.push(scored);
    out.analyses.push(
      key.documents.map((k, d) =>
        analyzeRun(one(GOLD_FILE, k), one("response.conll", corpus.documents[d]), { removeSingletons: options.removeSingletons ?? false, lexicon: ENGLISH_PRONOUNS }),
      ),
    );
    out.documentRows.push(scored.map((x) => documentScoreRows({ perDocument: [x.report] } as Report)));
  }
  return out;
}

/**
 * A run's analysis from its documents' analyses, as `analyzeRun` computes it over the whole
 * run: error totals summed, per-document errors in key order, the pronoun disclosure's raw,
 * referential and correct counts summed per pronoun type, one column per type with raw > 0 in
 * the lexicon's order, and the column sums.
 */
function combinedAnalysis(parts: readonly RunAnalysisResult[]): RunAnalysisResult {
  const totals = zeroErrorCounts();
  for (const p of parts) addErrorCounts(totals, p.errors.totals);
  const sums = new Map<string, { raw: number; referential: number; correct: number }>();
  for (const p of parts) {
    for (const c of p.disclosure.columns) {
      const sum = sums.get(c.form) ?? { raw: 0, referential: 0, correct: 0 };
      sum.raw += c.raw;
      sum.referential += c.referential;
      sum.correct += c.correct;
      sums.set(c.form, sum);
    }
  }
  const columns: PronounDisclosure["columns"] = [];
  const total = { raw: 0, nonReferential: 0, referential: 0, correct: 0 };
  for (const t of ENGLISH_PRONOUNS.types) {
    const sum = sums.get(t.form);
    if (!sum || sum.raw === 0) continue;
    const column = { form: t.form, categories: [...t.categories], raw: sum.raw, nonReferential: sum.raw - sum.referential, referential: sum.referential, correct: sum.correct };
    columns.push(column);
    total.raw += column.raw;
    total.nonReferential += column.nonReferential;
    total.referential += column.referential;
    total.correct += column.correct;
  }
  return {
    errors: { totals, perDocument: parts.map((p) => p.errors.perDocument[0]) },
    disclosure: { language: ENGLISH_PRONOUNS.language, columns, total },
  };
}

/** One run as generated: which version of each document, and when it was made. */
interface PlannedRun {
  id: string;
  team: number;
  index: number;
  choice: number[];
  createdAt: Date;
}

/** Column arrays being collected for one batch of runs. */
function emptyBatch() {
  return {
    sub: { id: [] as string[], team: [] as string[], submitter: [] as string[], system: [] as string[], fileName: [] as string[], sha: [] as string[], size: [] as number[], created: [] as string[], started: [] as string[], scored: [] as string[] },
    files: [] as { id: string; fileName: string; sha: string; gzip: Buffer; size: number }[],
    score: { sub: [] as string[], metric: [] as string[], rn: [] as (number | null)[], rd: [] as (number | null)[], pn: [] as (number | null)[], pd: [] as (number | null)[], r: [] as (number | null)[], p: [] as (number | null)[], f1: [] as number[] },
    /** per run and document: the version chosen (DocumentScore rows are expanded in the database) */
    doc: { sub: [] as string[], doc: [] as number[], version: [] as number[] },
    analysis: { sub: [] as string[], errors: [] as string[], documents: [] as string[], disclosure: [] as string[] },
  };
}
type Batch = ReturnType<typeof emptyBatch>;

/** The evaluation settings of the seeded task (the `conll2012` profile). */
const TASK_EVALUATION = { evaluationProfile: "conll2012", mentionMatching: "exact", keepSingletons: true, zeroMatching: "dependent" } as const;

/**
 * Seeds a leaderboard (see the file comment) into a migrated database.
 *
 * @param target a connected `pg` client (left connected; no transaction may be open on it), or
 *   a `postgresql://` URL (a client is opened and closed here); the migrations must be applied
 * @param options sizes and seed ({@link SeedBoardOptions}; defaults: 1,000 teams × 10 runs × 20
 *   documents)
 * @returns the ids, counts and page paths of {@link SeededBoard}
 * @throws RangeError for sizes out of range (see {@link SeedBoardOptions}); the database error
 *   when a statement fails (everything is written in one transaction, then rolled back), e.g. a
 *   unique violation when the slug or its account e-mails exist already
 */
export async function seedBoard(target: pg.ClientBase | string, options: SeedBoardOptions = {}): Promise<SeededBoard> {
  const started = performance.now();
  const o = { ...SEED_BOARD_DEFAULTS, ...Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) } as typeof SEED_BOARD_DEFAULTS & SeedBoardOptions;
  for (const [name, value, min, max] of [
    ["teams", o.teams, 1, 1_000_000],
    ["runsPerTeam", o.runsPerTeam, 1, 10_000],
    ["documents", o.documents, 1, 10_000],
    ["variants", o.variants, 2, 64],
    ["batchSize", o.batchSize, 1, 100_000],
  ] as const) {
    if (!Number.isInteger(value) || value < min || value > max) throw new RangeError(`seedBoard: ${name} must be a whole number from ${min} to ${max}, got ${value}`);
  }
  const log = o.log ?? (() => {});
  const now = o.now ?? new Date();
  const own = typeof target === "string" ? new pg.Client({ connectionString: target }) : null;
  const client: pg.ClientBase = own ?? (target as pg.ClientBase);
  // A lost connection (the database stopped under it) fails the pending statement; without a
  // listener it would also be an uncaught 'error' event.
  own?.on("error", () => undefined);
  if (own) await own.connect();
  let open = false;
  try {
    const m = material(o.documents, o.variants, o.seed);
    log(`generated the gold key (${o.documents} documents, ${corpusStats(m.key).mentions} mentions) and ${o.variants} scored versions of each document`);
    const r = random(o.seed);
    const day = 86_400_000;
    const opensAt = new Date(now.getTime() - 60 * day);
    const closesAt = new Date(now.getTime() + 30 * day);

    // Runs: a team's skill sets around which version its documents are; each run is a bit better.
    const runs: PlannedRun[] = [];
    for (let team = 0; team < o.teams; team++) {
      const skill = 0.15 + 0.8 * r.unit() ** 0.8;
      const span = now.getTime() - 3_600_000 - opensAt.getTime();
      const times = Array.from({ length: o.runsPerTeam }, () => opensAt.getTime() + 3_600_000 + Math.floor(r.unit() * span)).sort((a, b) => a - b);
      for (let index = 0; index < o.runsPerTeam; index++) {
        const level = Math.min(1, Math.max(0, skill + 0.02 * index + (r.unit() - 0.5) * 0.1));
        const centre = (1 - level) * (o.variants - 1);
        const choice = Array.from({ length: o.documents }, () => {
          const spread = (r.unit() + r.unit() + r.unit() - 1.5) * (o.variants / 4);
          return Math.min(o.variants - 1, Math.max(0, Math.round(centre + spread)));
        });
        runs.push({ id: randomUUID(), team, index, choice, createdAt: new Date(times[index] + index) });
      }
    }

    await client.query("BEGIN");
    open = true;
    await client.query("SET LOCAL synchronous_commit = off");
    // Foreign-key checks (a row trigger each) would take most of the time: the rows are
    // consistent by construction, so a superuser (as the embedded Postgres' user is) skips them
    // for this transaction. Other users keep them.
    await client.query("SAVEPOINT replica");
    try {
      await client.query("SET LOCAL session_replication_role = replica");
    } catch {
      await client.query("ROLLBACK TO SAVEPOINT replica");
    }
    const organizerId = randomUUID();
    const taskId = randomUUID();
    const phaseId = randomUUID();
    const datasetId = randomUUID();
    const goldKeyId = randomUUID();
    const title = `Benchmark board (${(o.teams * o.runsPerTeam).toLocaleString("en")} runs)`;
    await client.query(`INSERT INTO users (id, email, name, password_hash, role, email_confirmed_at) VALUES ($1, $2, $3, NULL, 'USER', now())`, [organizerId, `${o.slug}-organizer@bench.invalid`, "Benchmark organizer"]);
    await client.query(
      `INSERT INTO tasks (id, slug, title, description, primary_metric, evaluation_profile, keep_singletons, mention_matching, zero_matching, status, published_at, rules, data_license, data_source)
       VALUES ($1, $2, $3, $4, 'conll', $5, $6, $7, $8, 'PUBLISHED', $9, $10, 'CC0 1.0 (synthetic text)', 'Generated by lib/bench/seed-board.ts')`,
      [
        taskId,
        o.slug,
        title,
        `A synthetic task for the web load benchmark: ${o.documents} generated documents, ${o.teams.toLocaleString("en")} teams with ${o.runsPerTeam} runs each, scored as the CoNLL reference scorer scores them.`,
        TASK_EVALUATION.evaluationProfile,
        TASK_EVALUATION.keepSingletons,
        TASK_EVALUATION.mentionMatching,
        TASK_EVALUATION.zeroMatching,
        opensAt,
        "One team per participant; the best run of each team is ranked.",
      ],
    );
    await client.query(`INSERT INTO task_organizers (task_id, user_id) VALUES ($1, $2)`, [taskId, organizerId]);
    await client.query(
      `INSERT INTO phases (id, task_id, name, opens_at, closes_at, display_time_zone, daily_limit, total_limit, leaderboard_visibility, selection_rule, participant_analysis)
       VALUES ($1, $2, 'test', $3, $4, 'UTC', 5, NULL, 'PUBLIC', 'BEST', 'PUBLIC')`,
      [phaseId, taskId, opensAt, closesAt],
    );
    await client.query(`INSERT INTO datasets (id, phase_id, name, language, file_name, format, position) VALUES ($1, $2, 'main', 'en', $3, 'conll2012', 0)`, [datasetId, phaseId, GOLD_FILE]);
    await client.query(
      `INSERT INTO gold_keys (id, phase_id, dataset_id, version, file_name, sha256, gzip, size, document_count, stats, uploaded_by_id, active, created_at)
       VALUES ($1, $2, $3, 1, $4, $5, $6, $7, $8, $9::jsonb, $10, true, $11)`,
      [goldKeyId, phaseId, datasetId, GOLD_FILE, sha256(m.keyText), gzipSync(m.keyText), m.keyText.byteLength, m.key.documents.length, JSON.stringify(corpusStats(m.key)), organizerId, opensAt],
    );

    // Accounts, teams, memberships, participants.
    const teamIds = Array.from({ length: o.teams }, () => randomUUID());
    const userIds = Array.from({ length: o.teams }, () => randomUUID());
    const number = (i: number) => String(i + 1).padStart(4, "0");
    const teamNames = teamIds.map((_, i) => `${o.teamPrefix ?? ""}${TEAM_WORDS[i % TEAM_WORDS.length]} Coref Lab ${number(i)}`);
    const systemName = (run: PlannedRun) => `${SYSTEM_WORDS[run.team % SYSTEM_WORDS.length]}-coref v${run.index + 1}`;
    await client.query(
      `INSERT INTO users (id, email, name, password_hash, role, created_at, email_confirmed_at)
       SELECT u.id, u.email, u.name, NULL, 'USER', $4, $4 FROM unnest($1::uuid[], $2::text[], $3::text[]) AS u(id, email, name)`,
      [userIds, userIds.map((_, i) => `${o.slug}-user-${number(i)}@bench.invalid`), userIds.map((_, i) => `Bench participant ${number(i)}`), opensAt],
    );
    await client.query(`INSERT INTO teams (id, name, created_at) SELECT t.id, t.name, $3 FROM unnest($1::uuid[], $2::text[]) AS t(id, name)`, [teamIds, teamNames, opensAt]);
    await client.query(`INSERT INTO team_members (team_id, user_id, role) SELECT m.t, m.u, 'OWNER' FROM unnest($1::uuid[], $2::uuid[]) AS m(t, u)`, [teamIds, userIds]);
    await client.query(`INSERT INTO task_participants (task_id, user_id, team_id) SELECT $1::uuid, p.u, p.t FROM unnest($2::uuid[], $3::uuid[]) AS p(u, t)`, [taskId, userIds, teamIds]);
    log(`wrote the task, its phase, dataset and gold key, and ${o.teams} teams`);

    // Every version's DocumentScore rows, once: a run's rows are expanded from its choices.
    await client.query(
      `CREATE TEMPORARY TABLE bench_document_rows (version int, doc int, document text, metric text, rn float8, rd float8, pn float8, pd float8) ON COMMIT DROP`,
    );
    const versionRows = m.documentRows.flatMap((byDoc, v) => byDoc.flatMap((rows, d) => rows.map((row) => ({ v, d, ...row }))));
    await client.query(
      `INSERT INTO bench_document_rows SELECT * FROM unnest($1::int[], $2::int[], $3::text[], $4::text[], $5::float8[], $6::float8[], $7::float8[], $8::float8[])`,
      [versionRows.map((x) => x.v), versionRows.map((x) => x.d), versionRows.map((x) => x.document), versionRows.map((x) => x.metric), versionRows.map((x) => x.recallNum), versionRows.map((x) => x.recallDen), versionRows.map((x) => x.precisionNum), versionRows.map((x) => x.precisionDen)],
    );

    const evaluation = JSON.stringify({ ...runEvaluation(taskEvaluationProfile(TASK_EVALUATION)), datasets: [{ id: datasetId, name: "main", goldVersion: 1, missing: false }] });
    const flush = async (b: Batch): Promise<void> => {
      await client.query(
        `INSERT INTO submissions (id, phase_id, team_id, submitter_id, system_name, description, file_name, sha256, size, status, attempts,
                                  gold_version, scorer_version, evaluation, warnings, is_baseline, visibility, created_at, started_at, worker_id, heartbeat_at, scored_at)
         SELECT s.id, $1::uuid, s.team, s.submitter, s.system, '', s.file_name, s.sha, s.size, 'SCORED', 1,
                1, $2, $3::jsonb, '[]'::jsonb, false, 'PUBLIC', s.created, s.started, 'bench-seed:0', s.scored, s.scored
           FROM unnest($4::uuid[], $5::uuid[], $6::uuid[], $7::text[], $8::text[], $9::text[], $10::int[], $11::timestamptz[], $12::timestamptz[], $13::timestamptz[])
                AS s(id, team, submitter, system, file_name, sha, size, created, started, scored)`,
        [phaseId, SCORER_VERSION, evaluation, b.sub.id, b.sub.team, b.sub.submitter, b.sub.system, b.sub.fileName, b.sub.sha, b.sub.size, b.sub.created, b.sub.started, b.sub.scored],
      );
      // Files: bytea parameters (sent as binary), many rows per statement.
      for (let i = 0; i < b.files.length; i += 500) {
        const part = b.files.slice(i, i + 500);
        const values: unknown[] = [phaseId, datasetId, goldKeyId];
        const rows = part.map((f, k) => {
          values.push(f.id, f.fileName, f.sha, f.gzip, f.size);
          const p = 4 + k * 5;
          return `($${p}::uuid, $1::uuid, $2::uuid, $${p + 1}, $${p + 2}, $${p + 3}::bytea, $${p + 4}::int, $3::uuid)`;
        });
        await client.query(`INSERT INTO submission_files (submission_id, phase_id, dataset_id, file_name, sha256, gzip, size, gold_key_id) VALUES ${rows.join(", ")}`, values);
      }
      const s = b.score;
      const scoreColumns = [s.sub, s.metric, s.rn, s.rd, s.pn, s.pd, s.r, s.p, s.f1];
      // `unnest` of the score columns, its parameters numbered from `first`.
      const scoreSelect = (first: number) =>
        `FROM unnest(${["uuid", "text", "float8", "float8", "float8", "float8", "float8", "float8", "float8"].map((t, k) => `$${first + k}::${t}[]`).join(", ")})
              AS r(sub, metric, rn, rd, pn, pd, rc, pc, f1)`;
      await client.query(
        `INSERT INTO scores (submission_id, phase_id, variant, metric, recall_num, recall_den, precision_num, precision_den, recall, precision, f1)
         SELECT r.sub, $1::uuid, '', r.metric, r.rn, r.rd, r.pn, r.pd, r.rc, r.pc, r.f1 ${scoreSelect(2)}`,
        [phaseId, ...scoreColumns],
      );
      await client.query(
        `INSERT INTO dataset_scores (submission_id, phase_id, dataset_id, variant, metric, recall_num, recall_den, precision_num, precision_den, recall, precision, f1)
         SELECT r.sub, $1::uuid, $2::uuid, '', r.metric, r.rn, r.rd, r.pn, r.pd, r.rc, r.pc, r.f1 ${scoreSelect(3)}`,
        [phaseId, datasetId, ...scoreColumns],
      );
      await client.query(
        `INSERT INTO document_scores (submission_id, dataset_id, document, metric, recall_num, recall_den, precision_num, precision_den)
         SELECT c.sub, $1::uuid, t.document, t.metric, t.rn, t.rd, t.pn, t.pd
           FROM unnest($2::uuid[], $3::int[], $4::int[]) AS c(sub, doc, version)
           JOIN bench_document_rows t ON t.version = c.version AND t.doc = c.doc`,
        [datasetId, b.doc.sub, b.doc.doc, b.doc.version],
      );
      const a = b.analysis;
      await client.query(
        `INSERT INTO run_analyses (submission_id, dataset_id, error_counts, document_errors, pronoun_disclosure, created_at)
         SELECT r.sub, $1::uuid, r.e::jsonb, r.d::jsonb, r.p::jsonb, r.at
           FROM unnest($2::uuid[], $3::text[], $4::text[], $5::text[], $6::timestamptz[]) AS r(sub, e, d, p, at)`,
        [datasetId, a.sub, a.errors, a.documents, a.disclosure, b.sub.scored],
      );
    };

    // JavaScript builds a batch while Postgres writes the previous one: the loop yields now
    // and then so that the client can send the next statement as soon as one is done.
    const conllOf = new Map<string, number>();
    let documentRows = 0;
    let batch = emptyBatch();
    let writing: Promise<void> = Promise.resolve();
    const send = async () => {
      await writing;
      const full = batch;
      batch = emptyBatch();
      writing = flush(full);
      writing.catch(() => undefined); // awaited (and thrown) at the next send or at the end
    };
    for (let i = 0; i < runs.length; i++) {
      const run = runs[i];
      const fileName = `lab${number(run.team)}-run${run.index + 1}.conll`;
      const report = assembleReport(m.plan, { readerWarnings: [...m.key.warnings], scored: run.choice.map((v, d) => m.scored[v][d]), responseOnly: [], responseFile: fileName });
      const analysis = analysisRow(combinedAnalysis(run.choice.map((v, d) => m.analyses[v][d])));
      const hash = createHash("sha256");
      let size = 0;
      for (let d = 0; d < run.choice.length; d++) {
        const text = m.texts[run.choice[d]][d];
        hash.update(text);
        size += text.byteLength;
      }
      const sha = hash.digest("hex");
      const startedAt = new Date(run.createdAt.getTime() + 400 + r.int(0, 4000));
      const scoredAt = new Date(startedAt.getTime() + 800 + r.int(0, 3000));
      const b = batch;
      b.sub.id.push(run.id);
      b.sub.team.push(teamIds[run.team]);
      b.sub.submitter.push(userIds[run.team]);
      b.sub.system.push(systemName(run));
      b.sub.fileName.push(fileName);
      b.sub.sha.push(sha);
      b.sub.size.push(size);
      b.sub.created.push(run.createdAt.toISOString());
      b.sub.started.push(startedAt.toISOString());
      b.sub.scored.push(scoredAt.toISOString());
      b.files.push({ id: run.id, fileName, sha, gzip: Buffer.concat(run.choice.map((v, d) => m.gzips[v][d])), size });
      for (const row of scoreRows(report)) {
        b.score.sub.push(run.id);
        b.score.metric.push(row.metric);
        b.score.rn.push(row.recallNum);
        b.score.rd.push(row.recallDen);
        b.score.pn.push(row.precisionNum);
        b.score.pd.push(row.precisionDen);
        b.score.r.push(row.recall);
        b.score.p.push(row.precision);
        b.score.f1.push(row.f1);
        if (row.metric === "conll") conllOf.set(run.id, row.f1);
      }
      run.choice.forEach((v, d) => {
        b.doc.sub.push(run.id);
        b.doc.doc.push(d);
        b.doc.version.push(v);
        documentRows += m.documentRows[v][d].length;
      });
      b.analysis.sub.push(run.id);
      b.analysis.errors.push(JSON.stringify(analysis.errorCounts));
      b.analysis.documents.push(JSON.stringify(analysis.documentErrors));
      b.analysis.disclosure.push(JSON.stringify(analysis.pronounDisclosure));
      if (b.sub.id.length >= o.batchSize) {
        await send();
        if ((i + 1) % (o.batchSize * 8) === 0) log(`wrote ${i + 1 - o.batchSize} of ${runs.length} runs`);
      }
      if (i % 16 === 15) await new Promise((resolve) => setImmediate(resolve));
    }
    if (batch.sub.id.length > 0) await send();
    await writing;
    await client.query("COMMIT");
    open = false;
    await client.query("ANALYZE");
    log(`wrote ${runs.length} runs (${documentRows.toLocaleString("en")} document score rows) and analyzed the tables`);

    // The BEST board as the ranking makes it: each team's best run (ties: the earlier one), best first.
    const best = new Map<number, PlannedRun>();
    for (const run of runs) {
      const current = best.get(run.team);
      const f = conllOf.get(run.id)!;
      if (!current || f > conllOf.get(current.id)! || (f === conllOf.get(current.id)! && run.createdAt < current.createdAt)) best.set(run.team, run);
    }
    const board = [...best.values()].sort((x, y) => conllOf.get(y.id)! - conllOf.get(x.id)! || x.createdAt.getTime() - y.createdAt.getTime() || (x.id < y.id ? -1 : 1));
    const seeded = (i: number): SeededRun => {
      const run = board[i];
      return { submissionId: run.id, teamId: teamIds[run.team], teamName: teamNames[run.team], systemName: systemName(run), conllF1: conllOf.get(run.id)!, boardIndex: i };
    };
    const middle = Math.floor((board.length - 1) / 2);
    const midRun = seeded(middle);
    const compare = { a: midRun, b: seeded(Math.min(board.length - 1, middle + 1)) };
    const documentIds = m.key.documents.map((d) => d.id);
    const documentView = { submissionId: midRun.submissionId, document: documentIds[0] };
    const enc = encodeURIComponent;
    return {
      taskId,
      slug: o.slug,
      title,
      phaseId,
      datasetId,
      goldKeyId,
      organizerId,
      teams: o.teams,
      runs: runs.length,
      documents: o.documents,
      documentScoreRows: documentRows,
      documentIds,
      midRun,
      compare,
      documentView,
      paths: {
        leaderboard: `/tasks/${enc(o.slug)}/phases/${enc(phaseId)}/leaderboard`,
        leaderboardJson: `/api/v1/phases/${enc(phaseId)}/leaderboard`,
        submission: `/submissions/${enc(midRun.submissionId)}`,
        compare: `/compare?a=${enc(compare.a.submissionId)}&b=${enc(compare.b.submissionId)}`,
        document: `/submissions/${enc(documentView.submissionId)}/documents/${enc(documentView.document)}`,
      },
      seconds: (performance.now() - started) / 1000,
    };
  } catch (error) {
    if (open) await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    await own?.end();
  }
}

/** Lower-case hex sha256. */
function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}
