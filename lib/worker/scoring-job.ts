/**
 * Scoring one submission: the body of a `score-submission` job. Every status change goes
 * through `lib/submission-states.ts`, which documents the claim and its guard.
 *
 * 1. **Claim.** One UPDATE moves the row QUEUED → SCORING (or takes over a SCORING row
 *    whose worker went silent), records the worker id, `started_at` and `heartbeat_at`, and
 *    increments `attempts`. A job whose claim finds nothing to do (already SCORED, FAILED,
 *    or held by a live worker) returns `SKIPPED`: pg-boss delivering a job twice can never
 *    score a submission twice. While the job runs, the worker refreshes the heartbeat
 *    (`lib/worker/worker.ts`).
 * 2. **Load** the phase's active gold key, the submission file (checksums verified) and the
 *    task's evaluation profile (`taskEvaluationProfile`, `lib/evaluation.ts`): the primary
 *    setting and its secondary variants (for `crac`: partial, exact, head with singletons).
 *    The gold key is CorefUD when its file name ends in `.conllu` (`detectFormat`); each
 *    setting becomes `evaluate` options by `evaluateOptionsFor` (mapped cluster F, when the
 *    task asks for it, on the primary setting only).
 * 3. **Score** in a warm thread of the scoring pool (`scoring-pool.ts`), with the wall-clock
 *    limit `SCORING_TIMEOUT_MS` and the heap cap `SCORING_MAX_MEMORY_MB`: `evaluate` is
 *    synchronous CPU work and could not be interrupted on the main thread. The thread reads
 *    both files once and evaluates every setting; the limits cover all of it.
 * 4. **Finish**, in one transaction: the row goes SCORING → SCORED only if it is still held
 *    by this claim, and the old Score/DocumentScore/RunAnalysis rows are replaced: Score rows
 *    of the primary setting (`variant` "") and of each variant (`variant` = its id, corpus
 *    level only), DocumentScore rows of the primary setting, the RunAnalysis, and on the
 *    submission `evaluation` (`runEvaluation(profile)`) and `warnings` (the primary report's
 *    warnings about the response). A stale worker that wakes up late finds the claim gone and
 *    writes nothing.
 *
 * Failures (`finishClaim` deletes the run's old results and clears `evaluation` and `warnings`):
 * - the submission does not parse, does not fit the key (CorefUD: other sentences or words),
 *   or is in another format than the key → FAILED, stage `validation`, with the location when
 *   there is one;
 * - over the time or memory limit → FAILED, stage `scoring` (the thread is replaced; the
 *   worker process lives on);
 * - no active gold key, a gold key that does not parse, a profile the gold key cannot be
 *   scored with (partial or head match on a key without heads: `evaluate`'s RangeError, whose
 *   message is passed on), a damaged stored file, a scorer bug → FAILED, stage `platform`
 *   (platform failures do not consume quota);
 * - the claim taken away while scoring (the `signal` aborts with a {@link LostClaimError})
 *   → `SKIPPED`, nothing written;
 * - anything else (database, network: infrastructure) → the row goes back to QUEUED and the
 *   error is rethrown so that pg-boss retries with backoff; on the job's last retry the row
 *   ends FAILED, stage `platform`, instead.
 */
import { readFileSync } from "node:fs";
import { getPrisma, type PrismaClient } from "../db/client";
import type { Prisma } from "../generated/prisma/client";
import { evaluateOptionsFor, runEvaluation, taskEvaluationProfile, type EvaluationProfile, type RunEvaluation } from "../evaluation";
import type { Tx } from "../services/db";
import { findActiveGold } from "../services/gold";
import { BLANC_COREF, BLANC_NONCOREF, scoreRowsFromJson, type DocumentScoreRowLike, type ScoreRowData } from "../services/scores";
import { COUNT_METRIC_NAMES } from "../validations/metrics";
import { unpackFile } from "../storage";
import { claimSubmission, ErrorStage, finishClaim, releaseClaim, type Claim } from "../submission-states";
import { scoringConfig, type ScoringConfig } from "./config";
import { ScoringOutOfMemoryError, ScoringTimeoutError, sharedScoringPool, type ScoringPool } from "./scoring-pool";
import type { ThreadInput, ThreadResult } from "./scoring-thread";
import { metricsToJson, type Counts, type MetricScores, type Report, type Warning } from "../../scoring/index";
import type { RunAnalysisResult } from "../../scoring/analysis/index";
import { detectFormat } from "../../scoring/formats/index";

