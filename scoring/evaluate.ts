/**
 * `evaluate`: scores a response corpus against a key corpus with every metric.
 *
 * - CoNLL-2012 and JSON lines input is scored as the CoNLL reference scorer (v8.01, plus LEA
 *   from its LEA branch) does: exact spans, `metrics/*`.
 * - CorefUD CoNLL-U input is scored as the CorefUD scorer v1.2 (the CRAC shared task's
 *   official scorer) does, in any of its settings: exact, partial or head match, dependent or
 *   linear zeros, with or without singletons and zeros (`corefud/*`).
 * - Documents are matched by id (name and part). A key document missing from the response
 *   is scored against an empty response; response-only documents are ignored. Both give a
 *   warning.
 * - Each metric returns exact counts per document; corpus scores sum them and divide once.
 * - The CoNLL F1 is the unweighted mean of the MUC, B³ and CEAFe F1 (`CONLL_METRICS`).
 * - Optional metrics (`OPTIONAL_METRICS` of the registry), off by default so the output is
 *   otherwise unchanged: `mcf`, mapped cluster F (P95-1038, `analysis/mapped-cluster-f.ts`;
 *   on the span view); `mor` and `zero` (CRAC 2022; `corefud/mor.ts`, `corefud/zero.ts`).
 */
import type { Corpus, Document, Entity, Warning } from "./types.js";
import { alignDocument } from "./metrics/alignment.js";
import { bcub, type BcubWeighting } from "./metrics/bcub.js";
import { blanc, blancScore, type BlancCounts, type BlancRule } from "./metrics/blanc.js";
import { ceaf } from "./metrics/ceaf.js";
import { addCounts, toScore, zeroCounts, type Counts, type Score } from "./metrics/counts.js";
import { lea } from "./metrics/lea.js";
import { muc } from "./metrics/muc.js";
import { MAPPED_F_THRESHOLD, mappedClusterF } from "./analysis/mapped-cluster-f.js";

import {
  ALL_COUNT_METRICS,
  CONLL_METRICS,
  METRICS,
  SELECTABLE_METRICS,
  type AnyCountMetric,
  type SelectableMetric,
} from "./metrics/registry.js";
import { scoreCorefUDDocument } from "./corefud/score.js";
import { mentionOverlap } from "./corefud/mor.js";

export {
  METRICS,
  COUNT_METRICS,
  OPTIONAL_METRICS,
  SELECTABLE_METRICS,
  type MetricName,
  type CountMetric,
  type OptionalMetric,
  type SelectableMetric,
} from "./metrics/registry.js";

/**
 * How key and response mentions are matched (CorefUD input only; CoNLL-2012 input has only
 * `exact`). Every mode is 1-to-1; see `corefud/align.ts`.
 * - `exact`: the same set of words;
 * - `partial`: the response's words are a subset of the key's and include the key's head;
 * - `head`: the same head; full spans break ties.
 */
export type MentionMatch = "exact" | "partial" | "head";
/** The mention-matching modes, the default first. */
export const MENTION_MATCHES: readonly MentionMatch[] = ["exact", "partial", "head"];

/**
 * How zeros (mentions headed by an empty node) are matched (CorefUD input only):
 * - `dependent` (the CorefUD scorer's default): first, within each sentence, a maximum-weight
 *   1-to-1 matching of key and response zeros weighted by their heads' DEPS;
 * - `linear`: zeros are matched by their node IDs like any other mention.
 */
export type ZeroMatch = "dependent" | "linear";
/** The zero-matching modes, the default first. */
export const ZERO_MATCHES: readonly ZeroMatch[] = ["dependent", "linear"];

