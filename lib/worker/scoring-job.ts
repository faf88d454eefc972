/**
 * Scoring one submission: the body of a `score-submission` job.
 *
 * 1. **Claim.** One UPDATE moves the row QUEUED → SCORING (or re-claims a SCORING row whose
 *    worker went silent: `started_at` older than the stale threshold), sets `started_at` and
 *    increments `attempts`. The new (`attempts`, `started_at`) pair identifies this claim (both,
 *    because re-queueing resets `attempts` to 0 and a later claim can reach the same number). A job whose claim
 *    finds nothing to do (already SCORED, FAILED, or being scored by a live worker) returns
 *    `skipped`: pg-boss delivering a job twice can never score a submission twice.
 * 2. **Load** the phase's active gold key and the submission file (checksums verified).
 * 3. **Score** in a worker thread (`lib/scoring-thread.ts`) that is terminated after
 *    `SCORING_TIMEOUT_MS`: `evaluate` is synchronous CPU work and could not be interrupted
 *    on the main thread.
 * 4. **Write**, in one transaction: the row goes SCORING → SCORED only if it is still held
 *    by this claim (same `attempts` and `started_at`), the old Score/DocumentScore/RunAnalysis
 *    rows are replaced. A stale
 *    worker that wakes up late finds the claim gone and writes nothing.
 *
 * Failures:
 * - the submission does not parse → FAILED, stage `validation`, with the location;
 * - over the time or memory limit → FAILED, stage `scoring`;
 * - no active gold key, a gold key that does not parse, a damaged stored file, a scorer bug
 *   → FAILED, stage `platform` (platform failures do not consume quota);
 * - anything else (database, network: infrastructure) → the row goes back to QUEUED and the
 *   error is rethrown so that pg-boss retries with backoff; on the job's last retry the row
 *   ends FAILED, stage `platform`, instead.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { getPrisma, type PrismaClient } from "../db/client";
import { Prisma } from "../generated/prisma/client";
import type { Db, Tx } from "../services/db";
import { findActiveGold } from "../services/gold";
import { BLANC_COREF, BLANC_NONCOREF, type DocumentScoreRowLike, type ScoreRowLike } from "../services/scores";
import { unpackFile } from "../storage";
import { scoringConfig, type ScoringConfig } from "./config";
import type { ThreadInput, ThreadResult } from "./scoring-thread";
import { COUNT_METRICS, OPTIONAL_METRICS, toScore, type Counts, type Report, type Score } from "../../scoring/index";
import type { RunAnalysisResult } from "../../scoring/analysis/index";

/** Where a failed submission failed. The quota code does not count stage `platform`. */
export type ErrorStage = "validation" | "scoring" | "platform";

/** What {@link scoreSubmission} did. */
export type ScoreOutcome =
  | { status: "SCORED"; submissionId: string; attempt: number; goldVersion: number; scorerVersion: string; warnings: number }
  | { status: "FAILED"; submissionId: string; attempt: number; errorStage: ErrorStage; errorMessage: string }
  /** Nothing done: the row was not claimable (`reason` says why), or the claim was lost to the reconciler. */
  | { status: "SKIPPED"; submissionId: string; reason: string };

/** Options of {@link scoreSubmission}. */
export interface ScoreOptions {
  /** Names the worker in logs (e.g. `host:pid`). */
  workerId: string;
  /** Defaults to the shared client (`getPrisma()`). */
  prisma?: PrismaClient;
  /** Defaults to `scoringConfig()` (environment). */
  config?: ScoringConfig;
  /** Aborting (worker shutdown) stops the scoring thread and puts the row back to QUEUED. */
  signal?: AbortSignal;
  /** True on the job's last pg-boss retry: an infrastructure error then ends FAILED `platform`. */
  finalAttempt?: boolean;
}

/** The scorer version recorded with every score: `version` from package.json. */
export const SCORER_VERSION: string = (() => {
  const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version?: string };
  return pkg.version ?? "0.0.0";
})();

/** Thrown inside the write transaction when the claim is gone; rolls it back. */
class LostClaimError extends Error {}

/** A data or limit problem that ends the submission FAILED (not retried). */
class ScoringFailure extends Error {
  constructor(
    readonly stage: ErrorStage,
    message: string,
    readonly location: Record<string, unknown> | null = null,
  ) {
    super(message);
  }
}

