/**
 * Significance from the stored per-document counts: the paired bootstrap over documents
 * (`scoring/analysis/bootstrap.ts`; Koehn 2004, Berg-Kirkpatrick et al. 2012) for the
 * leaderboard's markers and confidence intervals, and the comparison of any two runs.
 *
 * On a phase with several datasets (issue 10 §4) the phase-level score is the macro-average over
 * the datasets with an active gold key, so its bootstrap resamples the documents within each
 * dataset (`stratifiedPairedBootstrap`), a dataset a run left out counting 0 in every sample.
 * A dataset's own board (or the phase-level board ranked by one dataset) uses the ordinary
 * paired bootstrap over that dataset's documents. DocumentScore rows carry their dataset.
 *
 * Nothing here reads gold or submitted files: the DocumentScore rows written by the worker
 * hold every count the bootstrap needs.
 */
import { NotFoundError, ValidationError } from "../errors";
import { boardHiddenUntilClose, canViewDocumentScores, canViewErrorAnalysis, canViewLeaderboard, PHASE_VISIBILITY_SELECT, submissionAccess, SUBMISSION_VISIBILITY_SELECT, type Viewer } from "../permissions";
import {
  BOOTSTRAP_SEED,
  DEFAULT_BOOTSTRAP_SAMPLES,
  stratifiedBootstrapInterval,
  stratifiedPairedBootstrap,
  type DocumentCounts,
  type PairedBootstrapResult,
  type RunDocuments,
  type Stratum,
} from "../../scoring/analysis";
import type { BlancRule } from "../../scoring";
import { listDatasets } from "../tasks";
import { defaultDb, isUuid, type Db, type DocumentScore, type Prisma } from "../db";
import type { BoardDataset, BoardSignificance, Leaderboard, LeaderboardRow, RowSignificance } from "./types";
import { BLANC_COREF, BLANC_NONCOREF, blancRuleForGold, documentScoresToJson, macroScoresToJson, scoresToJson, type BoardMetricsJson, type MetricsJson } from "./scores";

/** Significance level of the leaderboard's markers. */
export const SIGNIFICANCE_LEVEL = 0.05;

/**
 * Per-document counts of several runs from their DocumentScore rows, per dataset.
 *
 * @param submissionIds the runs
 * @param db client or transaction (default: the shared client)
 * @param datasetIds only these datasets (default: all)
 * @returns run id → dataset id → (document id → counts: one `Counts` per count metric, and
 *   `blanc` as `{coref, noncoref}` link counts); runs and datasets without rows are absent
 */
export async function loadRunDatasetDocuments(
  submissionIds: readonly string[],
  db: Db = defaultDb(),
  datasetIds?: readonly string[],
): Promise<Map<string, Map<string, RunDocuments>>> {
  return groupDocumentRows(await documentScoreRows(submissionIds, db, datasetIds));
}

/** The DocumentScore rows of the runs (on the datasets, when given). */
async function documentScoreRows(submissionIds: readonly string[], db: Db, datasetIds?: readonly string[]): Promise<DocumentScore[]> {
  if (submissionIds.length === 0) return [];
  return db.documentScore.findMany({
    where: { submissionId: { in: [...submissionIds] }, ...(datasetIds ? { datasetId: { in: [...datasetIds] } } : {}) },
  });
}

