/**
 * Leaderboards: the phase's SCORED, PUBLIC submissions, selected and ranked by
 * `rankRuns` (see `ranking.ts` for the rules), with every metric's exact counts, and a CSV
 * export of the same rows.
 */
import { stringify } from "csv-stringify/sync";
import { ForbiddenError, UnauthorizedError } from "../errors";
import { canViewLeaderboard, type Viewer } from "../permissions";
import { COUNT_METRIC_NAMES, DEFAULT_PRIMARY_METRIC, isLeaderboardMetric, type LeaderboardMetric } from "../validations/metrics";
import { leaderboardQuerySchema } from "../validations/leaderboard";
import { parseInput } from "../validations/parse";
import { defaultDb, type SelectionRule } from "./db";
import { loadPhase } from "./phases";
import { rankRuns, TIE_POLICY, type Run } from "./ranking";
import { scoresToJson, type CountsJson, type MetricsJson } from "./scores";

/** One row of a leaderboard. */
export interface LeaderboardRow {
  /** competition rank; null for baselines and runs lacking the metric */
  rank: number | null;
  /** the ranking metric's F1 */
  value: number | null;
  team: { id: string; name: string };
  systemName: string;
  submissionId: string;
  submittedAt: Date;
  isBaseline: boolean;
  paperUrl: string | null;
  codeUrl: string | null;
  goldVersion: number | null;
  scorerVersion: string | null;
  /** every stored metric: fractions and exact counts (the CLI JSON shape) */
  scores: MetricsJson;
}

/** A leaderboard as pages, the API and the CSV export use it. */
export interface Leaderboard {
  task: { id: string; slug: string; title: string; primaryMetric: string };
  phase: { id: string; name: string; displayTimeZone: string; selectionRule: SelectionRule };
  metric: LeaderboardMetric;
  allRuns: boolean;
  tiePolicy: string;
  rows: LeaderboardRow[];
  generatedAt: Date;
}

type BoardRun = Run & Omit<LeaderboardRow, "rank" | "value">;

/**
 * A phase's leaderboard as the viewer may see it.
 *
 * @param phaseId the phase
 * @param viewer the viewer (null = anonymous)
 * @param options `metric` to rank by (default: the task's primary metric, else conll);
 *   `allRuns` to list every run instead of one per team (strings from a query are accepted)
 * @returns the rows in board order, with the tie policy
 * @throws NotFoundError (404) for an unknown phase; UnauthorizedError (401) for an anonymous
 *   viewer of a non-public board; ForbiddenError (403) for a signed-in viewer who may not
 *   see it; ValidationError (422) for an unknown metric
 */
export async function getLeaderboard(
  phaseId: string,
  viewer: Viewer,
  options: { metric?: string | null; allRuns?: boolean | string | null } = {},
): Promise<Leaderboard> {
  const db = defaultDb();
  const phase = await loadPhase(phaseId, db);
  if (!(await canViewLeaderboard(viewer, phase, db))) {
    const who = phase.leaderboardVisibility === "ORGANIZERS" ? "the task's organizers" : "participants of the task (teams that have submitted) and its organizers";
    if (!viewer) throw new UnauthorizedError(`This leaderboard is visible only to ${who}. Please sign in.`);
    throw new ForbiddenError(`This leaderboard is visible only to ${who}.`);
  }
  const query = parseInput(leaderboardQuerySchema, { metric: options.metric ?? undefined, allRuns: options.allRuns ?? undefined }, "leaderboard query");
  const metric = query.metric ?? (isLeaderboardMetric(phase.task.primaryMetric) ? phase.task.primaryMetric : DEFAULT_PRIMARY_METRIC);

  const submissions = await db.submission.findMany({
    where: { phaseId, status: "SCORED", visibility: "PUBLIC" },
    select: {
      id: true,
      teamId: true,
      team: { select: { name: true } },
      systemName: true,
      createdAt: true,
      isBaseline: true,
      paperUrl: true,
      codeUrl: true,
      goldVersion: true,
      scorerVersion: true,
      scores: { where: { variant: "" } },
    },
  });
  const runs: BoardRun[] = submissions.map((s) => ({
    submissionId: s.id,
    teamId: s.teamId,
    team: { id: s.teamId, name: s.team.name },
    systemName: s.systemName,
    submittedAt: s.createdAt,
    isBaseline: s.isBaseline,
    paperUrl: s.paperUrl,
    codeUrl: s.codeUrl,
    goldVersion: s.goldVersion,
    scorerVersion: s.scorerVersion,
    scores: scoresToJson(s.scores),
  }));
  const rows = rankRuns(runs, metric, phase.selectionRule, query.allRuns).map(({ teamId: _t, ...row }) => row);
  return {
    task: { id: phase.task.id, slug: phase.task.slug, title: phase.task.title, primaryMetric: phase.task.primaryMetric },
    phase: { id: phase.id, name: phase.name, displayTimeZone: phase.displayTimeZone, selectionRule: phase.selectionRule },
    metric,
    allRuns: query.allRuns,
    tiePolicy: TIE_POLICY,
    rows,
    generatedAt: new Date(),
  };
}

