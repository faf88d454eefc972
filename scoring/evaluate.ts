/**
 * `evaluate`: scores a response corpus against a key corpus with every metric, as the
 * CoNLL reference scorer (v8.01, plus LEA from its LEA branch) does.
 *
 * - Documents are matched by id (name and part). A key document missing from the response
 *   is scored against an empty response; response-only documents are ignored. Both give a
 *   warning.
 * - Each metric returns exact counts per document; corpus scores sum them and divide once.
 * - The CoNLL F1 is the unweighted mean of the MUC, B³ and CEAFe F1.
 * - Optional metrics (`OPTIONAL_METRICS`), off by default so the output is otherwise
 *   unchanged: `mcf`, mapped cluster F (P95-1038, `analysis/mapped-cluster-f.ts`).
 */
import type { Corpus, Entity, Warning } from "./types.js";
import { alignDocument } from "./metrics/alignment.js";
import { bcub, type BcubWeighting } from "./metrics/bcub.js";
import { blanc, blancScore, type BlancCounts } from "./metrics/blanc.js";
import { ceaf } from "./metrics/ceaf.js";
import { addCounts, toScore, zeroCounts, type Counts, type Score } from "./metrics/counts.js";
import { lea } from "./metrics/lea.js";
import { muc } from "./metrics/muc.js";
import { MAPPED_F_THRESHOLD, mappedClusterF } from "./analysis/mapped-cluster-f.js";

/** Metrics with recall/precision counts. */
export const COUNT_METRICS = ["mentions", "muc", "bcub", "ceafm", "ceafe", "lea"] as const;
/** One of `COUNT_METRICS`. */
export type CountMetric = (typeof COUNT_METRICS)[number];
/** Every metric `evaluate` can compute (`conll` is derived from muc, bcub and ceafe). */
export const METRICS = [...COUNT_METRICS, "blanc"] as const;
/** One of `METRICS`. */
export type MetricName = (typeof METRICS)[number];
/**
 * Count metrics computed only when asked for by their own option (not part of `METRICS`,
 * nor of the CoNLL F1): `mcf`, mapped cluster F (`EvaluateOptions.mappedClusterF`).
 */
export const OPTIONAL_METRICS = ["mcf"] as const;
/** One of `OPTIONAL_METRICS`. */
export type OptionalMetric = (typeof OPTIONAL_METRICS)[number];
/** Count metrics summed over documents: the standard ones, then the optional ones. */
const ALL_COUNT_METRICS = [...COUNT_METRICS, ...OPTIONAL_METRICS] as const;

/** What `evaluate` computes, and how. */
export interface EvaluateOptions {
  /** Metrics to compute (default: all). The CoNLL F1 needs muc, bcub and ceafe. */
  metrics?: readonly MetricName[];
  /** Drop singleton entities from key and response before scoring (as coval and the
   * CorefUD scorer offer). Default false: singletons count, as in the reference scorer. */
  removeSingletons?: boolean;
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
}

/** One key document's counts and scores. */
export interface DocumentReport {
  id: string;
  /** True when the response has no document with this id (scored as empty). */
  missingInResponse: boolean;
  counts: Partial<Record<CountMetric | OptionalMetric, Counts>> & { blanc?: BlancCounts };
  scores: MetricScores;
}

/** The result of `evaluate`. */
export interface Report {
  /** Number of key documents. */
  documents: number;
  metrics: MetricScores;
  perDocument: DocumentReport[];
  warnings: Warning[];
}

/**
 * Scores `response` against `key`.
 *
 * @param key the key (gold) corpus
 * @param response the response (system) corpus
 * @param options metric selection, singleton removal, B³ weighting, optional metrics
 * @returns corpus totals (counts summed over documents, then divided once: micro-average),
 *   per-document counts and scores (fractions in [0, 1], not percentages) and warnings (the
 *   corpora's own warnings, missing and response-only documents, repeated response mentions
 *   removed). Never throws for corpora the readers returned and valid options.
 * @throws RangeError when `options.mappedClusterF.threshold` is not a number in [0, 1]
 */