/** What `evaluate` computes, and how. */
export interface EvaluateOptions {
  /**
   * Metrics to compute (default: `METRICS`, every non-optional metric). `mor` and `zero` are
   * computed only when named here. The CoNLL F1 needs muc, bcub and ceafe.
   */
  metrics?: readonly SelectableMetric[];
  /** Drop singleton entities from key and response before scoring (as coval and the
   * CorefUD scorer offer). Default false: singletons count, as in the reference scorer. */
  removeSingletons?: boolean;
  /**
   * Mention matching, `exact` by default. `partial` and `head` need CorefUD input (heads): with
   * CoNLL-2012 input they throw a RangeError.
   */
  match?: MentionMatch;
  /** Zero matching for CorefUD input, `dependent` by default (ignored for CoNLL-2012 input). */
  zeroMatch?: ZeroMatch;
  /**
   * Delete zeros (mentions headed by an empty node) from key and response before matching,
   * after singletons are removed (the CorefUD scorer's API `keep_zeros=False`). Default false.
   */
  removeZeros?: boolean;
  /** B³ weighting: `mention` (default, the reference scorer's) or `entity`. */
  bcubWeighting?: BcubWeighting;
  /**
   * Also compute mapped cluster F (`mcf`, P95-1038) on each document's raw entities: after
   * `removeSingletons` but before the alignment that keeps each response span in one
   * entity only, so overlapping entities count as they are. `true` uses the paper's
   * threshold 0.2 (`MAPPED_F_THRESHOLD`); `{ threshold }` sets the F a pair must exceed, a
   * number in [0, 1]. Default off: reports are then exactly as without this option.
   */
  mappedClusterF?: boolean | { threshold: number };
}

/** BLANC's fractions plus the link counts they come from. */
export interface BlancScore extends BlancCounts {
  recall: number;
  precision: number;
  f1: number;
}

/** Corpus-level scores, fractions in [0, 1]. Absent metrics were not requested. */
export interface MetricScores {
  mentions?: Score;
  muc?: Score;
  bcub?: Score;
  ceafm?: Score;
  ceafe?: Score;
  lea?: Score;
  blanc?: BlancScore;
  conll?: { f1: number };
  /** Mapped cluster F, only when `EvaluateOptions.mappedClusterF` is on. */
  mcf?: Score;
  /** Mention overlap ratio, only when asked for in `EvaluateOptions.metrics`. */
  mor?: Score;
  /** The anaphor-decomposable zero score, only when asked for in `EvaluateOptions.metrics`. */
  zero?: Score;
}

/** One key document's counts and scores. */
export interface DocumentReport {
  id: string;
  /** True when the response has no document with this id (scored as empty). */
  missingInResponse: boolean;
  counts: Partial<Record<AnyCountMetric, Counts>> & { blanc?: BlancCounts };
  scores: MetricScores;
}

/** The result of `evaluate`. */
export interface Report {
  /** Number of key documents. */
  documents: number;
  metrics: MetricScores;
  perDocument: DocumentReport[];
  warnings: Warning[];
  /**
   * How the documents were scored: `conll2012` (the CoNLL reference scorer's way, exact spans)
   * or `corefud` (the CorefUD scorer's way, for CorefUD CoNLL-U input), with the settings used.
   * `blancRule` is the BLANC averaging rule that turns summed link counts into scores.
   */
  scoring: {
    mode: "conll2012" | "corefud";
    match: MentionMatch;
    zeroMatch: ZeroMatch;
    removeSingletons: boolean;
    removeZeros: boolean;
    blancRule: BlancRule;
  };
}

/**
 * Scores `response` against `key`.
 *
 * CoNLL-2012 (and JSON lines) input is scored as the CoNLL reference scorer v8.01 does (exact
 * spans; `alignDocument`). CorefUD CoNLL-U input (documents with `corefud` data) is scored as
 * the CorefUD scorer v1.2 does (`corefud/score.ts`): mentions as node sets with heads, the
 * chosen matching, zeros, and CorefUD's BLANC averaging.
 *
 * @param key the key (gold) corpus
 * @param response the response (system) corpus
 * @param options metric selection, matching, singleton and zero removal, B³ weighting,
 *   optional metrics
 * @returns corpus totals (counts summed over documents, then divided once: micro-average),
 *   per-document counts and scores (fractions in [0, 1], not percentages) and warnings (the
 *   corpora's own warnings, missing and response-only documents, repeated response mentions
 *   removed)
 * @throws RangeError when `options.mappedClusterF.threshold` is not a number in [0, 1], when
 *   `match` is `partial` or `head` for input without heads (CoNLL-2012, JSON lines), when the
 *   key is CorefUD and the response is not (or the other way round), or for an unknown
 *   option value
 * @throws FormatError (CorefUD input only) when a response document's sentences or words differ
 *   from the key's, or when dependent zero matching meets a zero without DEPS
 */