const COUNT_FIELDS = ["recall", "precision", "f1", "recall_num", "recall_den", "precision_num", "precision_den"] as const;
const LINK_FIELDS = ["recall_num", "recall_den", "precision_num", "precision_den"] as const;

/**
 * The CSV columns, in order:
 * - `rank` (empty for baselines and unranked runs), `team`, `system`, `submission_id`,
 *   `submitted_at` (ISO 8601, UTC), `is_baseline` (true/false), `gold_version`, `scorer_version`;
 * - for each count metric (`COUNT_METRIC_NAMES`: mentions, muc, bcub, ceafm, ceafe, lea, and the
 *   optional mcf, mor and zero, always present as columns): `<m>_recall`, `<m>_precision`,
 *   `<m>_f1` (fractions in [0, 1]), `<m>_recall_num`, `<m>_recall_den`, `<m>_precision_num`,
 *   `<m>_precision_den` (exact counts);
 * - `blanc_recall`, `blanc_precision`, `blanc_f1`, then `blanc_coref_*` and `blanc_noncoref_*`
 *   link counts (`recall_num`, `recall_den`, `precision_num`, `precision_den`);
 * - `conll_f1`.
 * Numbers are written with full precision (JavaScript's shortest round-trip form); a metric
 * the run lacks leaves its cells empty.
 */
export const LEADERBOARD_CSV_COLUMNS: readonly string[] = [
  "rank",
  "team",
  "system",
  "submission_id",
  "submitted_at",
  "is_baseline",
  "gold_version",
  "scorer_version",
  ...COUNT_METRIC_NAMES.flatMap((m) => COUNT_FIELDS.map((f) => `${m}_${f}`)),
  "blanc_recall",
  "blanc_precision",
  "blanc_f1",
  ...LINK_FIELDS.map((f) => `blanc_coref_${f}`),
  ...LINK_FIELDS.map((f) => `blanc_noncoref_${f}`),
  "conll_f1",
];

/** Text cells starting like a spreadsheet formula get a leading apostrophe (CSV injection). */
function safeText(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

function linkCells(c: CountsJson | undefined): (number | null)[] {
  return LINK_FIELDS.map((f) => c?.[f] ?? null);
}

/** One CSV record of a row, in {@link LEADERBOARD_CSV_COLUMNS} order. */
function csvRecord(row: LeaderboardRow): (string | number | null)[] {
  const s = row.scores;
  return [
    row.rank,
    safeText(row.team.name),
    safeText(row.systemName),
    row.submissionId,
    row.submittedAt.toISOString(),
    row.isBaseline ? "true" : "false",
    row.goldVersion,
    row.scorerVersion,
    ...COUNT_METRIC_NAMES.flatMap((m) => COUNT_FIELDS.map((f) => s[m]?.[f] ?? null)),
    s.blanc?.recall ?? null,
    s.blanc?.precision ?? null,
    s.blanc?.f1 ?? null,
    ...linkCells(s.blanc?.coref_links),
    ...linkCells(s.blanc?.noncoref_links),
    s.conll?.f1 ?? null,
  ];
}

/**
 * The leaderboard as CSV (RFC 4180, header row, `\r\n` line ends), columns as in
 * {@link LEADERBOARD_CSV_COLUMNS}.
 *
 * @param board a leaderboard from {@link getLeaderboard} (already authorized)
 * @returns the CSV text
 */
export function leaderboardCsv(board: Pick<Leaderboard, "rows">): string {
  return stringify([LEADERBOARD_CSV_COLUMNS as string[], ...board.rows.map(csvRecord)], {
    record_delimiter: "windows",
    cast: { number: (n) => String(n) },
  });
}
