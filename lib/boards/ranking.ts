/**
 * Leaderboard ranking as a pure function of the scored runs, the selection rule, the chosen
 * setting and the chosen metric (no I/O; see DESIGN.md "Ranking is a pure function").
 *
 * - Setting: the evaluation profile's primary setting (a run's `scores`), or one of its
 *   secondary variants (a run's `variants[id]`, issue 10 §3–4). Everything below is computed on
 *   the chosen setting alone, the per-team selection included.
 * - Scope: the phase level (a run's `scores`/`variants`: for a phase with several datasets
 *   the macro-average over them), or one dataset (a run's `datasets[name]`, issue 10 §4: a
 *   board ranked by one dataset, or that dataset's own board). A run that left the dataset out
 *   has the value 0 on it (as in the macro-average), in every setting and metric.
 * - Value: the chosen metric's F1 in that setting (for `conll`, its F1). Ties are exact
 *   equality of the stored doubles.
 * - Selection per team: BEST = the team's run with the highest value (ties, and runs without
 *   a value, → the earlier submission); LATEST = the team's most recently submitted run; TEAM_SELECTED = the best
 *   (as BEST) of the runs the team marked as final (`Run.finalSelected`), or, when it marked
 *   none of the runs given, its most recently submitted run (`selection: "latest-fallback"`);
 *   `allRuns` = every run.
 *   Baselines are reference points, not entries: every baseline run is listed, none is
 *   subject to the per-team selection, and none takes a rank.
 * - Order: value descending; among equal values the earlier submission first (then the
 *   smaller id, so the order is total).
 * - Rank: competition ranking ("1224") among non-baseline runs: 1 + the number of ranked runs
 *   with a strictly higher value.
 * - Runs without a value for the metric are listed last, unranked (rank null); under BEST a
 *   team's run with a value is always preferred to one without.
 */
import type { LeaderboardMetric } from "../validations/metrics";

/**
 * What ranking reads of a run's scores in one setting: each metric's F1 (the score JSON,
 * `MetricsJson`, and a board's macro-averaged scores both fit).
 */
export type RankableScores = { readonly [M in LeaderboardMetric]?: { readonly f1: number } };

/** The value a board ranks by: the metric's F1 (for `conll`, its only number); null when the scores lack it. */
function rankingValue(scores: RankableScores, metric: LeaderboardMetric): number | null {
  return scores[metric]?.f1 ?? null;
}

/** The tie policy, as one sentence for the page and the API. */
export const TIE_POLICY =
  "Runs with exactly equal scores share a rank (competition ranking: 1, 2, 2, 4), and among equal runs the earlier submission is listed first.";

/** One scored run, as ranking needs it. */
export interface Run {
  submissionId: string;
  teamId: string;
  submittedAt: Date;
  isBaseline: boolean;
  /** the primary setting's scores */
  scores: RankableScores;
  /** each secondary variant's scores, by variant id (absent or missing id: none stored) */
  variants?: Readonly<Record<string, RankableScores>>;
  /** per dataset, by dataset name: the run's scores on it (only needed when ranking by a dataset) */
  datasets?: Readonly<Record<string, DatasetRun>>;
  /** TEAM_SELECTED: the team marked the run as one of its final runs (absent: false) */
  finalSelected?: boolean;
}

/** The selection rules of {@link rankRuns}. */
export type SelectionRuleName = "BEST" | "LATEST" | "TEAM_SELECTED";

/**
 * Why a listed run represents its team under TEAM_SELECTED: `final`, the best of the runs the
 * team marked as final; `latest-fallback`, the team marked none, so its latest run counts.
 * Null for every other rule, for `allRuns` and for baselines.
 */
export type RunSelection = "final" | "latest-fallback" | null;

/** A run's scores on one dataset, as ranking needs them. */
export interface DatasetRun {
  /** the run has no file for the dataset: its value there is 0 */
  missing: boolean;
  /** the primary setting's scores on the dataset */
  scores: RankableScores;
  /** each secondary variant's scores on the dataset, by variant id */
  variants?: Readonly<Record<string, RankableScores>>;
}

/** What a board is ranked on: a setting (null = the primary one) in a scope (null = the phase level). */
export interface RankScope {
  /** a secondary variant's id, or null/absent for the primary setting */
  variant?: string | null;
  /** a dataset's name (a key of `Run.datasets`), or null/absent for the phase level */
  dataset?: string | null;
}

/** A run placed on the board. */
export type RankedRun<R extends Run = Run> = R & {
  /** competition rank; null for baselines and runs without the metric */
  rank: number | null;
  /** the chosen metric's F1 in the chosen setting; null when the run lacks it there */
  value: number | null;
  /** TEAM_SELECTED (one run per team): why the run represents its team; else null */
  selection: RunSelection;
};

