/**
 * Significance from the stored per-document counts: the paired bootstrap over documents
 * (`scoring/analysis/bootstrap.ts`; Koehn 2004, Berg-Kirkpatrick et al. 2012) for the
 * leaderboard's markers and confidence intervals, and the comparison of any two runs.
 *
 * Nothing here reads gold or submitted files: the DocumentScore rows written by the worker
 * hold every count the bootstrap needs.
 */
import { NotFoundError, ValidationError } from "../errors";
import { canViewDocumentScores, canViewErrorAnalysis, canViewLeaderboard, submissionAccess, type Viewer } from "../permissions";
import {
  BOOTSTRAP_SEED,
  bootstrapInterval,
  DEFAULT_BOOTSTRAP_SAMPLES,
  pairedBootstrap,
  type DocumentCounts,
  type PairedBootstrapResult,
  type RunDocuments,
} from "../../scoring/analysis/index";
import type { BlancRule } from "../../scoring/index";
import { defaultDb, isUuid, type Db, type Prisma } from "./db";
import type { Leaderboard } from "./leaderboard";
import { BLANC_COREF, BLANC_NONCOREF, blancRuleForRun, documentScoresToJson, scoresToJson, type MetricsJson } from "./scores";
import type { LeaderboardMetric } from "../validations/metrics";

/** Significance level of the leaderboard's markers. */
export const SIGNIFICANCE_LEVEL = 0.05;

/**
 * Per-document counts of several runs from their DocumentScore rows.
 *
 * @param submissionIds the runs
 * @returns run id → (document id → counts: one `Counts` per count metric, and `blanc` as
 *   `{coref, noncoref}` link counts); runs without rows are absent
 */
export async function loadRunDocuments(submissionIds: readonly string[], db: Db = defaultDb()): Promise<Map<string, RunDocuments>> {
  const rows = submissionIds.length
    ? await db.documentScore.findMany({ where: { submissionId: { in: [...submissionIds] } } })
    : [];
  const runs = new Map<string, Map<string, DocumentCounts>>();
  for (const r of rows) {
    let docs = runs.get(r.submissionId);
    if (!docs) runs.set(r.submissionId, (docs = new Map()));
    let doc = docs.get(r.document) as Record<string, unknown> | undefined;
    if (!doc) docs.set(r.document, (doc = {}) as DocumentCounts);
    const counts = { recallNum: r.recallNum, recallDen: r.recallDen, precisionNum: r.precisionNum, precisionDen: r.precisionDen };
    if (r.metric === BLANC_COREF || r.metric === BLANC_NONCOREF) {
      const blanc = (doc.blanc ??= {}) as Record<string, unknown>;
      blanc[r.metric === BLANC_COREF ? "coref" : "noncoref"] = counts;
    } else {
      doc[r.metric] = counts;
    }
  }
  return runs;
}

/** A leaderboard row's significance facts. */
export interface RowSignificance {
  /**
   * The paired bootstrap against the run listed directly above (the nearest row above with a
   * value for the metric, baselines included as reference points); null for the first such
   * row, rows without the metric, or when the two were scored against different gold versions.
   */
  versusAbove: { submissionId: string; delta: number; pValue: number; significant: boolean } | null;
  /** 95 % bootstrap interval of the ranking metric's F1 (fractions), when asked for */
  interval: { lo: number; hi: number } | null;
}

/** The significance facts of a leaderboard. */
export interface BoardSignificance {
  metric: LeaderboardMetric;
  samples: number;
  seed: number;
  level: number;
  /** by submission id, for the rows with a value for the metric */
  rows: Record<string, RowSignificance>;
}

/**
 * Significance markers for a leaderboard the viewer may already see: each listed run with a
 * value for the board's ranking metric is compared with the run listed directly above it
 * (see {@link RowSignificance}) by the paired bootstrap over documents, on that metric;
 * `intervals` adds each run's 95 % interval.
 *
 * @param board from `getLeaderboard` (which checked the viewer's access)
 * @param options `intervals` (default false); `samples` (default 1,000)
 * @returns {@link BoardSignificance}; p-values are two-sided, marked significant when below
 *   {@link SIGNIFICANCE_LEVEL}
 */
