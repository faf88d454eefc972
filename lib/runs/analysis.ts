/**
 * A run's analyses as a viewer may see them: the Kummerfeld & Klein error counts (in total
 * and per document), Byron's pronoun standard disclosure, and one document's error view
 * (the text with key and response mentions and the listed errors).
 *
 * Who sees what:
 * - the disclosure table is a corpus-level summary like the scores: everyone who may see
 *   the run (see `submissionAccess`);
 * - the error analysis (its counts and the document views) shows where the gold's mentions
 *   and entities are, so the phase's `participantAnalysis` decides (`canViewErrorAnalysis`
 *   in lib/permissions.ts): the task's organizers always; among the others who may see the
 *   run, nobody with NONE (the default), the task's participants (signed-in members of a
 *   team with a non-baseline run in the task) with TEAMS, everyone with PUBLIC. The run's
 *   own team is no exception.
 *
 * Datasets: the worker stores one RunAnalysis row per dataset of the run (`run_analyses`,
 * key (submission, dataset)). The run page shows them merged ({@link mergeRunAnalyses}: error
 * totals and disclosure counts summed, documents listed dataset after dataset); a document's
 * view reads the run's file of the dataset holding the document (its SubmissionFile) and the
 * gold key version that dataset was scored against.
 */
import { NotFoundError } from "../errors";
import { canViewErrorAnalysis, PHASE_VISIBILITY_SELECT, submissionAccess, SUBMISSION_VISIBILITY_SELECT, type Viewer } from "../permissions";
import { unpackFile } from "../storage";
import { defaultDb, isUuid, type Db, type ParticipantAnalysis } from "../db";
import { taskEvaluationProfile, DATASET_ORDER, excludedCategoriesOf, pronounFormOrder } from "../tasks";
import { LRUCache } from "lru-cache";
import { blancRuleForGold, documentScoresToJson, type MetricsJson } from "../boards";
import {
  analyzeDocumentErrors,
  disclosureTable,
  ERROR_KINDS,
  type CorefError,
  type DisclosureTable,
  type ErrorCounts,
  type PronounDisclosure,
} from "../../scoring/analysis";
import { DEFAULT_LIMITS, readCorpus } from "../../scoring/formats";
import type { Corpus, Entity } from "../../scoring";
import type { DisclosureColumn } from "../../scoring/analysis/disclosure";

export type { CorefError, DisclosureTable, ErrorCounts, ErrorKind } from "../../scoring/analysis";
/** The error categories in display order (for pages, which do not import scoring/). */
export { ERROR_KINDS } from "../../scoring/analysis";

/** A run's analyses for one viewer. */
export interface RunAnalysisView {
  submissionId: string;
  /** false until the run is SCORED with analyses (runs scored before analyses existed are re-scored to get them) */
  available: boolean;
  /** whether the viewer may see the error analysis (counts and document views) */
  canViewErrors: boolean;
  /** who besides the organizers may see it on this phase (for the message shown when the viewer may not) */
  participantAnalysis: ParticipantAnalysis;
  /** error category totals; null when not available or not allowed */
  errorTotals: ErrorCounts | null;
  /**
   * per key document (key order; dataset after dataset in the phase's order); `dataset` is the
   * dataset's name on a phase with several datasets (documents are named within a dataset),
   * null on a phase with one; null when not available or not allowed
   */
  documents: { dataset: string | null; document: string; counts: ErrorCounts }[] | null;
  /** the standard disclosure with the task's exclusions applied; null when not available */
  disclosure: (DisclosureTable & { language: string; excludedCategories: string[] }) | null;
}

/** Facts about a submission that the analysis permissions need. */
const ACCESS_SELECT = {
  id: true,
  status: true,
  ...SUBMISSION_VISIBILITY_SELECT,
  goldVersion: true,
  evaluation: true,
  phase: {
    select: {
      ...PHASE_VISIBILITY_SELECT,
      id: true,
      name: true,
      participantAnalysis: true,
      _count: { select: { datasets: true } },
      task: {
        select: {
          slug: true,
          title: true,
          evaluationProfile: true,
          mentionMatching: true,
          keepSingletons: true,
          zeroMatching: true,
          pronounExclusions: true,
          pronounLexicon: true,
        },
      },
    },
  },
} as const;

/** One dataset's stored analysis (a RunAnalysis row), as {@link mergeRunAnalyses} takes it. */
export interface DatasetAnalysis {
  /** the dataset's name on a phase with several datasets, else null */
  dataset: string | null;
  errorCounts: ErrorCounts;
  /** per key document, in key order */
  documentErrors: { document: string; counts: ErrorCounts }[];
  disclosure: PronounDisclosure;
}