export function evaluate(key: Corpus, response: Corpus, options: EvaluateOptions = {}): Report {
  const plan = planEvaluation(key, response, options);
  const responseById = new Map(response.documents.map((d) => [d.id, d]));
  const keyIds = new Set(key.documents.map((d) => d.id));
  const files = { key: key.file, response: response.file };
  return assembleReport(plan, {
    readerWarnings: [...key.warnings, ...response.warnings],
    scored: key.documents.map((d) => scoreDocument(plan, d, responseById.get(d.id), files)),
    responseOnly: response.documents.filter((d) => !keyIds.has(d.id)),
    responseFile: response.file,
  });
}

/**
 * The checked settings of one evaluation: what `evaluate` derives from its options and the two
 * corpora before it scores any document. Plain data, so that another thread can build the same
 * plan from the same options (`scoring/parallel.ts`).
 */
export interface EvaluationPlan {
  metrics: ReadonlySet<SelectableMetric>;
  scoring: Report["scoring"];
  /** The mapped cluster F threshold in [0, 1], or null when that metric is off. */
  mcfThreshold: number | null;
  bcubWeighting?: BcubWeighting;
}

/**
 * Checks `options` against the two corpora and fixes the scoring mode (`conll2012` or `corefud`,
 * by whether the documents carry a CorefUD view).
 *
 * @returns the plan `scoreDocument` and `assembleReport` follow
 * @throws RangeError as `evaluate` documents (unknown metric or option value, a bad mapped
 *   cluster F threshold, key and response in different formats, partial or head match without
 *   heads, entity-weighted B³ on CorefUD input)
 */
export function planEvaluation(key: Corpus, response: Corpus, options: EvaluateOptions = {}): EvaluationPlan {
  const metrics = new Set<SelectableMetric>(options.metrics ?? METRICS);
  for (const m of metrics) {
    if (!(SELECTABLE_METRICS as readonly string[]).includes(m)) {
      throw new RangeError(`unknown metric "${String(m)}"; known: ${SELECTABLE_METRICS.join(", ")}`);
    }
  }
  const match = options.match ?? "exact";
  const zeroMatch = options.zeroMatch ?? "dependent";
  if (!MENTION_MATCHES.includes(match)) throw new RangeError(`match must be one of ${MENTION_MATCHES.join(", ")}, got "${String(match)}"`);
  if (!ZERO_MATCHES.includes(zeroMatch)) throw new RangeError(`zeroMatch must be one of ${ZERO_MATCHES.join(", ")}, got "${String(zeroMatch)}"`);
  const mcfThreshold = mappedClusterFThreshold(options.mappedClusterF);
  const corefud = key.documents.some((d) => d.corefud !== undefined);
  const responseCorefud = response.documents.some((d) => d.corefud !== undefined);
  if (key.documents.length > 0 && response.documents.length > 0 && corefud !== responseCorefud) {
    throw new RangeError(
      `the key (${key.file}) is ${corefud ? "CorefUD CoNLL-U" : "not CorefUD CoNLL-U"} but the response (${response.file}) is ${responseCorefud ? "CorefUD CoNLL-U" : "not"}: both must be in the same format`,
    );
  }
  if (!corefud && match !== "exact") {
    throw new RangeError(`${match} match needs mention heads, which only CorefUD CoNLL-U input has; ${key.file} has none (use exact match)`);
  }
  if (corefud && options.bcubWeighting === "entity") {
    throw new RangeError("entity-weighted B³ is not defined for CorefUD scoring; use the default mention weighting");
  }
  const scoring: Report["scoring"] = {
    mode: corefud ? "corefud" : "conll2012",
    match,
    zeroMatch,
    removeSingletons: options.removeSingletons ?? false,
    removeZeros: options.removeZeros ?? false,
    blancRule: corefud ? "corefud" : "reference",
  };
  const plan: EvaluationPlan = { metrics, scoring, mcfThreshold };
  if (options.bcubWeighting !== undefined) plan.bcubWeighting = options.bcubWeighting;
  return plan;
}