export async function boardSignificance(
  board: Pick<Leaderboard, "metric" | "rows" | "phase">,
  options: { intervals?: boolean; samples?: number } = {},
): Promise<BoardSignificance> {
  const samples = options.samples ?? DEFAULT_BOOTSTRAP_SAMPLES;
  const listed = board.rows.filter((r) => r.value !== null);
  const documents = await loadRunDocuments(listed.map((r) => r.submissionId));
  // Each run's BLANC rule is that of the gold version it was scored against.
  const rules = new Map<number, BlancRule>();
  for (const row of listed) {
    if (row.goldVersion !== null && !rules.has(row.goldVersion)) {
      rules.set(row.goldVersion, await blancRuleForRun(defaultDb(), { phaseId: board.phase.id, goldVersion: row.goldVersion }));
    }
  }
  const blancRuleOf = (goldVersion: number | null): BlancRule => (goldVersion === null ? "reference" : (rules.get(goldVersion) ?? "reference"));
  const rows: Record<string, RowSignificance> = {};
  listed.forEach((row, i) => {
    const docs = documents.get(row.submissionId);
    const above = i > 0 ? listed[i - 1] : null;
    const aboveDocs = above ? documents.get(above.submissionId) : undefined;
    let versusAbove: RowSignificance["versusAbove"] = null;
    if (above && docs && aboveDocs && above.goldVersion === row.goldVersion) {
      const result = pairedBootstrap(aboveDocs, docs, { samples, blancRule: blancRuleOf(row.goldVersion) });
      const m = result.metrics.find((x) => x.metric === board.metric);
      if (m) versusAbove = { submissionId: above.submissionId, delta: m.delta, pValue: m.pValue, significant: m.pValue < SIGNIFICANCE_LEVEL };
    }
    let interval: RowSignificance["interval"] = null;
    if (options.intervals && docs) {
      const ci = bootstrapInterval(docs, board.metric, { samples, blancRule: blancRuleOf(row.goldVersion) });
      interval = { lo: ci.lo, hi: ci.hi };
    }
    rows[row.submissionId] = { versusAbove, interval };
  });
  return { metric: board.metric, samples, seed: BOOTSTRAP_SEED, level: SIGNIFICANCE_LEVEL, rows };
}

/** One side of a comparison. */
export interface ComparedRun {
  id: string;
  systemName: string;
  team: { id: string; name: string };
  submittedAt: Date;
  goldVersion: number;
  scores: MetricsJson;
  /** the viewer may open this run's document error views */
  canViewErrors: boolean;
}

/** Two runs of one phase compared. */
export interface RunComparison {
  task: { slug: string; title: string; primaryMetric: string };
  phase: { id: string; name: string };
  a: ComparedRun;
  b: ComparedRun;
  /** per metric: F1 of a and b, delta = a − b, two-sided p-value and 95 % interval of the delta */
  bootstrap: PairedBootstrapResult;
  /** the metric of the per-document table (the task's primary metric) */
  documentMetric: string;
  /** per document: F1 of a and b and the delta, largest |delta| first; null when the viewer may not see both runs' per-document scores (`canViewDocumentScores`) */
  documents: { document: string; a: number; b: number; delta: number }[] | null;
}

/**
 * Compares two scored runs of one phase: the paired bootstrap on every metric and the
 * per-document differences on the task's primary metric.
 *
 * @param viewer the viewer; must be allowed to see both runs
 * @param aId first run (A); deltas are A − B
 * @param bId second run (B)
 * @param options `samples` (default 1,000)
 * @returns the {@link RunComparison}; per-document deltas only when the viewer may see both
 *   runs' per-document scores (`canViewDocumentScores`: the organizers; whoever may see the
 *   runs' error analysis; the runs' own team, except on a hidden phase without
 *   `teamDocumentScores`). The bootstrap's p-values and intervals are corpus-level and shown
 *   to everyone who may see both runs.
 * @throws NotFoundError (404) when either run does not exist or is hidden from the viewer;
 *   ValidationError (422) when the runs are the same, of different phases, not both scored,
 *   or scored against different gold versions
 */