/**
 * Scores one submission (see the file comment for the steps and the failure policy).
 *
 * @param submissionId the submission's id
 * @param options `workerId` for logs; `prisma`, `config`, `signal`, `finalAttempt`
 * @returns SCORED or FAILED for the claim this call made, or SKIPPED when it made none
 * @throws on infrastructure errors (after putting the row back to QUEUED, or FAILED on the
 *   final attempt), and an `AbortError` when `signal` aborts (row back to QUEUED)
 */
export async function scoreSubmission(submissionId: string, options: ScoreOptions): Promise<ScoreOutcome> {
  const prisma = options.prisma ?? getPrisma();
  const config = options.config ?? scoringConfig();
  const claimed = await claim(prisma, submissionId, config.staleAfterMs);
  if (typeof claimed === "string") return { status: "SKIPPED", submissionId, reason: claimed };
  const attempt = claimed.attempts;
  const token: ClaimToken = { attempts: claimed.attempts, startedAt: claimed.startedAt };

  try {
    if (config.testDelayMs > 0) await sleep(config.testDelayMs, options.signal);
    options.signal?.throwIfAborted();
    let result: Scored;
    try {
      result = await loadAndScore(prisma, submissionId, config, options.signal);
    } catch (error) {
      if (!(error instanceof ScoringFailure)) throw error;
      const written = await writeFailure(prisma, submissionId, token, error.stage, error.message, error.location);
      if (!written) return { status: "SKIPPED", submissionId, reason: "claim lost before the failure was recorded" };
      return { status: "FAILED", submissionId, attempt, errorStage: error.stage, errorMessage: error.message };
    }
    const written = await writeScores(prisma, submissionId, claimed.phaseId, token, result);
    if (!written) return { status: "SKIPPED", submissionId, reason: "claim lost before the scores were written" };
    return {
      status: "SCORED",
      submissionId,
      attempt,
      goldVersion: result.goldVersion,
      scorerVersion: SCORER_VERSION,
      warnings: result.report.warnings.length,
    };
  } catch (error) {
    // Infrastructure error or shutdown: give the submission back, then let pg-boss retry.
    const aborted = options.signal?.aborted === true;
    let recorded = false;
    if (options.finalAttempt && !aborted) {
      recorded = await writeFailure(
        prisma,
        submissionId,
        token,
        "platform",
        "Scoring failed repeatedly because of a problem on the platform (not with your file). This does not count against your submission limit; the organizers can re-queue it.",
        null,
      ).catch(() => false);
    }
    // If that did not work either, the database is unreachable: the row stays SCORING and
    // the reconciler resets it once it is stale.
    if (!recorded) await release(prisma, submissionId, token).catch(() => undefined);
    throw error;
  }
}

/** Identifies one claim of a row: the guard of every later write. */
interface ClaimToken {
  attempts: number;
  /** `started_at` as Postgres prints it (round-trips exactly through `::timestamptz`) */
  startedAt: string;
}

/**
 * The claim UPDATE. Returns the claim (attempts, started_at) and the phase, or the reason
 * nothing was claimed.
 */
async function claim(
  prisma: PrismaClient,
  submissionId: string,
  staleAfterMs: number,
): Promise<(ClaimToken & { phaseId: string }) | string> {
  const rows = await prisma.$queryRaw<{ attempts: number; started_at: string; phase_id: string }[]>`
    UPDATE submissions
       SET status = 'SCORING', started_at = now(), attempts = attempts + 1
     WHERE id = ${submissionId}::uuid
       AND (status = 'QUEUED'
            OR (status = 'SCORING' AND (started_at IS NULL OR started_at < now() - ${staleAfterMs}::int * interval '1 millisecond')))
     RETURNING attempts, started_at::text, phase_id::text`;
  if (rows.length === 1) return { attempts: rows[0].attempts, startedAt: rows[0].started_at, phaseId: rows[0].phase_id };
  const row = await prisma.submission.findUnique({ where: { id: submissionId }, select: { status: true } });
  if (!row) return "no such submission";
  if (row.status === "SCORING") return "being scored by another worker";
  return `status is ${row.status}`;
}

/** What the scoring thread produced, and with which gold key version. */
interface Scored {
  report: Report;
  analysis: RunAnalysisResult;
  goldVersion: number;
}