/** What {@link scoreSubmission} did. */
export type ScoreOutcome =
  /** `warnings`: how many warnings were stored with the run (`submissions.warnings`). */
  | { status: "SCORED"; submissionId: string; attempt: number; goldVersion: number; scorerVersion: string; warnings: number }
  | { status: "FAILED"; submissionId: string; attempt: number; errorStage: ErrorStage; errorMessage: string }
  /** Nothing done: the row was not claimable (`reason` says why), or the claim was lost. */
  | { status: "SKIPPED"; submissionId: string; reason: string };

/** Options of {@link scoreSubmission}. */
export interface ScoreOptions {
  /** The claiming worker, `host:pid` (recorded on the row; part of the claim). */
  workerId: string;
  /** Defaults to the shared client (`getPrisma()`). */
  prisma?: PrismaClient;
  /** Defaults to `scoringConfig()` (environment). */
  config?: ScoringConfig;
  /** Scoring threads; defaults to the process-wide pool for `config.maxMemoryMb`. */
  pool?: ScoringPool;
  /** Called once the row is claimed (the worker starts heartbeating the claim). */
  onClaim?: (claim: Claim) => void;
  /**
   * Aborting stops the scoring thread. Reason {@link ClaimLostError}: the claim was taken
   * away, the job ends SKIPPED. Any other reason (worker shutdown): the row goes back to
   * QUEUED and the reason is thrown.
   */
  signal?: AbortSignal;
  /** True on the job's last pg-boss retry: an infrastructure error then ends FAILED `platform`. */
  finalAttempt?: boolean;
}

/** The abort reason a worker gives a job whose claim its heartbeat found gone. */
export class ClaimLostError extends Error {
  constructor(submissionId: string) {
    super(`the claim on submission ${submissionId} was taken away (re-queued as stale, or by a new gold key)`);
    this.name = "ClaimLostError";
  }
}

/** The scorer version recorded with every score: `version` from package.json. */
export const SCORER_VERSION: string = (() => {
  const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version?: string };
  return pkg.version ?? "0.0.0";
})();

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
 * @param options `workerId`; `prisma`, `config`, `pool`, `onClaim`, `signal`, `finalAttempt`
 * @returns SCORED or FAILED for the claim this call made, or SKIPPED when it made none or
 *   lost it
 * @throws on infrastructure errors (after putting the row back to QUEUED, or FAILED on the
 *   final attempt), and the signal's reason when `signal` aborts for anything but a lost
 *   claim (row back to QUEUED)
 */
export async function scoreSubmission(submissionId: string, options: ScoreOptions): Promise<ScoreOutcome> {
  const prisma = options.prisma ?? getPrisma();
  const config = options.config ?? scoringConfig();
  const claimed = await claimSubmission(prisma, submissionId, options.workerId, config);
  if (!claimed.claimed) return { status: "SKIPPED", submissionId, reason: claimed.reason };
  const { claim } = claimed;
  const attempt = claim.attempts;
  options.onClaim?.(claim);
  const claimLost = () => options.signal?.aborted === true && options.signal.reason instanceof ClaimLostError;

  try {
    if (config.testDelayMs > 0) await sleep(config.testDelayMs, options.signal);
    options.signal?.throwIfAborted();
    let result: Scored;
    try {
      result = await loadAndScore(prisma, submissionId, config, options.pool ?? sharedScoringPool(config.maxMemoryMb), options.signal);
    } catch (error) {
      if (!(error instanceof ScoringFailure)) throw error;
      const finish = { status: "FAILED", stage: error.stage, message: error.message, location: error.location } as const;
      if (!(await finishClaim(prisma, claim, finish))) return { status: "SKIPPED", submissionId, reason: "claim lost before the failure was recorded" };
      return { status: "FAILED", submissionId, attempt, errorStage: error.stage, errorMessage: error.message };
    }
    if (!(await writeScores(prisma, claim, result))) return { status: "SKIPPED", submissionId, reason: "claim lost before the scores were written" };
    return {
      status: "SCORED",
      submissionId,
      attempt,
      goldVersion: result.goldVersion,
      scorerVersion: SCORER_VERSION,
      warnings: result.warnings.length,
    };
  } catch (error) {
    if (claimLost()) return { status: "SKIPPED", submissionId, reason: "claim lost while scoring" };
    // Infrastructure error or shutdown: give the submission back, then let pg-boss retry.
    const aborted = options.signal?.aborted === true;
    let recorded = false;
    if (options.finalAttempt && !aborted) {
      const finish = {
        status: "FAILED",
        stage: ErrorStage.platform,
        message:
          "Scoring failed repeatedly because of a problem on the platform (not with your file). This does not count against your submission limit; the organizers can re-queue it.",
        location: null,
      } as const;
      recorded = await finishClaim(prisma, claim, finish).catch(() => false);
    }
    // If that did not work either, the database is unreachable: the row stays SCORING and
    // the reconciler re-queues it once its heartbeat is stale.
    if (!recorded) await releaseClaim(prisma, claim).catch(() => undefined);
    throw error;
  }
}