/** A run's analyses over all its datasets ({@link mergeRunAnalyses}). */
export interface MergedRunAnalysis {
  errorCounts: ErrorCounts;
  /** dataset after dataset (the order of the parts), each in key order */
  documentErrors: { dataset: string | null; document: string; counts: ErrorCounts }[];
  disclosure: PronounDisclosure;
}

/** The counts of a disclosure column or total: rows A, B, C and the correct resolutions. */
type DisclosureCounts = Omit<DisclosureColumn, "form" | "categories">;

/** `a + b`, count by count. */
function addDisclosureCounts(a: DisclosureCounts, b: DisclosureCounts): DisclosureCounts {
  return { raw: a.raw + b.raw, nonReferential: a.nonReferential + b.nonReferential, referential: a.referential + b.referential, correct: a.correct + b.correct };
}

/**
 * Merges a run's per-dataset analyses into one, for the run page. Pure.
 *
 * - Error totals: summed per category (every category of `ERROR_KINDS`; a missing one counts 0).
 * - Documents: concatenated in the order of `parts` (the datasets' order), each tagged with its
 *   part's `dataset`.
 * - Pronoun disclosure: counts summed per pronoun form (rows A, B, C and correct) and in the
 *   totals; one column per form found in any part, in `formOrder` (the task lexicon's order),
 *   forms not in it after those, in the order first seen. The language is the first part's
 *   (every dataset of a task is read with the task's one lexicon).
 *
 * @param parts the datasets' analyses, in the datasets' order
 * @param formOrder the lexicon's forms in order (default: none, first-seen order)
 * @returns the merged totals, documents and disclosure; all zero, with no column and language
 *   "", for no part
 */
export function mergeRunAnalyses(parts: readonly DatasetAnalysis[], formOrder: readonly string[] = []): MergedRunAnalysis {
  const errorTotals = Object.fromEntries(ERROR_KINDS.map((k) => [k, parts.reduce((sum, p) => sum + (p.errorCounts[k] ?? 0), 0)])) as ErrorCounts;
  const documentErrors = parts.flatMap((p) => p.documentErrors.map((d) => ({ dataset: p.dataset, document: d.document, counts: d.counts })));
  const columns = new Map<string, DisclosureColumn>();
  let total: DisclosureCounts = { raw: 0, nonReferential: 0, referential: 0, correct: 0 };
  for (const part of parts) {
    for (const column of part.disclosure.columns) {
      const seen = columns.get(column.form);
      columns.set(column.form, seen ? { ...seen, ...addDisclosureCounts(seen, column) } : { ...column, categories: [...column.categories] });
    }
    total = addDisclosureCounts(total, part.disclosure.total);
  }
  const rank = new Map(formOrder.map((form, i) => [form, i]));
  const firstSeen = [...columns.keys()];
  const position = (form: string) => rank.get(form) ?? formOrder.length + firstSeen.indexOf(form);
  const ordered = [...columns.values()].sort((a, b) => position(a.form) - position(b.form));
  return { errorCounts: errorTotals, documentErrors, disclosure: { language: parts[0]?.disclosure.language ?? "", columns: ordered, total } };
}

/** The stored `documentErrors` of a RunAnalysis row (`[{document, counts}]`), with counts as ErrorCounts. */
function storedDocumentErrors(json: unknown): { document: string; counts: ErrorCounts }[] {
  if (!Array.isArray(json)) return [];
  return (json as { document?: unknown; counts?: unknown }[])
    .filter((d) => typeof d?.document === "string")
    .map((d) => ({ document: d.document as string, counts: errorCounts(d.counts) }));
}

/** The order of relations to a dataset: `DATASET_ORDER` through the `dataset` relation. */
const BY_DATASET = DATASET_ORDER.map((o) => ({ dataset: o }));

/**
 * A run's analyses as the viewer may see them: the per-dataset RunAnalysis rows merged
 * ({@link mergeRunAnalyses}).
 *
 * @param viewer the viewer (null = anonymous)
 * @param submissionId the run (any string: malformed ids are a 404 like unknown ones)
 * @returns the {@link RunAnalysisView}: error counts only where `canViewErrorAnalysis` allows
 * @throws NotFoundError (404) when the run does not exist or the viewer may not see it
 */