/** Earlier submission first, then smaller id. */
function earlier(a: Run, b: Run): number {
  return a.submittedAt.getTime() - b.submittedAt.getTime() || (a.submissionId < b.submissionId ? -1 : a.submissionId > b.submissionId ? 1 : 0);
}

/** Board order: value descending (missing last), then earlier submission first. */
function boardOrder(a: { value: number | null } & Run, b: { value: number | null } & Run): number {
  if (a.value !== b.value) {
    if (a.value === null) return 1;
    if (b.value === null) return -1;
    return b.value - a.value;
  }
  return earlier(a, b);
}

/** Scores in the chosen setting: the primary scores (variant null) or a variant's (empty when not stored). */
function settingScores(scores: RankableScores, variants: Readonly<Record<string, RankableScores>> | undefined, variant: string | null): RankableScores {
  if (variant === null) return scores;
  return variants && Object.hasOwn(variants, variant) ? variants[variant] : {};
}

/** A run's value in a scope and setting: null when it lacks the metric there; 0 on a dataset it left out. */
function scopedValue(run: Run, metric: LeaderboardMetric, scope: RankScope): number | null {
  const variant = scope.variant ?? null;
  if (!scope.dataset) return rankingValue(settingScores(run.scores, run.variants, variant), metric);
  const d = run.datasets && Object.hasOwn(run.datasets, scope.dataset) ? run.datasets[scope.dataset] : undefined;
  if (!d) return null;
  if (d.missing) return 0;
  return rankingValue(settingScores(d.scores, d.variants, variant), metric);
}

/**
 * Selects and ranks runs.
 *
 * @param runs the phase's scored, public runs (any order; not mutated)
 * @param metric the metric to rank by
 * @param rule BEST, LATEST or TEAM_SELECTED per team (ignored when `allRuns`); BEST picks each
 *   team's best run in the chosen setting; TEAM_SELECTED the best of its final runs in it, else
 *   its latest run
 * @param allRuns list every run instead of one per team
 * @param scope the secondary variant to rank by (its id in `Run.variants`), or null (the
 *   default) for the primary setting; a run without that variant's scores has no value. Or a
 *   {@link RankScope}: the variant and the dataset to rank by (`Run.datasets[name]`; a run
 *   without an entry for it has no value, one that left it out has 0)
 * @returns the listed runs in board order, each with `rank`, `value` and `selection`
 */
export function rankRuns<R extends Run>(
  runs: readonly R[],
  metric: LeaderboardMetric,
  rule: SelectionRuleName,
  allRuns: boolean,
  scope: string | null | RankScope = null,
): RankedRun<R>[] {
  const rankedOn: RankScope = scope === null || typeof scope === "string" ? { variant: scope } : scope;
  const valued = runs.map((r) => ({ ...r, value: scopedValue(r, metric, rankedOn), selection: null as RunSelection }));
  let listed: typeof valued;
  if (allRuns) {
    listed = valued;
  } else {
    const chosen = new Map<string, (typeof valued)[number]>();
    listed = valued.filter((r) => r.isBaseline);
    // TEAM_SELECTED: the teams that marked at least one of the given runs as final choose among those only.
    const marked = new Set(rule === "TEAM_SELECTED" ? valued.filter((r) => !r.isBaseline && r.finalSelected).map((r) => r.teamId) : []);
    for (const run of valued) {
      if (run.isBaseline) continue;
      if (rule === "TEAM_SELECTED" && marked.has(run.teamId) && !run.finalSelected) continue;
      const current = chosen.get(run.teamId);
      const ruleHere = rule === "TEAM_SELECTED" ? (marked.has(run.teamId) ? "BEST" : "LATEST") : rule;
      if (!current || preferred(run, current, ruleHere)) chosen.set(run.teamId, run);
    }
    for (const run of chosen.values()) {
      listed.push(rule === "TEAM_SELECTED" ? { ...run, selection: marked.has(run.teamId) ? "final" : "latest-fallback" } : run);
    }
  }
  listed.sort(boardOrder);
  // Ranked runs are in descending value order, so equal values are neighbours among them.
  let ranked = 0;
  let previous: { value: number; rank: number } | null = null;
  return listed.map((r) => {
    if (r.isBaseline || r.value === null) return { ...r, rank: null };
    ranked += 1;
    if (previous === null || r.value !== previous.value) previous = { value: r.value, rank: ranked };
    return { ...r, rank: previous.rank };
  });
}

/** Whether `run` should replace `current` as its team's entry under `rule`. */
function preferred(run: Run & { value: number | null }, current: Run & { value: number | null }, rule: "BEST" | "LATEST"): boolean {
  if (rule === "LATEST") return earlier(run, current) > 0;
  // Two runs without a value: the earlier one, so that the choice never depends on input order.
  if (run.value === null) return current.value === null && earlier(run, current) < 0;
  if (current.value === null) return true;
  return run.value > current.value || (run.value === current.value && earlier(run, current) < 0);
}