/** What the scoring thread produced, with which gold key version and which evaluation. */
interface Scored {
  /** the primary setting's report */
  report: Report;
  /** each secondary variant's corpus scores */
  variants: { id: string; metrics: MetricScores }[];
  /** the warnings stored with the run */
  warnings: Warning[];
  analysis: RunAnalysisResult;
  goldVersion: number;
  evaluation: RunEvaluation;
}

/** Loads gold and file, runs a scoring thread. Throws ScoringFailure for data/limit problems. */
async function loadAndScore(
  prisma: PrismaClient,
  submissionId: string,
  config: ScoringConfig,
  pool: ScoringPool,
  signal: AbortSignal | undefined,
): Promise<Scored> {
  const submission = await prisma.submission.findUniqueOrThrow({
    where: { id: submissionId },
    select: {
      fileName: true,
      sha256: true,
      gzip: true,
      phase: {
        select: {
          id: true,
          name: true,
          task: {
            select: {
              evaluationProfile: true,
              mentionMatching: true,
              keepSingletons: true,
              zeroMatching: true,
              mappedClusterF: true,
              pronounLexicon: true,
            },
          },
        },
      },
    },
  });
  const gold = await findActiveGold(submission.phase.id, prisma);
  if (!gold) {
    throw new ScoringFailure(
      ErrorStage.platform,
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
  const task = submission.phase.task;
  const profile = taskEvaluationProfile(task);
  const input = threadInput(profile, { keyBytes, keyFile: gold.fileName, responseBytes, responseFile: submission.fileName }, task);
  // The limits hold for the whole thread task; with variants it scores the run more than once.
  const settings = 1 + input.variants.length;
  const allSettings = settings > 1 ? ` The limit covers scoring the file under all ${settings} settings of this task's evaluation profile.` : "";
  let result: ThreadResult;
  try {
    result = await pool.run(input, { timeoutMs: config.timeoutMs, signal });
  } catch (error) {
    if (error instanceof ScoringTimeoutError) {
      throw new ScoringFailure(
        ErrorStage.scoring,
        `Scoring took longer than the limit of ${formatDuration(config.timeoutMs)} and was stopped.${allSettings} Check that the file is a system output for this phase's documents (not much larger than the test set); if it is, tell the organizers.`,
      );
    }
    if (error instanceof ScoringOutOfMemoryError) {
      throw new ScoringFailure(
        ErrorStage.scoring,
        `Scoring needs more than ${error.maxMemoryMb} MB of memory, the limit for one run, and was stopped.${allSettings} Check that the file is a system output for this phase's documents (not much larger than the test set); if it is, tell the organizers.`,
      );
    }
    throw error;
  }
  switch (result.kind) {
    case "report":
      return {
        report: result.report,
        variants: result.variants,
        warnings: result.warnings,
        analysis: result.analysis,
        goldVersion: gold.version,
        evaluation: runEvaluation(profile),
      };
    case "settings":
      // The task's profile cannot score its gold key (organizer's set-up, not the team's file).
      console.error(`scoring: submission ${submissionId}: the ${profile.name} evaluation profile cannot score gold key v${gold.version}: ${result.message}`);
      throw new ScoringFailure(
        ErrorStage.platform,
        `This task's evaluation profile cannot score the phase's gold key (version ${gold.version}): ${result.message}. The organizers must upload the gold key as CorefUD CoNLL-U (.conllu) or choose another evaluation profile for the task. This is not a problem with your file and does not count against your submission limit.`,
      );
    case "response-mismatch":
      throw new ScoringFailure(ErrorStage.validation, `Your file could not be scored: ${result.message}`);
    case "key-format":
      // Where the gold key is broken is a fact about the gold: it goes to the operators' log,
      // not to the submitting team.
      console.error(`scoring: submission ${submissionId}: gold key v${gold.version} does not parse at line ${result.line}, column ${result.column}`);
      throw new ScoringFailure(
        ErrorStage.platform,
        `The active gold key (version ${gold.version}) could not be read. The organizers must fix it and upload it again. This does not count against your submission limit.`,
      );
    case "response-format":
      throw new ScoringFailure(ErrorStage.validation, `Your file could not be read: ${result.message}`, { ...result.location, excerpt: result.excerpt });
    case "internal":
      console.error(`scoring: submission ${submissionId}: internal scorer error: ${result.message}`);
      throw new ScoringFailure(
        ErrorStage.platform,
        "The scorer hit an internal error on this submission. This is a bug in the platform, not a problem with your file, and does not count against your submission limit. Please tell the organizers.",
      );
  }
}

/**
 * The scoring thread's input: the files, and the `evaluate` options of every setting of
 * `profile` for this gold key (CorefUD when its name ends in `.conllu`).
 *
 * @param profile the task's evaluation profile (`taskEvaluationProfile`)
 * @param files the uncompressed gold key and response with their file names
 * @param task `mappedClusterF` (primary setting only) and `pronounLexicon`
 * @returns plain data (structured-cloned into the thread)
 */
export function threadInput(
  profile: EvaluationProfile,
  files: Pick<ThreadInput, "keyBytes" | "keyFile" | "responseBytes" | "responseFile">,
  task: { mappedClusterF: boolean; pronounLexicon: string | null },
): ThreadInput {
  const corefud = detectFormat(files.keyFile) === "conllu";
  return {
    ...files,
    primary: evaluateOptionsFor(profile.primary, corefud, { mappedClusterF: task.mappedClusterF }),
    variants: profile.variants.map((v) => ({ id: v.id, options: evaluateOptionsFor(v.preset, corefud) })),
    pronounLexicon: task.pronounLexicon,
  };
}

/** A stored file's bytes (checksum verified), or a `platform` ScoringFailure with `message`. */
function unpackOrFail(stored: { gzip: Uint8Array; sha256: string }, message: string): Buffer {
  try {
    return unpackFile(stored.gzip, stored.sha256);
  } catch {
    throw new ScoringFailure(ErrorStage.platform, message);
  }
}

/**
 * The Score rows for one setting's corpus scores, one per stored metric name: the score JSON
 * (`metricsToJson`) flattened by `scoreRowsFromJson` (every count metric present, optional ones
 * included, and `blanc_coref`/`blanc_noncoref` with exact counts and fractions; `blanc` with
 * fractions only; `conll` with F1 only). `scoresToJson` reads them back. Fractions are in [0, 1].
 *
 * @param scored a report from `evaluate`, or a variant's `{ metrics }`
 * @param variant `""` (default) for the profile's primary setting, else the variant's id
 * @returns the rows without submission and phase ids (metrics the scores lack are absent)
 */
export function scoreRows(scored: { metrics: MetricScores }, variant = ""): ScoreRowData[] {
  return scoreRowsFromJson(metricsToJson(scored.metrics), variant);
}

/**
 * The DocumentScore rows for a report: per key document, one row per metric with counts (each
 * count metric present, optional ones included, then `blanc_coref` and `blanc_noncoref`).
 * `blanc` and `conll` have no counts of their own and follow from these rows
 * (`documentScoresToJson`).
 *
 * @param report from `evaluate`
 * @returns the rows without the submission id
 */
export function documentScoreRows(report: Report): DocumentScoreRowLike[] {
  const rows: DocumentScoreRowLike[] = [];
  for (const doc of report.perDocument) {
    for (const metric of COUNT_METRIC_NAMES) {
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

/** Only the four counts. */
function pick(c: Counts): Counts {
  return { recallNum: c.recallNum, recallDen: c.recallDen, precisionNum: c.precisionNum, precisionDen: c.precisionDen };
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

/**
 * SCORING → SCORED with the score rows (primary and variants), the per-document rows, the
 * analysis, the evaluation record and the warnings, in one transaction, only for this claim.
 */
function writeScores(prisma: PrismaClient, claim: Claim, scored: Scored): Promise<boolean> {
  const { submissionId, phaseId } = claim;
  const scores = [scoreRows(scored.report), ...scored.variants.map((v) => scoreRows(v, v.id))].flat().map((r) => ({ ...r, submissionId, phaseId }));
  const documents = documentScoreRows(scored.report).map((r) => ({ ...r, submissionId }));
  const analysis = { submissionId, ...analysisRow(scored.analysis) };
  return finishClaim(prisma, claim, { status: "SCORED", goldVersion: scored.goldVersion, scorerVersion: SCORER_VERSION }, async (tx) => {
    await tx.score.createMany({ data: scores });
    for (let i = 0; i < documents.length; i += 5000) {
      await tx.documentScore.createMany({ data: documents.slice(i, i + 5000) });
    }
    await tx.runAnalysis.create({ data: analysis });
    await recordEvaluation(tx, submissionId, scored.evaluation, scored.warnings);
  });
}

/**
 * Sets a scored run's `evaluation` and `warnings`, inside the finish transaction (after its
 * claim guard, and after `finishClaim` cleared the previous ones).
 */
async function recordEvaluation(tx: Tx, submissionId: string, evaluation: RunEvaluation, warnings: Warning[]): Promise<void> {
  await tx.submission.update({
    where: { id: submissionId },
    data: {
      evaluation: JSON.parse(JSON.stringify(evaluation)) as Prisma.InputJsonObject,
      warnings: JSON.parse(JSON.stringify(warnings)) as Prisma.InputJsonArray,
    },
  });
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