/** One key document scored: its report and the warnings it raised, in order. */
export interface ScoredDocument {
  report: DocumentReport;
  warnings: Warning[];
}

/**
 * Scores one key document against the response document of the same id (absent: scored as an
 * empty response, with a `missing-document` warning).
 *
 * @param files the key's and the response's file names, for warnings and errors
 * @returns the document's counts and scores (fractions in [0, 1]) and its warnings
 * @throws FormatError (CorefUD input only) as `evaluate` documents
 */
export function scoreDocument(
  plan: EvaluationPlan,
  keyDoc: Document,
  responseDoc: Document | undefined,
  files: { key: string; response: string },
): ScoredDocument {
  const { metrics, scoring, mcfThreshold } = plan;
  const warnings: Warning[] = [];
  if (!responseDoc) {
    warnings.push({
      code: "missing-document",
      message: `key document "${keyDoc.id}" is not in the response; it is scored as an empty response`,
      file: files.response,
      document: keyDoc.id,
    });
  }
  let keyEntities: readonly Entity[] = keyDoc.entities;
  let responseEntities: readonly Entity[] = responseDoc?.entities ?? [];
  if (scoring.removeSingletons) {
    keyEntities = keyEntities.filter((e) => e.length > 1);
    responseEntities = responseEntities.filter((e) => e.length > 1);
  }
  let counts: DocumentReport["counts"];
  if (keyDoc.corefud) {
    counts = scoreCorefUDDocument(keyDoc.corefud, responseDoc?.corefud ?? null, {
      matching: scoring.match,
      zeroMatch: scoring.zeroMatch,
      removeSingletons: scoring.removeSingletons,
      removeZeros: scoring.removeZeros,
      metrics,
      keyFile: files.key,
      responseFile: files.response,
    });
  } else {
    counts = {};
    const aligned = alignDocument(keyEntities, responseEntities);
    if (aligned.removedRepeats > 0) {
      warnings.push({
        code: "repeated-mention-removed",
        message: `document "${keyDoc.id}": ${aligned.removedRepeats} repeated response mention(s) of a key span removed; each span is kept only in the response entity that appears first`,
        file: files.response,
        document: keyDoc.id,
      });
    }
    if (metrics.has("mentions")) counts.mentions = aligned.mentions;
    if (metrics.has("muc")) counts.muc = muc(aligned);
    if (metrics.has("bcub")) counts.bcub = bcub(aligned, plan.bcubWeighting);
    if (metrics.has("ceafm")) counts.ceafm = ceaf(aligned, "mention");
    if (metrics.has("ceafe")) counts.ceafe = ceaf(aligned, "entity");
    if (metrics.has("lea")) counts.lea = lea(aligned);
    if (metrics.has("blanc")) counts.blanc = blanc(aligned);
    // MOR on spans (word sets); no zeros exist without empty nodes.
    if (metrics.has("mor")) counts.mor = mentionOverlap(spanNodes(keyEntities), spanNodes(responseEntities));
    if (metrics.has("zero")) counts.zero = zeroCounts();
  }
  if (mcfThreshold !== null) {
    counts.mcf = mappedClusterF(keyEntities, responseEntities, { threshold: mcfThreshold }).counts;
  }
  return {
    report: { id: keyDoc.id, missingInResponse: !responseDoc, counts, scores: scoresFrom(counts, scoring.blancRule) },
    warnings,
  };
}