/** Loads gold and file, runs the scoring thread. Throws ScoringFailure for data/limit problems. */
async function loadAndScore(
  prisma: PrismaClient,
  submissionId: string,
  config: ScoringConfig,
  signal: AbortSignal | undefined,
): Promise<Scored> {
  const submission = await prisma.submission.findUniqueOrThrow({
    where: { id: submissionId },
    select: {
      fileName: true,
      sha256: true,
      gzip: true,
      phase: { select: { id: true, name: true, task: { select: { keepSingletons: true, mappedClusterF: true, pronounLexicon: true } } } },
    },
  });
  const gold = await findActiveGold(submission.phase.id, prisma);
  if (!gold) {
    throw new ScoringFailure(
      "platform",
      `The phase "${submission.phase.name}" has no active gold key yet, so submissions cannot be scored. The organizers must upload a gold key; submissions are scored again when they do. This does not count against your submission limit.`,
    );
  }
  const keyBytes = unpackOrFail(
    gold,
    `The stored gold key (version ${gold.version}) is damaged. The organizers must upload it again. This does not count against your submission limit.`,
  );
  const responseBytes = unpackOrFail(
    submission,
    "The stored copy of your file is damaged (its checksum does not match). Please submit it again. This does not count against your submission limit.",
  );
  const result = await runThread(
    {
      keyBytes,
      keyFile: gold.fileName,
      responseBytes,
      responseFile: submission.fileName,
      removeSingletons: !submission.phase.task.keepSingletons,
      mappedClusterF: submission.phase.task.mappedClusterF,
      pronounLexicon: submission.phase.task.pronounLexicon,
    },
    config,
    signal,
  );
  switch (result.kind) {
    case "report":
      return { report: result.report, analysis: result.analysis, goldVersion: gold.version };
    case "key-format":
      // Where the gold key is broken is a fact about the gold: it goes to the operators' log,
      // not to the submitting team.
      console.error(`scoring: submission ${submissionId}: gold key v${gold.version} does not parse at line ${result.line}, column ${result.column}`);
      throw new ScoringFailure(
        "platform",
        `The active gold key (version ${gold.version}) could not be read. The organizers must fix it and upload it again. This does not count against your submission limit.`,
      );
    case "response-format":
      throw new ScoringFailure(
        "validation",
        `Your file could not be read: ${result.message}`,
        { ...result.location, excerpt: result.excerpt },
      );
    case "internal":
      console.error(`scoring: submission ${submissionId}: internal scorer error: ${result.message}`);
      throw new ScoringFailure(
        "platform",
        "The scorer hit an internal error on this submission. This is a bug in the platform, not a problem with your file, and does not count against your submission limit. Please tell the organizers.",
      );
  }
}

/** A stored file's bytes (checksum verified), or a `platform` ScoringFailure with `message`. */
function unpackOrFail(stored: { gzip: Uint8Array; sha256: string }, message: string): Buffer {
  try {
    return unpackFile(stored.gzip, stored.sha256);
  } catch {
    throw new ScoringFailure("platform", message);
  }
}

/** Runs `lib/scoring-thread.ts` with a wall-clock limit. */
function runThread(input: ThreadInput, config: ScoringConfig, signal: AbortSignal | undefined): Promise<ThreadResult> {
  signal?.throwIfAborted();
  return new Promise((resolve, reject) => {
    const worker = new Worker(threadBootstrap(), {
      eval: true,
      workerData: input,
      resourceLimits: config.maxMemoryMb ? { maxOldGenerationSizeMb: config.maxMemoryMb } : undefined,
      stdout: false,
      stderr: false,
    });
    let settled = false;
    const finish = (settle: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      void worker.terminate();
      settle();
    };
    const timer = setTimeout(
      () =>
        finish(() =>
          reject(
            new ScoringFailure(
              "scoring",
              `Scoring took longer than the limit of ${formatDuration(config.timeoutMs)} and was stopped. Check that the file is a system output for this phase's documents (not much larger than the test set); if it is, tell the organizers.`,
            ),
          ),
        ),
      config.timeoutMs,
    );
    const onAbort = () => finish(() => reject(signal?.reason ?? new Error("aborted")));
    signal?.addEventListener("abort", onAbort, { once: true });
    worker.once("message", (message: ThreadResult) => finish(() => resolve(message)));
    worker.once("error", (error: Error & { code?: string }) =>
      finish(() =>
        reject(
          error.code === "ERR_WORKER_OUT_OF_MEMORY"
            ? new ScoringFailure(
                "scoring",
                `Scoring ran out of memory${config.maxMemoryMb ? ` (limit ${config.maxMemoryMb} MB)` : ""} and was stopped. Check that the file is a system output for this phase's documents; if it is, tell the organizers.`,
              )
            : error,
        ),
      ),
    );
    worker.once("exit", (code) => finish(() => reject(new Error(`the scoring thread exited with code ${code} without a result`))));
  });
}