/** DocumentScore rows grouped as {@link loadRunDatasetDocuments} returns them. */
function groupDocumentRows(rows: readonly DocumentScore[]): Map<string, Map<string, RunDocuments>> {
  const runs = new Map<string, Map<string, Map<string, DocumentCounts>>>();
  for (const r of rows) {
    let datasets = runs.get(r.submissionId);
    if (!datasets) runs.set(r.submissionId, (datasets = new Map()));
    let docs = datasets.get(r.datasetId);
    if (!docs) datasets.set(r.datasetId, (docs = new Map()));
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

/**
 * Per-document counts of several runs from their DocumentScore rows, all datasets together
 * (for a phase with one dataset; on several, document names may repeat across datasets: use
 * {@link loadRunDatasetDocuments}).
 *
 * @param submissionIds the runs
 * @returns run id → (document id → counts); runs without rows are absent
 */
export async function loadRunDocuments(submissionIds: readonly string[], db: Db = defaultDb()): Promise<Map<string, RunDocuments>> {
  const grouped = await loadRunDatasetDocuments(submissionIds, db);
  return new Map([...grouped].map(([id, datasets]) => [id, new Map([...datasets.values()].flatMap((docs) => [...docs]))]));
}

/**
 * BLANC's rule of each gold key version of a phase's datasets (`blancRuleForGold` of its file name).
 *
 * @returns a lookup (dataset id, version) → rule; `reference` for an unknown version or none
 */
async function blancRules(phaseId: string, db: Db): Promise<(datasetId: string, version: number | null) => BlancRule> {
  const golds = await db.goldKey.findMany({ where: { phaseId }, select: { datasetId: true, version: true, fileName: true } });
  const rules = new Map(golds.map((g) => [`${g.datasetId}:${g.version}`, blancRuleForGold(g.fileName)]));
  return (datasetId, version) => (version === null ? "reference" : (rules.get(`${datasetId}:${version}`) ?? "reference"));
}

/** A run on one dataset, as the bootstrap needs it: left out, or its gold version and documents (absent: none stored). */
type RunOnDataset = { missing: true } | { missing: false; goldVersion: number | null; documents: RunDocuments | undefined };

/**
 * The strata of a paired bootstrap of two runs over `datasets` (in order), or null when they
 * cannot be compared: a run present on a dataset without stored documents, or both present
 * with different gold versions.
 */
function pairedStrata(
  datasets: readonly BoardDataset[],
  a: (d: BoardDataset) => RunOnDataset,
  b: (d: BoardDataset) => RunOnDataset,
  ruleOf: (datasetId: string, version: number | null) => BlancRule,
): Stratum[] | null {
  const strata: Stratum[] = [];
  for (const d of datasets) {
    const x = a(d);
    const y = b(d);
    if ((!x.missing && !x.documents) || (!y.missing && !y.documents)) return null;
    if (!x.missing && !y.missing && x.goldVersion !== y.goldVersion) return null;
    const version = !x.missing ? x.goldVersion : !y.missing ? y.goldVersion : null;
    strata.push({ a: x.missing ? null : x.documents!, b: y.missing ? null : y.documents!, blancRule: ruleOf(d.id, version) });
  }
  return strata.some((st) => st.a !== null || st.b !== null) ? strata : null;
}

/**
 * Significance markers for a leaderboard the viewer may already see: each listed run with a
 * value for the board's ranking metric (disqualified rows excepted: they are struck through,
 * unranked, and compared with nothing) is compared with the run listed directly above it
 * (see {@link RowSignificance}) by the paired bootstrap over documents, on that metric;
 * `intervals` adds each run's 95 % interval.
 *
 * What is resampled follows what the board ranks: on a phase with one dataset, its documents;
 * on the phase-level board of a phase with several datasets, the macro-average over the
 * datasets with an active gold key, resampled within each dataset (`stratifiedPairedBootstrap`;
 * a dataset a run left out counts 0 in every sample); on a dataset's board, or the phase-level
 * board ranked by one dataset, that dataset's documents (a run that left it out is compared
 * as 0 on it). Two runs scored against different gold versions of a dataset are not compared.
 * The caller leaves boards ranked by a variant out (per-document counts are stored for the
 * primary setting only). A board hidden until the phase closes (`policy.ownTeamOnly`: the
 * viewer's own runs and the baselines, unranked) gets no markers: ranks, and how runs compare
 * with the runs around them, appear when the phase closes.
 *
 * @param board from `getLeaderboard` (which checked the viewer's access)
 * @param options `intervals` (default false); `samples` (default 1,000)
 * @returns {@link BoardSignificance}; p-values are two-sided, marked significant when below
 *   {@link SIGNIFICANCE_LEVEL}
 */
export async function boardSignificance(
  board: Pick<Leaderboard, "metric" | "rows" | "phase"> & Partial<Pick<Leaderboard, "datasets" | "dataset" | "rankDataset" | "policy">>,
  options: { intervals?: boolean; samples?: number } = {},
): Promise<BoardSignificance> {
  const db = defaultDb();
  const samples = options.samples ?? DEFAULT_BOOTSTRAP_SAMPLES;
  // Disqualified (and, for organizers, hidden) rows are unranked: no marker for them, and none
  // against them. A board hidden until the close has no markers at all.
  const listed = board.policy?.ownTeamOnly ? [] : board.rows.filter((r) => r.value !== null && !r.disqualified && !r.hidden);
  const datasets: BoardDataset[] =
    board.datasets ?? (await listDatasets(board.phase.id, db)).map((d) => ({ id: d.id, name: d.name, language: d.language, scored: true }));
  const multi = datasets.length > 1;
  // The one dataset the board ranks on (a phase with one dataset: that one), else null: the macro-average.
  const single: BoardDataset | null = !multi ? (datasets[0] ?? null) : (board.dataset ?? datasets.find((d) => d.name === board.rankDataset) ?? null);
  const strataOf: BoardDataset[] = single ? [single] : datasets.filter((d) => d.scored);
  const documents = await loadRunDatasetDocuments(
    listed.map((r) => r.submissionId),
    db,
    strataOf.map((d) => d.id),
  );
  const ruleOf = await blancRules(board.phase.id, db);
  const on = (row: LeaderboardRow) => (d: BoardDataset): RunOnDataset => {
    const docs = documents.get(row.submissionId)?.get(d.id);
    if (!multi) return { missing: false, goldVersion: row.goldVersion, documents: docs };
    if (board.dataset) return row.missing ? { missing: true } : { missing: false, goldVersion: row.goldVersion, documents: docs };
    const entry = row.datasets[d.name];
    return !entry || entry.missing ? { missing: true } : { missing: false, goldVersion: entry.goldVersion, documents: docs };
  };
  const rows: Record<string, RowSignificance> = {};
  listed.forEach((row, i) => {
    const above = i > 0 ? listed[i - 1] : null;
    let versusAbove: RowSignificance["versusAbove"] = null;
    const strata = above ? pairedStrata(strataOf, on(above), on(row), ruleOf) : null;
    if (above && strata) {
      const result = stratifiedPairedBootstrap(strata, { samples });
      const m = result.metrics.find((x) => x.metric === board.metric);
      if (m) versusAbove = { submissionId: above.submissionId, delta: m.delta, pValue: m.pValue, significant: m.pValue < SIGNIFICANCE_LEVEL };
    }
    let interval: RowSignificance["interval"] = null;
    if (options.intervals) {
      const own = strataOf.map(on(row));
      if (own.every((x) => x.missing || x.documents) && own.some((x) => !x.missing)) {
        const ci = stratifiedBootstrapInterval(
          own.map((x) => (x.missing ? null : x.documents!)),
          board.metric,
          { samples, blancRules: own.map((x, k) => ruleOf(strataOf[k].id, x.missing ? null : x.goldVersion)) },
        );
        interval = { lo: ci.lo, hi: ci.hi };
      }
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
  /** the gold version (a phase with one dataset); null on a phase with several datasets (see `datasets`) */
  goldVersion: number | null;
  /** the primary setting's scores (on a phase with several datasets the macro-average, counts null) */
  scores: BoardMetricsJson;
  /** on a phase with several datasets: each dataset counted in the average, in order (absent on a phase with one) */
  datasets?: { name: string; missing: boolean; goldVersion: number | null }[];
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
  /**
   * per document: F1 of a and b and the delta, largest |delta| first (on a phase with several
   * datasets each entry names its `dataset`; documents of a dataset one run left out are not
   * listed); null when the viewer may not see both runs' per-document scores (`canViewDocumentScores`)
   */
  documents: { document: string; dataset?: string; a: number; b: number; delta: number }[] | null;
}

/**
 * A run to compare, when the viewer may see it: its facts, primary Score rows, files and phase,
 * and the viewer's access to it ({@link compareRuns}).
 *
 * @throws NotFoundError (404) for an unknown or malformed id, a run hidden from the viewer, and
 *   a withdrawn run for anyone but its team and the organizers
 */
async function loadComparedRun(db: Db, viewer: Viewer, id: string) {
  const s = isUuid(id)
    ? await db.submission.findUnique({
        where: { id },
        select: {
          id: true,
          status: true,
          systemName: true,
          ...SUBMISSION_VISIBILITY_SELECT,
          goldVersion: true,
          team: { select: { id: true, name: true } },
          scores: { where: { variant: "" } },
          files: { select: { datasetId: true, goldKey: { select: { version: true } } } },
          phase: {
            select: {
              ...PHASE_VISIBILITY_SELECT,
              id: true,
              name: true,
              participantAnalysis: true,
              teamDocumentScores: true,
              task: { select: { slug: true, title: true, primaryMetric: true } },
            },
          },
        },
      })
    : null;
  const access = s ? await submissionAccess(viewer, s, db) : null;
  // A withdrawn run left the board: only its team and the organizers still see it.
  if (!s || !access?.visible || (s.withdrawnAt !== null && !access.isTeamMember && !access.isOrganizer)) throw new NotFoundError("No such submission.");
  return { s, access };
}

/** A run being compared ({@link loadComparedRun}). */
type ComparedRunRecord = Awaited<ReturnType<typeof loadComparedRun>>;

/**
 * Refuses to compare two runs scored against different gold key versions of a dataset (a phase
 * with several datasets; a dataset one run left out is no obstacle).
 *
 * @throws ValidationError (422) naming the dataset and both versions
 */
function assertSameDatasetGold(counted: readonly BoardDataset[], a: (d: BoardDataset) => RunOnDataset, b: (d: BoardDataset) => RunOnDataset): void {
  for (const d of counted) {
    const x = a(d);
    const y = b(d);
    if (!x.missing && !y.missing && x.goldVersion !== y.goldVersion) {
      throw new ValidationError(
        `The runs were scored against different gold key versions of the ${d.name} dataset (${x.goldVersion ?? "none"} and ${y.goldVersion ?? "none"}); compare them once both are re-scored.`,
      );
    }
  }
}

/**
 * A comparison's per-document table: each document both runs have, with each run's F1 on
 * `metric` and the delta (a − b), largest |delta| first (ties: dataset, then document); on a
 * phase with several datasets each entry names its dataset.
 *
 * @param counted the datasets compared, in the order of `strata`
 * @param strata the bootstrap's strata (their BLANC rules; "reference" when a stratum has none)
 * @param rows both runs' DocumentScore rows on those datasets
 * @param ids the runs' ids (a and b)
 */
function documentDeltas(
  counted: readonly BoardDataset[],
  strata: readonly Stratum[],
  rows: readonly DocumentScore[],
  ids: { a: string; b: string },
  metric: string,
  multi: boolean,
): NonNullable<RunComparison["documents"]> {
  return counted
    .flatMap((d, k) => {
      const rule = strata[k].blancRule ?? "reference";
      const f1 = (id: string) =>
        new Map(documentScoresToJson(rows.filter((r) => r.submissionId === id && r.datasetId === d.id), rule).map((doc) => [doc.document, valueOf(doc.metrics, metric)]));
      const fa = f1(ids.a);
      const fb = f1(ids.b);
      return [...fa.keys()]
        .filter((doc) => fb.has(doc))
        .map((document) => ({ document, ...(multi ? { dataset: d.name } : {}), a: fa.get(document)!, b: fb.get(document)!, delta: fa.get(document)! - fb.get(document)! }));
    })
    .sort((x, y) => Math.abs(y.delta) - Math.abs(x.delta) || (x.dataset ?? "").localeCompare(y.dataset ?? "") || x.document.localeCompare(y.document));
}

/**
 * One side of a comparison: the run's facts, its primary scores (the macro-average on a phase
 * with several datasets, with each dataset's gold version or its absence), and whether the
 * viewer may see its error analysis.
 *
 * @param phase the runs' phase (as the first run's record has it)
 * @param on the run on each dataset (as `compareRuns` reads it)
 */
async function comparedSide(
  x: ComparedRunRecord,
  phase: ComparedRunRecord["s"]["phase"],
  counted: readonly BoardDataset[],
  multi: boolean,
  on: (d: BoardDataset) => RunOnDataset,
): Promise<ComparedRun> {
  return {
    id: x.s.id,
    systemName: x.s.systemName,
    team: x.s.team,
    submittedAt: x.s.createdAt,
    goldVersion: multi ? null : x.s.goldVersion,
    scores: multi ? macroScoresToJson(x.s.scores) : scoresToJson(x.s.scores),
    ...(multi
      ? {
          datasets: counted.map((d) => {
            const r = on(d);
            return { name: d.name, missing: r.missing, goldVersion: r.missing ? null : r.goldVersion };
          }),
        }
      : {}),
    canViewErrors: await canViewErrorAnalysis(x.access, phase),
  };
}

/**
 * Compares two scored runs of one phase: the paired bootstrap on every metric and the
 * per-document differences on the task's primary metric. On a phase with several datasets the
 * bootstrap is that of the macro-average over the datasets with an active gold key, resampled
 * within each dataset (a dataset a run left out counts 0; see {@link boardSignificance}).
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
 * @throws NotFoundError (404) when either run does not exist or is hidden from the viewer (a
 *   withdrawn run is hidden from everybody but its team and the organizers);
 *   ValidationError (422) when the runs are the same, of different phases, not both scored,
 *   or scored against different gold versions (of a dataset, named, on a phase with several)
 */
export async function compareRuns(viewer: Viewer, aId: string, bId: string, options: { samples?: number } = {}): Promise<RunComparison> {
  const db = defaultDb();
  const a = await loadComparedRun(db, viewer, aId);
  const b = await loadComparedRun(db, viewer, bId);
  if (a.s.id === b.s.id) throw new ValidationError("Choose two different runs to compare.");
  if (a.s.phase.id !== b.s.phase.id) throw new ValidationError("Only runs of the same phase can be compared: they must be scored on the same documents.");
  const phase = a.s.phase;
  const datasets = await listDatasets(phase.id, db);
  const multi = datasets.length > 1;
  if (a.s.status !== "SCORED" || b.s.status !== "SCORED" || (!multi && (a.s.goldVersion === null || b.s.goldVersion === null))) {
    throw new ValidationError("Both runs must be scored before they can be compared.");
  }
  if (!multi && a.s.goldVersion !== b.s.goldVersion) {
    throw new ValidationError(`The runs were scored against different gold key versions (${a.s.goldVersion} and ${b.s.goldVersion}); compare them once both are re-scored.`);
  }
  const active = new Set((await db.goldKey.findMany({ where: { phaseId: phase.id, active: true }, select: { datasetId: true } })).map((g) => g.datasetId));
  const counted: BoardDataset[] = multi
    ? datasets.filter((d) => active.has(d.id)).map((d) => ({ id: d.id, name: d.name, language: d.language, scored: true }))
    : datasets.map((d) => ({ id: d.id, name: d.name, language: d.language, scored: true }));
  // One read of both runs' per-document rows: the bootstrap's counts and the per-document table.
  const rows = await documentScoreRows([a.s.id, b.s.id], db, counted.map((d) => d.id));
  const documents = groupDocumentRows(rows);
  /** A run on a dataset: left out (no file), else its gold version there and its documents. */
  const on = (x: ComparedRunRecord) => (d: BoardDataset): RunOnDataset => {
    const file = x.s.files.find((f) => f.datasetId === d.id);
    if (multi && !file) return { missing: true };
    return { missing: false, goldVersion: multi ? (file?.goldKey?.version ?? null) : x.s.goldVersion, documents: documents.get(x.s.id)?.get(d.id) };
  };
  if (multi) assertSameDatasetGold(counted, on(a), on(b));
  const ruleOf = await blancRules(phase.id, db);
  const strata = pairedStrata(counted, on(a), on(b), ruleOf);
  if (!strata) throw new ValidationError("These runs have no per-document counts to compare.");
  const bootstrap = stratifiedPairedBootstrap(strata, { samples: options.samples });

  const documentMetric = phase.task.primaryMetric;
  const perDocument =
    (await canViewDocumentScores(a.access, phase)) && (await canViewDocumentScores(b.access, phase))
      ? documentDeltas(counted, strata, rows, { a: a.s.id, b: b.s.id }, documentMetric, multi)
      : null;
  return {
    task: phase.task,
    phase: { id: phase.id, name: phase.name },
    a: await comparedSide(a, phase, counted, multi, on(a)),
    b: await comparedSide(b, phase, counted, multi, on(b)),
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
 * The scored runs of the same phase, with the same gold version (on a phase with several
 * datasets: any scored run; `compareRuns` checks each dataset's version), that the viewer may see
 * and could compare a run with: every one for organizers; otherwise the runs shown to others
 * (`shownToOthers`: public, not withdrawn, not hidden by an organizer, not made after the
 * phase's freeze, and none while the board is hidden until the phase closes) when the phase's
 * leaderboard is visible to the viewer, and the runs of the viewer's own teams.
 *
 * @param viewer the viewer
 * @param submissionId the run being compared
 * @param now the moment the phase's timing is read at (default: now)
 * @returns newest first, at most 200; empty when the run is not scored
 * @throws NotFoundError (404) when the run does not exist or the viewer may not see it (a
 *   withdrawn run: only its team and the organizers)
 */
export async function listComparableRuns(viewer: Viewer, submissionId: string, now: Date = new Date()): Promise<ComparableRun[]> {
  const db = defaultDb();
  const s = isUuid(submissionId)
    ? await db.submission.findUnique({
        where: { id: submissionId },
        select: { ...SUBMISSION_VISIBILITY_SELECT, id: true, status: true, goldVersion: true, phase: { select: { ...PHASE_VISIBILITY_SELECT, id: true } } },
      })
    : null;
  const access = s ? await submissionAccess(viewer, s, db, now) : null;
  if (!s || !access?.visible || (s.withdrawnAt !== null && !access.isTeamMember && !access.isOrganizer)) throw new NotFoundError("No such submission.");
  // A phase with several datasets has no phase-level gold version (compareRuns checks each dataset's).
  const multi = (await db.dataset.count({ where: { phaseId: s.phase.id } })) > 1;
  if (s.status !== "SCORED" || (!multi && s.goldVersion === null)) return [];
  // Others' runs as `shownToOthers` decides, in one condition: none before an after-close board closes.
  const boardVisible = !boardHiddenUntilClose(s.phase, now) && (await canViewLeaderboard(viewer, s.phase, db));
  const frozenAt = s.phase.leaderboardTiming === "frozen" ? s.phase.frozenAt : null;
  // Organizers: no visibility condition (Prisma matches nothing for `OR: [{}]`).
  const visibleTo: Prisma.SubmissionWhereInput[] | null = access.isOrganizer
    ? null
    : [
        ...(boardVisible ? [{ visibility: "PUBLIC" as const, withdrawnAt: null, hiddenAt: null, ...(frozenAt ? { createdAt: { lt: frozenAt } } : {}) }] : []),
        ...(viewer ? [{ team: { members: { some: { userId: viewer.userId } } } }] : []),
      ];
  if (visibleTo?.length === 0) return [];
  const rows = await db.submission.findMany({
    where: { phaseId: s.phase.id, status: "SCORED", ...(multi ? {} : { goldVersion: s.goldVersion }), id: { not: s.id }, ...(visibleTo ? { OR: visibleTo } : {}) },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: 200,
    select: { id: true, systemName: true, createdAt: true, isBaseline: true, team: { select: { name: true } } },
  });
  return rows.map((r) => ({ id: r.id, systemName: r.systemName, team: r.team.name, submittedAt: r.createdAt, isBaseline: r.isBaseline }));
}