/**
 * Puts a report together from scored documents: corpus totals are the per-document counts summed
 * in key order, then divided once (micro-average).
 *
 * @param parts `readerWarnings` (the key's, then the response's), `scored` (every key document,
 *   in key order), `responseOnly` (the response's documents that are not in the key, in response
 *   order; each gets a `response-only-document` warning) and the response's file name
 * @returns the report `evaluate` returns for the same input
 */
export function assembleReport(
  plan: EvaluationPlan,
  parts: {
    readerWarnings: readonly Warning[];
    scored: readonly ScoredDocument[];
    responseOnly: readonly { id: string; line: number }[];
    responseFile: string;
  },
): Report {
  const warnings: Warning[] = [...parts.readerWarnings];
  const totals = new Map<AnyCountMetric, Counts>();
  const blancTotal: BlancCounts = { coref: zeroCounts(), noncoref: zeroCounts() };
  const perDocument: DocumentReport[] = [];
  for (const { report, warnings: documentWarnings } of parts.scored) {
    warnings.push(...documentWarnings);
    const { counts } = report;
    if (counts.blanc) {
      addCounts(blancTotal.coref, counts.blanc.coref);
      addCounts(blancTotal.noncoref, counts.blanc.noncoref);
    }
    for (const m of ALL_COUNT_METRICS) {
      const c = counts[m];
      if (!c) continue;
      const total = totals.get(m) ?? zeroCounts();
      totals.set(m, addCounts(total, c));
    }
    perDocument.push(report);
  }
  for (const doc of parts.responseOnly) {
    warnings.push({
      code: "response-only-document",
      message: `response document "${doc.id}" is not in the key; it is ignored`,
      file: parts.responseFile,
      line: doc.line,
      document: doc.id,
    });
  }
  const totalCounts: DocumentReport["counts"] = Object.fromEntries(totals);
  if (plan.metrics.has("blanc")) totalCounts.blanc = blancTotal;
  return {
    documents: perDocument.length,
    metrics: scoresFrom(totalCounts, plan.scoring.blancRule),
    perDocument,
    warnings,
    scoring: plan.scoring,
  };
}

/** Each span's token indices, one array per mention occurrence (for MOR on spans). */
function spanNodes(entities: readonly Entity[]): number[][] {
  const out: number[][] = [];
  for (const e of entities) {
    for (const [start, end] of e) {
      const nodes: number[] = [];
      for (let t = start; t <= end; t++) nodes.push(t);
      out.push(nodes);
    }
  }
  return out;
}

/** Fractions from counts, plus the CoNLL F1 when MUC, B³ and CEAFe are all there. */
function scoresFrom(counts: DocumentReport["counts"], blancRule: BlancRule): MetricScores {
  const out: MetricScores = {};
  for (const m of ALL_COUNT_METRICS) {
    const c = counts[m];
    if (c) out[m] = toScore(c);
  }
  if (counts.blanc) out.blanc = { ...counts.blanc, ...blancScore(counts.blanc, blancRule) };
  if (CONLL_METRICS.every((m) => out[m])) {
    out.conll = { f1: CONLL_METRICS.reduce((sum, m) => sum + out[m]!.f1, 0) / CONLL_METRICS.length };
  }
  return out;
}

/** The mapped cluster F threshold `option` asks for, or `null` when the metric is off. */
function mappedClusterFThreshold(option: EvaluateOptions["mappedClusterF"]): number | null {
  if (option === undefined || option === false) return null;
  const threshold = option === true ? MAPPED_F_THRESHOLD : option.threshold;
  if (typeof threshold !== "number" || !(threshold >= 0 && threshold <= 1)) {
    throw new RangeError(`mappedClusterF threshold must be a number in [0, 1], got ${String(threshold)}`);
  }
  return threshold;
}