let bootstrap: string | undefined;

/**
 * Source of an eval'd worker that loads `scoring-thread.ts` through tsx's API (a `--import
 * tsx` in the worker's execArgv does not reach worker threads on Node 20).
 */
function threadBootstrap(): string {
  if (!bootstrap) {
    const thread = new URL("./scoring-thread.ts", import.meta.url).href;
    // The ESM build of tsx's API, found through tsx's package.json exports (its CommonJS
    // build cannot be import()ed from an ESM context).
    const tsxPackage = createRequire(import.meta.url).resolve("tsx/package.json");
    const exportsMap = (JSON.parse(readFileSync(tsxPackage, "utf8")) as { exports: Record<string, { import: { default: string } }> }).exports;
    const tsxApi = new URL(exportsMap["./esm/api"].import.default, pathToFileURL(tsxPackage)).href;
    bootstrap = `import(${JSON.stringify(tsxApi)}).then(({ tsImport }) => tsImport(${JSON.stringify(thread)}, ${JSON.stringify(thread)}));`;
  }
  return bootstrap;
}

/**
 * The Score rows for a report, one per metric: the count metrics (mentions, muc, bcub,
 * ceafm, ceafe, lea) and `blanc_coref`/`blanc_noncoref` with exact counts and fractions;
 * `blanc` with fractions only; `conll` with F1 only. Fractions are in [0, 1].
 *
 * @param report from `evaluate`
 * @returns the rows without submission and phase ids (metrics the report lacks are absent)
 */
export function scoreRows(report: Report): ScoreRowLike[] {
  const rows: ScoreRowLike[] = [];
  const m = report.metrics;
  const counted = (metric: string, s: Score): ScoreRowLike => ({ metric, ...pick(s), recall: s.recall, precision: s.precision, f1: s.f1 });
  const uncounted = { recallNum: null, recallDen: null, precisionNum: null, precisionDen: null };
  for (const metric of [...COUNT_METRICS, ...OPTIONAL_METRICS]) {
    const s = m[metric];
    if (s) rows.push(counted(metric, s));
  }
  if (m.blanc) {
    rows.push({ metric: "blanc", ...uncounted, recall: m.blanc.recall, precision: m.blanc.precision, f1: m.blanc.f1 });
    rows.push(counted(BLANC_COREF, toScore(m.blanc.coref)), counted(BLANC_NONCOREF, toScore(m.blanc.noncoref)));
  }
  if (m.conll) rows.push({ metric: "conll", ...uncounted, recall: null, precision: null, f1: m.conll.f1 });
  return rows;
}

/**
 * The DocumentScore rows for a report: per key document, one row per metric with counts
 * (mentions, muc, bcub, ceafm, ceafe, lea, blanc_coref, blanc_noncoref). `blanc` and `conll`
 * have no counts of their own and follow from these rows.
 *
 * @param report from `evaluate`
 * @returns the rows without the submission id
 */
export function documentScoreRows(report: Report): DocumentScoreRowLike[] {
  const rows: DocumentScoreRowLike[] = [];
  for (const doc of report.perDocument) {
    for (const metric of [...COUNT_METRICS, ...OPTIONAL_METRICS]) {
      const c = doc.counts[metric];
      if (c) rows.push({ document: doc.id, metric, ...pick(c) });
    }
    if (doc.counts.blanc) {
      rows.push({ document: doc.id, metric: BLANC_COREF, ...pick(doc.counts.blanc.coref) });
      rows.push({ document: doc.id, metric: BLANC_NONCOREF, ...pick(doc.counts.blanc.noncoref) });
    }
  }
  return rows;
}

/** Only the four counts (a Score also carries its fractions). */
function pick(c: Counts): Counts {
  return { recallNum: c.recallNum, recallDen: c.recallDen, precisionNum: c.precisionNum, precisionDen: c.precisionDen };
}

/** Interactive-transaction limits for the write (large corpora have many document rows). */
const WRITE_TX = { maxWait: 10_000, timeout: 120_000 };

/**
 * `UPDATE submissions SET <set>` for this claim only: the row must still be SCORING with
 * the claim's `attempts` and `started_at`.
 *
 * @returns the number of rows updated (1, or 0 when the claim is gone)
 */
