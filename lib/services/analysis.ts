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
 */
import { NotFoundError } from "../errors";
import { canViewErrorAnalysis, submissionAccess, type Viewer } from "../permissions";
import { unpackFile } from "../storage";
import { defaultDb, isUuid, type Db, type ParticipantAnalysis } from "./db";
import { taskEvaluationProfile } from "../evaluation";
import { RecentlyUsed } from "../recently-used";
import { blancRuleForGold, documentScoresToJson, type MetricsJson } from "./scores";
import {
  analyzeDocumentErrors,
  disclosureTable,
  ERROR_KINDS,
  type CorefError,
  type DisclosureTable,
  type ErrorCounts,
  type PronounDisclosure,
} from "../../scoring/analysis/index";
import { DEFAULT_LIMITS, readCorpus } from "../../scoring/formats/index";
import type { Corpus, Entity } from "../../scoring/index";
import { excludedCategoriesOf } from "./task-analysis";

export type { CorefError, DisclosureTable, ErrorCounts, ErrorKind } from "../../scoring/analysis/index";
/** The error categories in display order (for pages, which do not import scoring/). */
export { ERROR_KINDS } from "../../scoring/analysis/index";

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
  /** per key document (key order); null when not available or not allowed */
  documents: { document: string; counts: ErrorCounts }[] | null;
  /** the standard disclosure with the task's exclusions applied; null when not available */
  disclosure: (DisclosureTable & { language: string; excludedCategories: string[] }) | null;
}

/** Facts about a submission that the analysis permissions need. */
const ACCESS_SELECT = {
  id: true,
  status: true,
  teamId: true,
  visibility: true,
  goldVersion: true,
  phase: {
    select: {
      id: true,
      name: true,
      taskId: true,
      leaderboardVisibility: true,
      participantAnalysis: true,
      task: {
        select: {
          slug: true,
          title: true,
          evaluationProfile: true,
          mentionMatching: true,
          keepSingletons: true,
          zeroMatching: true,
          pronounExclusions: true,
        },
      },
    },
  },
} as const;

/**
 * A run's analyses as the viewer may see them.
 *
 * @param viewer the viewer (null = anonymous)
 * @param submissionId the run (any string: malformed ids are a 404 like unknown ones)
 * @returns the {@link RunAnalysisView}: error counts only where `canViewErrorAnalysis` allows
 * @throws NotFoundError (404) when the run does not exist or the viewer may not see it
 */
export async function getRunAnalysis(viewer: Viewer, submissionId: string): Promise<RunAnalysisView> {
  const db = defaultDb();
  const { submission, canViewErrors } = await loadForViewer(db, viewer, submissionId);
  const row = submission.status === "SCORED" ? await db.runAnalysis.findUnique({ where: { submissionId: submission.id } }) : null;
  const { participantAnalysis } = submission.phase;
  if (!row) return { submissionId: submission.id, available: false, canViewErrors, participantAnalysis, errorTotals: null, documents: null, disclosure: null };
  const disclosure = row.pronounDisclosure as unknown as PronounDisclosure;
  const excludedCategories = excludedCategoriesOf(submission.phase.task.pronounExclusions);
  return {
    submissionId: submission.id,
    available: true,
    canViewErrors,
    participantAnalysis,
    errorTotals: canViewErrors ? errorCounts(row.errorCounts) : null,
    documents: canViewErrors
      ? (row.documentErrors as { document: string; counts: unknown }[]).map((d) => ({ document: d.document, counts: errorCounts(d.counts) }))
      : null,
    disclosure: { ...disclosureTable(disclosure, excludedCategories), language: disclosure.language, excludedCategories },
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
    goldVersion: number;
  };
  document: { id: string; tokens: string[]; sentenceStarts: number[] };
  /** key entities as scored (singletons dropped when the task does not keep them) */
  key: Entity[];
  /** response entities as scored; empty when the run lacks the document */
  response: Entity[];
  missingInResponse: boolean;
  counts: ErrorCounts;
  /** the errors, in document order of their first mention */
  errors: CorefError[];
  /** the document's scores (counts and fractions), when stored */
  scores: MetricsJson | null;
  /** the key's document ids in order, for navigation */
  documentIds: string[];
}

/**
 * One document's error view. Parses the stored gold key (the version that scored the run)
 * and the run's file; both parses are kept in a small in-process cache keyed by checksum.
 *
 * @param viewer the viewer
 * @param submissionId the run
 * @param documentId a key document id (as in DocumentScore rows and `RunAnalysisView.documents`)
 * @returns the {@link DocumentAnalysisView}
 * @throws NotFoundError (404) when the run or the document does not exist, the run is not
 *   scored, or the viewer may not see the run's error analysis (the same answer in each
 *   case, so that what exists stays unknown to those who may not see it)
 */
export async function getDocumentAnalysis(viewer: Viewer, submissionId: string, documentId: string): Promise<DocumentAnalysisView> {
  const db = defaultDb();
  const { submission, canViewErrors } = await loadForViewer(db, viewer, submissionId);
  const notFound = new NotFoundError("No such document analysis.");
  if (!canViewErrors || submission.status !== "SCORED" || submission.goldVersion === null) throw notFound;
  const gold = await db.goldKey.findUnique({
    where: { phaseId_version: { phaseId: submission.phase.id, version: submission.goldVersion } },
    select: { fileName: true, sha256: true, gzip: true },
  });
  const file = await db.submission.findUnique({
    where: { id: submission.id },
    select: { fileName: true, sha256: true, gzip: true, systemName: true, team: { select: { id: true, name: true } } },
  });
  if (!gold || !file) throw notFound;
  const key = parseStored(gold);
  const keyDoc = key.documents.find((d) => d.id === documentId);
  if (!keyDoc) throw notFound;
  const response = parseStored(file);
  const responseDoc = response.documents.find((d) => d.id === documentId);
  // The singleton rule of the run's primary setting (the worker's analysis follows the same).
  const removeSingletons = taskEvaluationProfile(submission.phase.task).primary.removeSingletons;
  const scorable = (entities: Entity[]) => (removeSingletons ? entities.filter((e) => e.length > 1) : entities);
  const keyEntities = scorable(keyDoc.entities);
  const responseEntities = scorable(responseDoc?.entities ?? []);
  const { counts, errors } = analyzeDocumentErrors(keyEntities, responseEntities);
  const scoreRows = await db.documentScore.findMany({ where: { submissionId: submission.id, document: documentId } });
  return {
    submission: {
      id: submission.id,
      systemName: file.systemName,
      team: file.team,
      task: { slug: submission.phase.task.slug, title: submission.phase.task.title },
      phase: { id: submission.phase.id, name: submission.phase.name },
      goldVersion: submission.goldVersion,
    },
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
const parsed = new RecentlyUsed<string, Corpus>(4);

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