export function evaluate(key: Corpus, response: Corpus, options: EvaluateOptions = {}): Report {
  const metrics = new Set<MetricName>(options.metrics ?? METRICS);
  const mcfThreshold = mappedClusterFThreshold(options.mappedClusterF);
  const warnings: Warning[] = [...key.warnings, ...response.warnings];
  const responseById = new Map(response.documents.map((d) => [d.id, d]));
  const keyIds = new Set(key.documents.map((d) => d.id));

  const totals = new Map<CountMetric | OptionalMetric, Counts>();
  const blancTotal: BlancCounts = { coref: zeroCounts(), noncoref: zeroCounts() };
  const perDocument: DocumentReport[] = [];

  for (const keyDoc of key.documents) {
    const responseDoc = responseById.get(keyDoc.id);
    if (!responseDoc) {
      warnings.push({
        code: "missing-document",
        message: `key document "${keyDoc.id}" is not in the response; it is scored as an empty response`,
        file: response.file,
        document: keyDoc.id,
      });
    }
    let keyEntities: readonly Entity[] = keyDoc.entities;
    let responseEntities: readonly Entity[] = responseDoc?.entities ?? [];
    if (options.removeSingletons) {
      keyEntities = keyEntities.filter((e) => e.length > 1);
      responseEntities = responseEntities.filter((e) => e.length > 1);
    }
    const aligned = alignDocument(keyEntities, responseEntities);
    if (aligned.removedRepeats > 0) {
      warnings.push({
        code: "repeated-mention-removed",
        message: `document "${keyDoc.id}": ${aligned.removedRepeats} repeated response mention(s) of a key span removed; each span is kept only in the response entity that appears first`,
        file: response.file,
        document: keyDoc.id,
      });
    }
    const counts: DocumentReport["counts"] = {};
    if (metrics.has("mentions")) counts.mentions = aligned.mentions;
    if (metrics.has("muc")) counts.muc = muc(aligned);
    if (metrics.has("bcub")) counts.bcub = bcub(aligned, options.bcubWeighting);
    if (metrics.has("ceafm")) counts.ceafm = ceaf(aligned, "mention");
    if (metrics.has("ceafe")) counts.ceafe = ceaf(aligned, "entity");
    if (metrics.has("lea")) counts.lea = lea(aligned);
    if (metrics.has("blanc")) {
      counts.blanc = blanc(aligned);
      addCounts(blancTotal.coref, counts.blanc.coref);
      addCounts(blancTotal.noncoref, counts.blanc.noncoref);
    }
    if (mcfThreshold !== null) {
      counts.mcf = mappedClusterF(keyEntities, responseEntities, { threshold: mcfThreshold }).counts;
    }
    for (const m of ALL_COUNT_METRICS) {
      const c = counts[m];
      if (!c) continue;
      const total = totals.get(m) ?? zeroCounts();
      totals.set(m, addCounts(total, c));
    }
    perDocument.push({
      id: keyDoc.id,
      missingInResponse: !responseDoc,
      counts,
      scores: scoresFrom(counts),
    });
  }

  for (const doc of response.documents) {
    if (!keyIds.has(doc.id)) {
      warnings.push({
        code: "response-only-document",
        message: `response document "${doc.id}" is not in the key; it is ignored`,
        file: response.file,
        line: doc.line,
        document: doc.id,
      });
    }
  }

  const totalCounts: DocumentReport["counts"] = Object.fromEntries(totals);
  if (metrics.has("blanc")) totalCounts.blanc = blancTotal;
  return {
    documents: key.documents.length,
    metrics: scoresFrom(totalCounts),
    perDocument,
    warnings,
  };
}

/** Fractions from counts, plus the CoNLL F1 when MUC, B³ and CEAFe are all there. */
function scoresFrom(counts: DocumentReport["counts"]): MetricScores {
  const out: MetricScores = {};
  for (const m of COUNT_METRICS) {
    const c = counts[m];
    if (c) out[m] = toScore(c);
  }
  if (counts.blanc) out.blanc = { ...counts.blanc, ...blancScore(counts.blanc) };
  if (out.muc && out.bcub && out.ceafe) out.conll = { f1: (out.muc.f1 + out.bcub.f1 + out.ceafe.f1) / 3 };
  if (counts.mcf) out.mcf = toScore(counts.mcf);
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