export async function getRunAnalysis(viewer: Viewer, submissionId: string): Promise<RunAnalysisView> {
  const db = defaultDb();
  const { submission, canViewErrors } = await loadForViewer(db, viewer, submissionId);
  const rows =
    submission.status === "SCORED"
      ? await db.runAnalysis.findMany({
          where: { submissionId: submission.id },
          orderBy: BY_DATASET,
          select: { errorCounts: true, documentErrors: true, pronounDisclosure: true, dataset: { select: { name: true } } },
        })
      : [];
  const { participantAnalysis } = submission.phase;
  if (rows.length === 0) return { submissionId: submission.id, available: false, canViewErrors, participantAnalysis, errorTotals: null, documents: null, disclosure: null };
  const several = submission.phase._count.datasets > 1;
  const merged = mergeRunAnalyses(
    rows.map((r) => ({
      dataset: several ? r.dataset.name : null,
      errorCounts: errorCounts(r.errorCounts),
      documentErrors: storedDocumentErrors(r.documentErrors),
      disclosure: r.pronounDisclosure as unknown as PronounDisclosure,
    })),
    rows.length > 1 ? pronounFormOrder(submission.phase.task.pronounLexicon) : [],
  );
  const excludedCategories = excludedCategoriesOf(submission.phase.task.pronounExclusions);
  return {
    submissionId: submission.id,
    available: true,
    canViewErrors,
    participantAnalysis,
    errorTotals: canViewErrors ? merged.errorCounts : null,
    documents: canViewErrors ? merged.documentErrors : null,
    disclosure: { ...disclosureTable(merged.disclosure, excludedCategories), language: merged.disclosure.language, excludedCategories },
  };
}

/** One document of a run, with key and response mentions and the errors between them. */
export interface DocumentAnalysisView {
  submission: {
    id: string;
    systemName: string;
    team: { id: string; name: string };
    task: { slug: string; title: string };
    phase: { id: string; name: string };
    /** the gold key version of the document's dataset that the run was scored against */
    goldVersion: number;
  };
  /** the dataset holding the document on a phase with several datasets; null on a phase with one */
  dataset: { id: string; name: string } | null;
  document: { id: string; tokens: string[]; sentenceStarts: number[] };
  /** key entities as scored (singletons dropped when the task does not keep them) */
  key: Entity[];
  /** response entities as scored; empty when the run lacks the document (or the whole dataset) */
  response: Entity[];
  missingInResponse: boolean;
  counts: ErrorCounts;
  /** the errors, in document order of their first mention */
  errors: CorefError[];
  /** the document's scores (counts and fractions), when stored */
  scores: MetricsJson | null;
  /** the key's document ids in order (of the document's dataset), for navigation */
  documentIds: string[];
}

/** The gold version recorded for a dataset in a run's evaluation record (`RunEvaluation.datasets`), or null. */
function recordedGoldVersion(evaluation: unknown, datasetId: string): number | null {
  const datasets = (evaluation as { datasets?: unknown } | null)?.datasets;
  if (!Array.isArray(datasets)) return null;
  const entry = (datasets as { id?: unknown; goldVersion?: unknown }[]).find((d) => d?.id === datasetId);
  return typeof entry?.goldVersion === "number" ? entry.goldVersion : null;
}

/**
 * One document's error view. The document is looked up in one dataset of the run's phase:
 * the one named (`dataset`), else the only one, else the first (in the phase's order) whose
 * stored analysis lists the document. Parses that dataset's gold key version the run was
 * scored against (`submission_files.gold_key_id`; for a dataset the run left out, the version
 * in its evaluation record, read against an empty response) and the run's file for the
 * dataset; both parses are kept in a small in-process cache keyed by checksum.
 *
 * @param viewer the viewer
 * @param submissionId the run
 * @param documentId a key document id (as in DocumentScore rows and `RunAnalysisView.documents`)
 * @param dataset the dataset's name (documents are named within a dataset; optional on a phase with one)
 * @returns the {@link DocumentAnalysisView}
 * @throws NotFoundError (404) when the run, the dataset or the document does not exist, the
 *   run is not scored, or the viewer may not see the run's error analysis (the same answer in
 *   each case, so that what exists stays unknown to those who may not see it)
 */
