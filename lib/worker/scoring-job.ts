/**
 * Scoring one submission: the body of a `score-submission` job. Every status change goes
 * through `lib/submission-states.ts`, which documents the claim and its guard.
 *
 * 1. **Claim.** One UPDATE moves the row QUEUED → SCORING (or takes over a SCORING row
 *    whose worker went silent), records the worker id, `started_at` and `heartbeat_at`, and
 *    increments `attempts`. A job whose claim finds nothing to do (already SCORED, FAILED,
 *    or held by a live worker) returns `SKIPPED`: pg-boss delivering a job twice can never
 *    score a submission twice. A row whose team has another run SCORING under a live claim is
 *    not claimed: `DEFERRED`, the row stays QUEUED with its attempts (one run per team at a
 *    time, `claimSubmission`). While the job runs, the worker refreshes the heartbeat
 *    (`lib/worker/worker.ts`).
 * 2. **Load** the run's files (one SubmissionFile row per dataset it covers), the phase's
 *    datasets (`listDatasets`, in order), their active gold keys (`findActiveGoldKeys`) and
 *    the task's evaluation profile (`taskEvaluationProfile`, `lib/tasks/evaluation.ts`): the primary
 *    setting and its secondary variants (for `crac`: partial, exact, head with singletons).
 *    A dataset's gold key is CorefUD when its file name ends in `.conllu` (`detectFormat`);
 *    each setting becomes `evaluate` options by `evaluateOptionsFor` (mapped cluster F, when
 *    the task asks for it, on the primary setting only).
 * 3. **Decide per dataset** with an active gold key, in the phase's order. *Keep* its stored
 *    results when the file's `gold_key_id` is that gold key, the run has DatasetScore rows for
 *    it, and the run was last scored with this scorer version and the same profile settings:
 *    re-scoring runs only for the datasets whose gold changed (`requeueSubmissions` clears
 *    `gold_key_id` of the datasets that must be scored again). Else *score* the file, or, when
 *    the run has no file for the dataset, count it *missing* (no rows; 0 in the average).
 *    Datasets without an active gold key are left out of the average altogether.
 * 4. **Score** each file to score in a warm thread of the scoring pool (`scoring-pool.ts`), one
 *    `pool.run` per dataset, with the heap cap `SCORING_MAX_MEMORY_MB` per call and the
 *    wall-clock limit `SCORING_TIMEOUT_MS` for the WHOLE job (each call gets what is left):
 *    `evaluate` is synchronous CPU work and could not be interrupted on the main thread. The
 *    thread reads both files once and evaluates every setting.
 * 5. **Finish**, in one transaction (`finishClaim`, scoped to the datasets scored now): the row
 *    goes SCORING → SCORED only if it is still held by this claim; the old DatasetScore,
 *    DocumentScore and RunAnalysis rows of the datasets scored now and every phase-level Score
 *    row are deleted; for each dataset scored now its DatasetScore rows (primary setting,
 *    `variant` "", and each variant, corpus level), DocumentScore and RunAnalysis rows (primary
 *    setting) and the file's `gold_key_id`; then the phase-level Score rows from every graded
 *    dataset's rows, kept and new: a one-dataset phase copies its dataset's rows (counts
 *    included: as before datasets), a phase with several stores the macro-average
 *    (`macroScoreRows`: F1, recall and precision averaged over the graded datasets, a missing
 *    one counting 0; counts null). On the submission: `gold_version` (one-dataset phase; null
 *    for several), `evaluation` (`runEvaluation(profile)` plus `datasets`: each dataset's gold
 *    version and whether the run left it out) and `warnings` (the primary reports' warnings
 *    about the response, each tagged with its `dataset` name and, in a phase with several,
 *    prefixed with it; a kept dataset keeps its stored ones). A stale worker that wakes up
 *    late finds the claim gone and writes nothing.
 *
 * Failures (`finishClaim` deletes all the run's old results, of every dataset, resets its
 *   files' `gold_key_id` and clears `evaluation` and `warnings`):
 * - a dataset's file does not parse, does not fit the key (CorefUD: other sentences or words),
 *   or is in another format than the key → FAILED, stage `validation`, with the location when
 *   there is one (in a phase with several datasets the message starts "Dataset en_gum
 *   (en_gum-corefud-test.conllu): …" and the location names the `file` and the `dataset`);
 * - over the time or memory limit → FAILED, stage `scoring` (the thread is replaced; the
 *   worker process lives on);
 * - no active gold key (or none for any dataset the run has a file for), a gold key that does
 *   not parse (the log names the dataset), a profile the gold key cannot be
 *   scored with (partial or head match on a key without heads: `evaluate`'s RangeError, whose
 *   message is passed on), a damaged stored file, a scorer bug → FAILED, stage `platform`
 *   (platform failures do not consume quota);
 * - the claim taken away while scoring (the `signal` aborts with a {@link LostClaimError})
 *   → `SKIPPED`, nothing written;
 * - anything else (database, network: infrastructure) → the row goes back to QUEUED and the
 *   error is rethrown so that pg-boss retries with backoff; on the job's last retry the row
 *   ends FAILED, stage `platform`, instead.
 */