export async function compareRuns(viewer: Viewer, aId: string, bId: string, options: { samples?: number } = {}): Promise<RunComparison> {
  const db = defaultDb();
  const load = async (id: string) => {
    const s = isUuid(id)
      ? await db.submission.findUnique({
          where: { id },
          select: {
            id: true,
            status: true,
            systemName: true,
            teamId: true,
            visibility: true,
            createdAt: true,
            goldVersion: true,
            team: { select: { id: true, name: true } },
            scores: { where: { variant: "" } },
            phase: {
              select: {
                id: true,
                name: true,
                taskId: true,
                leaderboardVisibility: true,
                participantAnalysis: true,
                teamDocumentScores: true,
                task: { select: { slug: true, title: true, primaryMetric: true } },
              },
            },
          },
        })
      : null;
    const access = s ? await submissionAccess(viewer, s, db) : null;
    if (!s || !access?.visible) throw new NotFoundError("No such submission.");
    return { s, access };
  };
  const a = await load(aId);
  const b = await load(bId);
  if (a.s.id === b.s.id) throw new ValidationError("Choose two different runs to compare.");
  if (a.s.phase.id !== b.s.phase.id) throw new ValidationError("Only runs of the same phase can be compared: they must be scored on the same documents.");
  if (a.s.status !== "SCORED" || b.s.status !== "SCORED" || a.s.goldVersion === null || b.s.goldVersion === null) {
    throw new ValidationError("Both runs must be scored before they can be compared.");
  }
  if (a.s.goldVersion !== b.s.goldVersion) {
    throw new ValidationError(`The runs were scored against different gold key versions (${a.s.goldVersion} and ${b.s.goldVersion}); compare them once both are re-scored.`);
  }
  const documents = await loadRunDocuments([a.s.id, b.s.id], db);
  const aDocs = documents.get(a.s.id);
  const bDocs = documents.get(b.s.id);
  if (!aDocs || !bDocs) throw new ValidationError("These runs have no per-document counts to compare.");
  const phase = a.s.phase;
  // Both runs were scored against the same gold version (checked above), so one BLANC rule.
  const blancRule = await blancRuleForRun(db, { phaseId: phase.id, goldVersion: a.s.goldVersion });
  const bootstrap = pairedBootstrap(aDocs, bDocs, { samples: options.samples, blancRule });

  const documentMetric = phase.task.primaryMetric;
  let perDocument: RunComparison["documents"] = null;
  if ((await canViewDocumentScores(a.access, phase)) && (await canViewDocumentScores(b.access, phase))) {
    const rows = await db.documentScore.findMany({ where: { submissionId: { in: [a.s.id, b.s.id] } } });
    const f1 = (id: string) =>
      new Map(documentScoresToJson(rows.filter((r) => r.submissionId === id), blancRule).map((d) => [d.document, valueOf(d.metrics, documentMetric)]));
    const fa = f1(a.s.id);
    const fb = f1(b.s.id);
    perDocument = [...fa.keys()]
      .filter((d) => fb.has(d))
      .map((document) => ({ document, a: fa.get(document)!, b: fb.get(document)!, delta: fa.get(document)! - fb.get(document)! }))
      .sort((x, y) => Math.abs(y.delta) - Math.abs(x.delta) || x.document.localeCompare(y.document));
  }
  const side = async (x: typeof a): Promise<ComparedRun> => ({
    id: x.s.id,
    systemName: x.s.systemName,
    team: x.s.team,
    submittedAt: x.s.createdAt,
    goldVersion: x.s.goldVersion!,
    scores: scoresToJson(x.s.scores),
    canViewErrors: await canViewErrorAnalysis(x.access, phase),
  });
  return {
    task: phase.task,
    phase: { id: phase.id, name: phase.name },
    a: await side(a),
    b: await side(b),
    bootstrap,
    documentMetric,
    documents: perDocument,
  };
}

/** A metric's F1 in a MetricsJson (0 when absent). */
function valueOf(metrics: MetricsJson, metric: string): number {
  return (metrics as Record<string, { f1: number } | undefined>)[metric]?.f1 ?? 0;
}

/** A run another run can be compared with. */
export interface ComparableRun {
  id: string;
  systemName: string;
  team: string;
  submittedAt: Date;
  isBaseline: boolean;
}

/**
 * The scored runs of the same phase, with the same gold version, that the viewer may see
 * and could compare a run with: every one for organizers; otherwise the public runs when the
 * phase's leaderboard is visible to the viewer, and the runs of the viewer's own teams.
 *
 * @param viewer the viewer
 * @param submissionId the run being compared
 * @returns newest first, at most 200; empty when the run is not scored
 * @throws NotFoundError (404) when the run does not exist or the viewer may not see it
 */
export async function listComparableRuns(viewer: Viewer, submissionId: string): Promise<ComparableRun[]> {
  const db = defaultDb();
  const s = isUuid(submissionId)
    ? await db.submission.findUnique({
        where: { id: submissionId },
        select: { id: true, status: true, teamId: true, visibility: true, goldVersion: true, phase: { select: { id: true, taskId: true, leaderboardVisibility: true } } },
      })
    : null;
  const access = s ? await submissionAccess(viewer, s, db) : null;
  if (!s || !access?.visible) throw new NotFoundError("No such submission.");
  if (s.status !== "SCORED" || s.goldVersion === null) return [];
  const boardVisible = await canViewLeaderboard(viewer, s.phase, db);
  // Organizers: no visibility condition (Prisma matches nothing for `OR: [{}]`).
  const visibleTo: Prisma.SubmissionWhereInput[] | null = access.isOrganizer
    ? null
    : [
        ...(boardVisible ? [{ visibility: "PUBLIC" as const }] : []),
        ...(viewer ? [{ team: { members: { some: { userId: viewer.userId } } } }] : []),
      ];
  if (visibleTo?.length === 0) return [];
  const rows = await db.submission.findMany({
    where: { phaseId: s.phase.id, status: "SCORED", goldVersion: s.goldVersion, id: { not: s.id }, ...(visibleTo ? { OR: visibleTo } : {}) },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: 200,
    select: { id: true, systemName: true, createdAt: true, isBaseline: true, team: { select: { name: true } } },
  });
  return rows.map((r) => ({ id: r.id, systemName: r.systemName, team: r.team.name, submittedAt: r.createdAt, isBaseline: r.isBaseline }));
}