export async function getDocumentAnalysis(viewer: Viewer, submissionId: string, documentId: string, dataset?: string | null): Promise<DocumentAnalysisView> {
  const db = defaultDb();
  const { submission, canViewErrors } = await loadForViewer(db, viewer, submissionId);
  const notFound = new NotFoundError("No such document analysis.");
  if (!canViewErrors || submission.status !== "SCORED") throw notFound;
  const several = submission.phase._count.datasets > 1;
  const candidates = await db.dataset.findMany({
    where: { phaseId: submission.phase.id, ...(dataset ? { name: dataset } : {}) },
    orderBy: DATASET_ORDER,
    select: {
      id: true,
      name: true,
      submissionFiles: { where: { submissionId: submission.id }, select: { goldKeyId: true } },
      analyses: { where: { submissionId: submission.id }, select: { documentErrors: true } },
    },
  });
  const holder =
    candidates.length === 1
      ? candidates[0]
      : candidates.find((d) => d.analyses.some((a) => storedDocumentErrors(a.documentErrors).some((e) => e.document === documentId)));
  if (!holder) throw notFound;
  const hasFile = holder.submissionFiles.length > 0;
  const goldKeyId = holder.submissionFiles[0]?.goldKeyId ?? null;
  const version = recordedGoldVersion(submission.evaluation, holder.id) ?? (several ? null : submission.goldVersion);
  const goldSelect = { version: true, fileName: true, sha256: true, gzip: true } as const;
  const gold = goldKeyId
    ? await db.goldKey.findUnique({ where: { id: goldKeyId }, select: goldSelect })
    : version !== null
      ? await db.goldKey.findUnique({ where: { datasetId_version: { datasetId: holder.id, version } }, select: goldSelect })
      : null;
  const file = hasFile
    ? await db.submissionFile.findUnique({
        where: { submissionId_datasetId: { submissionId: submission.id, datasetId: holder.id } },
        select: { fileName: true, sha256: true, gzip: true },
      })
    : null;
  const run = await db.submission.findUnique({ where: { id: submission.id }, select: { systemName: true, team: { select: { id: true, name: true } } } });
  if (!gold || !run || (hasFile && !file)) throw notFound;
  const key = parseStored(gold);
  const keyDoc = key.documents.find((d) => d.id === documentId);
  if (!keyDoc) throw notFound;
  const responseDoc = file ? parseStored(file).documents.find((d) => d.id === documentId) : undefined;
  // The singleton rule of the run's primary setting (the worker's analysis follows the same).
  const removeSingletons = taskEvaluationProfile(submission.phase.task).primary.removeSingletons;
  const scorable = (entities: Entity[]) => (removeSingletons ? entities.filter((e) => e.length > 1) : entities);
  const keyEntities = scorable(keyDoc.entities);
  const responseEntities = scorable(responseDoc?.entities ?? []);
  const { counts, errors } = analyzeDocumentErrors(keyEntities, responseEntities);
  const scoreRows = await db.documentScore.findMany({ where: { submissionId: submission.id, datasetId: holder.id, document: documentId } });
  return {
    submission: {
      id: submission.id,
      systemName: run.systemName,
      team: run.team,
      task: { slug: submission.phase.task.slug, title: submission.phase.task.title },
      phase: { id: submission.phase.id, name: submission.phase.name },
      goldVersion: gold.version,
    },
    dataset: several ? { id: holder.id, name: holder.name } : null,
    document: { id: keyDoc.id, tokens: keyDoc.tokens, sentenceStarts: keyDoc.sentenceStarts },
    key: keyEntities,
    response: responseEntities,
    missingInResponse: !responseDoc,
    counts,
    errors,
    scores: scoreRows.length > 0 ? documentScoresToJson(scoreRows, blancRuleForGold(gold.fileName))[0].metrics : null,
    documentIds: key.documents.map((d) => d.id),
  };
}

/** The submission with the facts the permissions need, or a 404. */
async function loadForViewer(db: Db, viewer: Viewer, submissionId: string) {
  const submission = isUuid(submissionId) ? await db.submission.findUnique({ where: { id: submissionId }, select: ACCESS_SELECT }) : null;
  const access = submission ? await submissionAccess(viewer, submission, db) : null;
  if (!submission || !access?.visible) throw new NotFoundError("No such submission.");
  return { submission, canViewErrors: await canViewErrorAnalysis(access, submission.phase) };
}

/** Stored counts as ErrorCounts (missing kinds as 0). */
function errorCounts(json: unknown): ErrorCounts {
  const source = (json ?? {}) as Partial<Record<string, unknown>>;
  return Object.fromEntries(ERROR_KINDS.map((k) => [k, typeof source[k] === "number" ? source[k] : 0])) as ErrorCounts;
}

/** Parsed stored files by sha256; a few corpora at most. */
const parsed = new LRUCache<string, Corpus>({ max: 4 });

/**
 * A stored file (gzip, checked against its sha256) parsed with the upload limits. Stored
 * files were parsed when uploaded, so a failure here is a platform fault and is thrown.
 */
function parseStored(stored: { fileName: string; sha256: string; gzip: Uint8Array }): Corpus {
  const hit = parsed.get(stored.sha256);
  if (hit) return hit;
  const corpus = readCorpus(unpackFile(stored.gzip, stored.sha256), stored.fileName, { limits: DEFAULT_LIMITS });
  parsed.set(stored.sha256, corpus);
  return corpus;
}