function updateIfClaimed(db: Db, submissionId: string, claim: ClaimToken, set: Prisma.Sql): Promise<number> {
  return db.$executeRaw`
    UPDATE submissions SET ${set}
     WHERE id = ${submissionId}::uuid AND status = 'SCORING'
       AND attempts = ${claim.attempts} AND started_at = ${claim.startedAt}::timestamptz`;
}

/** SCORING → QUEUED, only for this claim. */
async function release(prisma: PrismaClient, submissionId: string, claim: ClaimToken): Promise<void> {
  await updateIfClaimed(prisma, submissionId, claim, Prisma.sql`status = 'QUEUED'`);
}

/**
 * Ends this claim in one transaction: `set` on the submission row (only while the claim
 * holds), the old Score/DocumentScore rows deleted, then `write` (new rows, if any).
 *
 * @returns true when written; false when the claim was gone (nothing written)
 */
async function finishClaim(
  prisma: PrismaClient,
  submissionId: string,
  claim: ClaimToken,
  set: Prisma.Sql,
  write: (tx: Tx) => Promise<void> = async () => {},
): Promise<boolean> {
  try {
    await prisma.$transaction(async (tx) => {
      if ((await updateIfClaimed(tx, submissionId, claim, set)) !== 1) throw new LostClaimError();
      await tx.score.deleteMany({ where: { submissionId } });
      await tx.documentScore.deleteMany({ where: { submissionId } });
      await tx.runAnalysis.deleteMany({ where: { submissionId } });
      await write(tx);
    }, WRITE_TX);
    return true;
  } catch (error) {
    if (error instanceof LostClaimError) return false;
    throw error;
  }
}

/**
 * The RunAnalysis row for a run's analyses (JSON columns).
 *
 * @param analysis from the scoring thread
 * @returns the error totals, the per-document error counts (`{document, counts}` in key
 *   order) and the per-pronoun-type disclosure counts
 */
export function analysisRow(analysis: RunAnalysisResult): { errorCounts: Prisma.InputJsonObject; documentErrors: Prisma.InputJsonArray; pronounDisclosure: Prisma.InputJsonObject } {
  return {
    errorCounts: { ...analysis.errors.totals },
    documentErrors: analysis.errors.perDocument.map((d) => ({ document: d.id, counts: { ...d.counts } })),
    pronounDisclosure: JSON.parse(JSON.stringify(analysis.disclosure)) as Prisma.InputJsonObject,
  };
}

/** SCORING → SCORED with the score rows and the analysis, in one transaction, only for this claim. */
async function writeScores(prisma: PrismaClient, submissionId: string, phaseId: string, claim: ClaimToken, scored: Scored): Promise<boolean> {
  const { report, goldVersion } = scored;
  const scores = scoreRows(report).map((r) => ({ ...r, submissionId, phaseId }));
  const documents = documentScoreRows(report).map((r) => ({ ...r, submissionId }));
  const analysis = { submissionId, ...analysisRow(scored.analysis) };
  const set = Prisma.sql`status = 'SCORED', scored_at = now(), gold_version = ${goldVersion}, scorer_version = ${SCORER_VERSION},
                         error_stage = NULL, error_message = NULL, error_location = NULL`;
  return finishClaim(prisma, submissionId, claim, set, async (tx) => {
    await tx.score.createMany({ data: scores });
    for (let i = 0; i < documents.length; i += 5000) {
      await tx.documentScore.createMany({ data: documents.slice(i, i + 5000) });
    }
    await tx.runAnalysis.create({ data: analysis });
  });
}

/** SCORING → FAILED, only for this claim; old scores are removed. */
async function writeFailure(
  prisma: PrismaClient,
  submissionId: string,
  claim: ClaimToken,
  stage: ErrorStage,
  message: string,
  location: Record<string, unknown> | null,
): Promise<boolean> {
  const locationJson = location === null ? null : JSON.stringify(location);
  const set = Prisma.sql`status = 'FAILED', scored_at = NULL, gold_version = NULL, scorer_version = NULL,
                         error_stage = ${stage}, error_message = ${message}, error_location = ${locationJson}::jsonb`;
  return finishClaim(prisma, submissionId, claim, set);
}

function formatDuration(ms: number): string {
  if (ms % 60_000 === 0) return `${ms / 60_000} minute${ms === 60_000 ? "" : "s"}`;
  return `${Math.round(ms / 100) / 10} seconds`;
}

/** Resolves after `ms`, or rejects when `signal` aborts. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    signal?.throwIfAborted();
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason ?? new Error("aborted"));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