import { SCORER_VERSION } from "../scorer/version";
import { isDeepStrictEqual } from "node:util";
import { getPrisma, type PrismaClient } from "../db/client";
import type { Prisma } from "../generated/prisma/client";
import { evaluateOptionsFor, runEvaluation, taskEvaluationProfile, type EvaluationProfile, type RunEvaluation, listDatasets, type DatasetView, findActiveGoldKeys, type StoredGold } from "../tasks";
import type { Tx } from "../db";
import { BLANC_COREF, BLANC_NONCOREF, macroScoreRows, scoreRowsFromJson, type DocumentScoreRowLike, type ScoreRowData } from "../boards";
import { COUNT_METRIC_NAMES } from "../validations/metrics";
import { unpackFile } from "../storage";
import { claimSubmission, ErrorStage, finishClaim, releaseClaim, type Claim } from "../submission-states";
import { scoringBudget, scoringConfig, type ScoringBudget, type ScoringConfig } from "../scoring-config";
import { ScoringOutOfMemoryError, ScoringTimeoutError, sharedScoringPool, type ScoringPool } from "./scoring-pool";
import type { ThreadInput, ThreadResult } from "./scoring-thread";
import { metricsToJson, type Counts, type MetricScores, type Report, type Warning } from "../../scoring/index";
import type { RunAnalysisResult } from "../../scoring/analysis/index";
import { detectFormat } from "../../scoring/formats/index";

/** What {@link scoreSubmission} did. */
export type ScoreOutcome =
  /**
   * `goldVersion`: that of a one-dataset phase, null for several datasets; `warnings`: how many
   * warnings were stored with the run (`submissions.warnings`); `datasets`: how many of the
   * phase's graded datasets were scored now, kept (same gold key as before) and missing (no file).
   */
  | {
      status: "SCORED";
      submissionId: string;
      attempt: number;
      goldVersion: number | null;
      scorerVersion: string;
      warnings: number;
      datasets: { scored: number; kept: number; missing: number };
    }
  | { status: "FAILED"; submissionId: string; attempt: number; errorStage: ErrorStage; errorMessage: string }
  /** Nothing done: the row was not claimable (`reason` says why), or the claim was lost. */
  | { status: "SKIPPED"; submissionId: string; reason: string }
  /**
   * Nothing done yet: the row stays QUEUED (`attempts` unchanged) because its team's run
   * `busyWith` is being scored (one run per team at a time, `claimSubmission`). The run is
   * enqueued again when that one ends (`enqueueTeamNext` in `reconciler.ts`).
   */
  | { status: "DEFERRED"; submissionId: string; reason: string; busyWith: string };

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

export { SCORER_VERSION };

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
 * @returns SCORED or FAILED for the claim this call made, SKIPPED when it made none or
 *   lost it, DEFERRED when its team's other run is being scored
 * @throws on infrastructure errors (after putting the row back to QUEUED, or FAILED on the
 *   final attempt), and the signal's reason when `signal` aborts for anything but a lost
 *   claim (row back to QUEUED)
 */
export async function scoreSubmission(submissionId: string, options: ScoreOptions): Promise<ScoreOutcome> {
  const prisma = options.prisma ?? getPrisma();
  const config = options.config ?? scoringConfig();
  const claimed = await claimSubmission(prisma, submissionId, options.workerId, config);
  if (!claimed.claimed) {
    if (claimed.busyWith) return { status: "DEFERRED", submissionId, reason: claimed.reason, busyWith: claimed.busyWith };
    return { status: "SKIPPED", submissionId, reason: claimed.reason };
  }
  const { claim } = claimed;
  const attempt = claim.attempts;
  options.onClaim?.(claim);
  const claimLost = () => options.signal?.aborted === true && options.signal.reason instanceof ClaimLostError;

  try {
    if (config.testDelayMs > 0 && (await testDelayApplies(prisma, submissionId, config))) await sleep(config.testDelayMs, options.signal);
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
      datasets: { scored: result.rescored.length, kept: result.kept.length, missing: result.missing.length },
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

/** Whether the test delay (`COREFBOARD_TEST_SCORE_DELAY_MS`) applies to this run: to every run, or only to those of `testDelaySystem`. */
async function testDelayApplies(prisma: PrismaClient, submissionId: string, config: ScoringConfig): Promise<boolean> {
  if (config.testDelaySystem === undefined) return true;
  const row = await prisma.submission.findUnique({ where: { id: submissionId }, select: { systemName: true } });
  return row?.systemName === config.testDelaySystem;
}

/** A stored warning (`submissions.warnings`): the scorer's {@link Warning} and the name of the dataset it is about. */
export type StoredWarning = Warning & { dataset?: string };

/** One dataset scored again in this job: the thread's results and the gold key they come from. */
interface DatasetScored {
  dataset: DatasetView;
  gold: StoredGold;
  /** the primary setting's report */
  report: Report;
  /** each secondary variant's corpus scores */
  variants: { id: string; metrics: MetricScores }[];
  /** the primary report's warnings, tagged with the dataset (and prefixed with its name in a phase with several) */
  warnings: StoredWarning[];
  analysis: RunAnalysisResult;
}

/** What a job produced: the datasets scored now, those kept, and what the run records. */
interface Scored {
  /** the phase's datasets, in order */
  datasets: DatasetView[];
  /** how many of them have an active gold key (the macro-average's denominator) */
  graded: number;
  rescored: DatasetScored[];
  /** ids of the datasets whose stored results stay (same gold key, same settings) */
  kept: string[];
  /** ids of the graded datasets the run has no file for (they count 0) */
  missing: string[];
  /** the warnings stored with the run: the kept datasets' previous ones and the new ones, in dataset order */
  warnings: StoredWarning[];
  /** the gold version of a one-dataset phase; null for a phase with several datasets */
  goldVersion: number | null;
  evaluation: RunEvaluation;
}

/** The run's row as the job reads it. */
const RUN_SELECT = {
  scorerVersion: true,
  evaluation: true,
  warnings: true,
  files: { select: { datasetId: true, fileName: true, sha256: true, gzip: true, size: true, goldKeyId: true } },
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
} as const;

/**
 * Loads the run, its phase's datasets and their active gold keys, decides per dataset (keep,
 * score, missing), and scores each dataset to score in a thread of the pool, one after the
 * other, within one time budget. Throws ScoringFailure for data/limit problems.
 */
async function loadAndScore(
  prisma: PrismaClient,
  submissionId: string,
  config: ScoringConfig,
  pool: ScoringPool,
  signal: AbortSignal | undefined,
): Promise<Scored> {
  const run = await prisma.submission.findUniqueOrThrow({ where: { id: submissionId }, select: RUN_SELECT });
  const phase = run.phase;
  const [datasets, golds, stored] = await Promise.all([
    listDatasets(phase.id, prisma),
    findActiveGoldKeys(phase.id, prisma),
    prisma.datasetScore.findMany({ where: { submissionId }, distinct: ["datasetId"], select: { datasetId: true } }),
  ]);
  const several = datasets.length > 1;
  const goldOf = new Map(golds.map((g) => [g.datasetId, g]));
  const fileOf = new Map(run.files.map((f) => [f.datasetId, f]));
  const withResults = new Set(stored.map((r) => r.datasetId));
  const task = phase.task;
  const profile = taskEvaluationProfile(task);
  const evaluation: RunEvaluation = {
    ...runEvaluation(profile),
    datasets: datasets.map((d) => ({ id: d.id, name: d.name, goldVersion: goldOf.get(d.id)?.version ?? null, missing: !fileOf.has(d.id) })),
  };
  if (golds.length === 0) {
    throw new ScoringFailure(
      ErrorStage.platform,
      `The phase "${phase.name}" has no active gold key yet${several ? ` for any of its ${datasets.length} datasets` : ""}, so submissions cannot be scored. The organizers must upload a gold key; submissions are scored again when they do. This does not count against your submission limit.`,
    );
  }
  const graded = datasets.filter((d) => goldOf.has(d.id));
  if (!graded.some((d) => fileOf.has(d.id))) {
    const covered = datasets.filter((d) => fileOf.has(d.id)).map((d) => d.name);
    throw new ScoringFailure(
      ErrorStage.platform,
      `None of the datasets your run has a file for (${covered.join(", ")}) has an active gold key yet, so it cannot be scored. The organizers must upload their gold keys; the run is scored again when they do. This does not count against your submission limit.`,
    );
  }

  // Results stay only when they come from the same gold key, scorer version and settings.
  const sameSettings = run.scorerVersion === SCORER_VERSION && sameEvaluation(run.evaluation, evaluation);
  const kept: string[] = [];
  const toScore: { dataset: DatasetView; gold: StoredGold; file: RunFileRow }[] = [];
  const missing: string[] = [];
  for (const dataset of graded) {
    const gold = goldOf.get(dataset.id)!;
    const file = fileOf.get(dataset.id);
    if (!file) missing.push(dataset.id);
    else if (sameSettings && file.goldKeyId === gold.id && withResults.has(dataset.id)) kept.push(dataset.id);
    else toScore.push({ dataset, gold, file });
  }

  // One time budget for the whole job, scaled by its size (`scoringBudget`): each thread call
  // gets what is left of it.
  const settings = 1 + profile.variants.length;
  const goldSizes = toScore.length === 0 ? [] : await prisma.goldKey.findMany({ where: { id: { in: toScore.map((t) => t.gold.id) } }, select: { size: true } });
  const bytes = goldSizes.reduce((sum, g) => sum + g.size, 0) + toScore.reduce((sum, t) => sum + t.file.size, 0);
  const budget = scoringBudget(config, bytes, settings);
  const started = performance.now();
  const rescored: DatasetScored[] = [];
  for (const { dataset, gold, file } of toScore) {
    signal?.throwIfAborted();
    const label = several ? `dataset ${dataset.name} (${file.fileName})` : "";
    const keyBytes = unpackOrFail(
      gold,
      `The stored gold key${several ? ` of dataset ${dataset.name}` : ""} (version ${gold.version}) is damaged. The organizers must upload it again. This does not count against your submission limit.`,
    );
    const responseBytes = unpackOrFail(
      file,
      `The stored copy of your file${several ? ` for ${label}` : ""} is damaged (its checksum does not match). Please submit it again. This does not count against your submission limit.`,
    );
    const input = threadInput(profile, { keyBytes, keyFile: gold.fileName, responseBytes, responseFile: file.fileName }, task);
    const remaining = budget.ms - (performance.now() - started);
    let result: ThreadResult;
    try {
      if (remaining <= 0) throw new ScoringTimeoutError(budget.ms);
      result = await pool.run(input, { timeoutMs: remaining, signal });
    } catch (error) {
      const covers = limitScope(toScore.length, settings);
      if (error instanceof ScoringTimeoutError) {
        throw new ScoringFailure(
          ErrorStage.scoring,
          `Scoring took longer than the limit of ${formatDuration(budget.ms)} and was stopped${several ? ` while scoring ${label}` : ""}.${covers} ${budgetRule(config, budget)} Check that the ${several ? "files are system outputs" : "file is a system output"} for this phase's documents (not much larger than the test set); if ${several ? "they are" : "it is"}, tell the organizers.`,
        );
      }
      if (error instanceof ScoringOutOfMemoryError) {
        throw new ScoringFailure(
          ErrorStage.scoring,
          `Scoring needs more than ${error.maxMemoryMb} MB of memory, the limit for one run, and was stopped${several ? ` while scoring ${label}` : ""}.${covers} Check that the file is a system output for this phase's documents (not much larger than the test set); if it is, tell the organizers.`,
        );
      }
      throw error;
    }
    rescored.push(datasetResult(submissionId, profile, dataset, gold, file, result, several));
  }

  // Warnings: the kept datasets' stored ones, then (in dataset order) the new ones.
  const previous = previousWarnings(run.warnings, several ? null : datasets[0].name);
  const keptNames = new Set(datasets.filter((d) => kept.includes(d.id)).map((d) => d.name));
  const warnings: StoredWarning[] = [];
  for (const dataset of datasets) {
    if (keptNames.has(dataset.name)) warnings.push(...previous.filter((w) => w.dataset === dataset.name));
    warnings.push(...(rescored.find((r) => r.dataset.id === dataset.id)?.warnings ?? []));
  }
  return {
    datasets,
    graded: graded.length,
    rescored,
    kept,
    missing,
    warnings,
    goldVersion: several ? null : goldOf.get(datasets[0].id)!.version,
    evaluation,
  };
}

/** A run's file as the job reads it. */
type RunFileRow = { datasetId: string; fileName: string; sha256: string; gzip: Uint8Array; size: number; goldKeyId: string | null };

/** The sentence saying what the time and memory limits cover (empty for one file under one setting). */
function limitScope(files: number, settings: number): string {
  if (files > 1) return ` The limit covers the whole run: scoring all ${files} of its dataset files${settings > 1 ? ` under all ${settings} settings of this task's evaluation profile` : ""}.`;
  return settings > 1 ? ` The limit covers scoring the file under all ${settings} settings of this task's evaluation profile.` : "";
}

/** Whether a run's stored evaluation record has the same profile and settings as `next` (datasets aside). */
function sameEvaluation(stored: Prisma.JsonValue, next: RunEvaluation): boolean {
  if (typeof stored !== "object" || stored === null || Array.isArray(stored)) return false;
  const { datasets: _stored, ...before } = stored as Record<string, unknown>;
  const { datasets: _next, ...after } = next;
  return isDeepStrictEqual(before, JSON.parse(JSON.stringify(after)));
}

/**
 * The run's stored warnings, each with its dataset's name (`dataset`): warnings stored before
 * datasets existed have none and belong to `onlyDataset` (a one-dataset phase) or to nothing.
 */
function previousWarnings(json: Prisma.JsonValue, onlyDataset: string | null): StoredWarning[] {
  if (!Array.isArray(json)) return [];
  const out: StoredWarning[] = [];
  for (const item of json) {
    if (typeof item !== "object" || item === null || Array.isArray(item)) continue;
    const w = item as Record<string, unknown>;
    if (typeof w.code !== "string" || typeof w.message !== "string") continue;
    const dataset = typeof w.dataset === "string" ? w.dataset : onlyDataset;
    if (dataset !== null) out.push({ ...(w as unknown as Warning), dataset });
  }
  return out;
}

/**
 * A dataset's thread result as its {@link DatasetScored}, or the ScoringFailure it means. In a
 * phase with several datasets every message names the dataset and the file.
 */
function datasetResult(
  submissionId: string,
  profile: EvaluationProfile,
  dataset: DatasetView,
  gold: StoredGold,
  file: RunFileRow,
  result: ThreadResult,
  several: boolean,
): DatasetScored {
  const where = several ? ` of dataset ${dataset.name}` : "";
  const log = `scoring: submission ${submissionId}: dataset ${dataset.name} (${dataset.id})`;
  switch (result.kind) {
    case "report":
      return {
        dataset,
        gold,
        report: result.report,
        variants: result.variants,
        warnings: result.warnings.map((w) => ({ ...w, ...(several ? { message: `dataset ${dataset.name}: ${w.message}` } : {}), dataset: dataset.name })),
        analysis: result.analysis,
      };
    case "settings":
      // The task's profile cannot score its gold key (organizer's set-up, not the team's file).
      console.error(`${log}: the ${profile.name} evaluation profile cannot score gold key v${gold.version}: ${result.message}`);
      throw new ScoringFailure(
        ErrorStage.platform,
        `This task's evaluation profile cannot score the phase's gold key${where} (version ${gold.version}): ${result.message}. The organizers must upload the gold key as CorefUD CoNLL-U (.conllu) or choose another evaluation profile for the task. This is not a problem with your file and does not count against your submission limit.`,
      );
    case "response-mismatch":
      throw new ScoringFailure(
        ErrorStage.validation,
        several ? `Dataset ${dataset.name} (${file.fileName}): the file could not be scored: ${result.message}` : `Your file could not be scored: ${result.message}`,
        several ? { file: file.fileName, dataset: dataset.name } : null,
      );
    case "key-format":
      // Where the gold key is broken is a fact about the gold: it goes to the operators' log,
      // not to the submitting team.
      console.error(`${log}: gold key v${gold.version} does not parse at line ${result.line}, column ${result.column}`);
      throw new ScoringFailure(
        ErrorStage.platform,
        `The active gold key${where} (version ${gold.version}) could not be read. The organizers must fix it and upload it again. This does not count against your submission limit.`,
      );
    case "response-format":
      throw new ScoringFailure(
        ErrorStage.validation,
        several ? `Dataset ${dataset.name} (${file.fileName}): the file could not be read: ${result.message}` : `Your file could not be read: ${result.message}`,
        { ...result.location, excerpt: result.excerpt, ...(several ? { dataset: dataset.name } : {}) },
      );
    case "internal":
      console.error(`${log}: internal scorer error: ${result.message}`);
      throw new ScoringFailure(
        ErrorStage.platform,
        `The scorer hit an internal error on this submission${several ? ` (dataset ${dataset.name})` : ""}. This is a bug in the platform, not a problem with your file, and does not count against your submission limit. Please tell the organizers.`,
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
 * SCORING → SCORED, in one transaction and only for this claim ({@link finishClaim}, scoped
 * to the datasets scored now): for each of them its DatasetScore rows (primary setting and
 * each variant), DocumentScore rows (primary setting), RunAnalysis row and the file's
 * `gold_key_id`; then the phase-level Score rows from every graded dataset's rows, kept ones
 * read back inside the transaction (a one-dataset phase: a copy of its rows; several: the
 * macro-average, `macroScoreRows`); and the run's `evaluation` and `warnings`.
 */
function writeScores(prisma: PrismaClient, claim: Claim, scored: Scored): Promise<boolean> {
  const { submissionId, phaseId } = claim;
  const finish = { status: "SCORED", goldVersion: scored.goldVersion, scorerVersion: SCORER_VERSION, datasetIds: scored.rescored.map((d) => d.dataset.id) } as const;
  return finishClaim(prisma, claim, finish, async (tx) => {
    const rowsOf = new Map<string, ScoreRowData[]>();
    const datasetRows: (ScoreRowData & { datasetId: string })[] = [];
    const documentRows: (DocumentScoreRowLike & { datasetId: string })[] = [];
    for (const d of scored.rescored) {
      const datasetId = d.dataset.id;
      const rows = [scoreRows(d.report), ...d.variants.map((v) => scoreRows(v, v.id))].flat();
      rowsOf.set(datasetId, rows);
      for (const r of rows) datasetRows.push({ ...r, datasetId });
      for (const r of documentScoreRows(d.report)) documentRows.push({ ...r, datasetId });
    }
    // A few statements for every dataset together: per-dataset statements cost a round trip
    // each, and Prisma's createMany binds a parameter per cell (slow for thousands of rows).
    await insertDatasetScores(tx, submissionId, phaseId, datasetRows);
    for (let i = 0; i < documentRows.length; i += 20_000) await insertDocumentScores(tx, submissionId, documentRows.slice(i, i + 20_000));
    if (scored.rescored.length > 0) {
      await tx.runAnalysis.createMany({ data: scored.rescored.map((d) => ({ submissionId, datasetId: d.dataset.id, ...analysisRow(d.analysis) })) });
      await tx.$executeRaw`
        UPDATE submission_files f SET gold_key_id = g.gold_key_id
          FROM unnest(${scored.rescored.map((d) => d.dataset.id)}::uuid[], ${scored.rescored.map((d) => d.gold.id)}::uuid[]) AS g(dataset_id, gold_key_id)
         WHERE f.submission_id = ${submissionId}::uuid AND f.dataset_id = g.dataset_id`;
    }
    if (scored.kept.length > 0) {
      const kept = await tx.datasetScore.findMany({
        where: { submissionId, datasetId: { in: scored.kept } },
        select: { datasetId: true, variant: true, metric: true, recallNum: true, recallDen: true, precisionNum: true, precisionDen: true, recall: true, precision: true, f1: true },
      });
      for (const { datasetId, ...row } of kept) {
        const list = rowsOf.get(datasetId) ?? [];
        list.push(row);
        rowsOf.set(datasetId, list);
      }
    }
    const phaseRows =
      scored.datasets.length === 1
        ? (rowsOf.get(scored.datasets[0].id) ?? [])
        : macroScoreRows(
            scored.datasets.filter((d) => rowsOf.has(d.id)).map((d) => rowsOf.get(d.id)!),
            scored.graded,
          );
    await tx.score.createMany({ data: phaseRows.map((r) => ({ ...r, submissionId, phaseId })) });
    await recordEvaluation(tx, submissionId, scored.evaluation, scored.warnings);
  });
}

/**
 * Inserts a run's DatasetScore rows in one statement (`unnest` of one array per column).
 *
 * @param tx the finish transaction
 * @param rows score rows (fractions in [0, 1]; counts and recall/precision may be null), each with its dataset
 */
async function insertDatasetScores(tx: Tx, submissionId: string, phaseId: string, rows: readonly (ScoreRowData & { datasetId: string })[]): Promise<void> {
  if (rows.length === 0) return;
  const col = <K extends keyof ScoreRowData>(k: K) => rows.map((r) => r[k] ?? null);
  await tx.$executeRaw`
    INSERT INTO dataset_scores (submission_id, phase_id, dataset_id, variant, metric, recall_num, recall_den, precision_num, precision_den, recall, precision, f1)
    SELECT ${submissionId}::uuid, ${phaseId}::uuid, r.*
      FROM unnest(${rows.map((r) => r.datasetId)}::uuid[], ${col("variant")}::text[], ${col("metric")}::text[],
                  ${col("recallNum")}::float8[], ${col("recallDen")}::float8[], ${col("precisionNum")}::float8[], ${col("precisionDen")}::float8[],
                  ${col("recall")}::float8[], ${col("precision")}::float8[], ${col("f1")}::float8[]) AS r`;
}

/**
 * Inserts a run's DocumentScore rows in one statement (`unnest` of one array per column).
 *
 * @param tx the finish transaction
 * @param rows per-document counts, each with its dataset
 */
async function insertDocumentScores(tx: Tx, submissionId: string, rows: readonly (DocumentScoreRowLike & { datasetId: string })[]): Promise<void> {
  if (rows.length === 0) return;
  await tx.$executeRaw`
    INSERT INTO document_scores (submission_id, dataset_id, document, metric, recall_num, recall_den, precision_num, precision_den)
    SELECT ${submissionId}::uuid, r.*
      FROM unnest(${rows.map((r) => r.datasetId)}::uuid[], ${rows.map((r) => r.document)}::text[], ${rows.map((r) => r.metric)}::text[],
                  ${rows.map((r) => r.recallNum)}::float8[], ${rows.map((r) => r.recallDen)}::float8[],
                  ${rows.map((r) => r.precisionNum)}::float8[], ${rows.map((r) => r.precisionDen)}::float8[]) AS r`;
}

/**
 * Sets a scored run's `evaluation` and `warnings`, inside the finish transaction (after its
 * claim guard, and after `finishClaim` cleared the previous ones).
 */
async function recordEvaluation(tx: Tx, submissionId: string, evaluation: RunEvaluation, warnings: StoredWarning[]): Promise<void> {
  await tx.submission.update({
    where: { id: submissionId },
    data: {
      evaluation: JSON.parse(JSON.stringify(evaluation)) as Prisma.InputJsonObject,
      warnings: JSON.parse(JSON.stringify(warnings)) as Prisma.InputJsonArray,
    },
  });
}

/** The sentence saying how a run's time limit was computed from its size. */
function budgetRule(config: ScoringConfig, budget: ScoringBudget): string {
  const mb = budget.mb < 10 ? budget.mb.toFixed(2) : budget.mb.toFixed(1);
  const perSetting = budget.settings > 1 ? ` per evaluation setting (${budget.settings})` : "";
  return (
    `A run's limit is ${shortDuration(config.baseMs)} plus ${shortDuration(config.msPerMb)} per MB of gold key and run file${perSetting}, at most ${shortDuration(config.timeoutMs)}; ` +
    `this run has ${mb} MB${budget.capped ? ", so it got the most" : ""}.`
  );
}

/** Like {@link formatDuration}, with milliseconds below a second. */
function shortDuration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : formatDuration(ms);
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
