/**
 * What differs between two final results snapshots of a phase ({@link snapshotChanges}; the
 * contract is in `snapshots.ts`): gold versions, the scorer version, the ranking metric, the
 * tracks, and per board the teams and runs that came, went or moved, and the runs disqualified
 * or reinstated, each with a sentence for people.
 */
import { isLeaderboardMetric, METRIC_LABELS } from "../validations/metrics";
import { asBoard, type SnapshotGold, type StoredBoard, type StoredRow } from "./snapshot-format";

/** A team or a run named by a change. */
interface ChangeRun {
  team: { id: string; name: string };
  systemName: string;
  submissionId: string;
}

/**
 * One thing that differs from the previous snapshot, with `text`, a short sentence for people.
 * `track` is the name of the track whose board it concerns (null in a phase without tracks);
 * values are fractions (the ranking metric's F1), null for none.
 */
export type SnapshotChange =
  | { kind: "first"; text: string }
  | { kind: "unchanged"; text: string }
  | { kind: "gold"; dataset: string; from: number | null; to: number | null; text: string }
  | { kind: "scorer"; from: string; to: string; text: string }
  | { kind: "metric"; from: string; to: string; text: string }
  | { kind: "track_added" | "track_removed"; track: string; text: string }
  | { kind: "team_added" | "team_removed"; track: string | null; team: { id: string; name: string }; rank: number | null; value: number | null; text: string }
  | {
      kind: "team_changed";
      track: string | null;
      team: { id: string; name: string };
      rank: { from: number | null; to: number | null };
      value: { from: number | null; to: number | null };
      text: string;
    }
  | ({ kind: "run_added" | "run_removed" | "run_reinstated"; track: string | null; text: string } & ChangeRun)
  | ({ kind: "run_disqualified"; track: string | null; reason: string; text: string } & ChangeRun);

/** What {@link snapshotChanges} compares: one snapshot's gold, scorer version and boards. */
export interface SnapshotContent {
  number: number;
  gold: readonly Pick<SnapshotGold, "dataset" | "version">[];
  scorerVersion: string;
  /** the stored boards (`leaderboardJson` of each, as JSON) */
  boards: readonly unknown[];
}

/** A ranking value for a sentence: `72.50` (percent, 2 decimals), or "no score". */
function percent(value: number | null): string {
  return value === null ? "no score" : (value * 100).toFixed(2);
}

/** "CoNLL F1": the ranking metric's name for sentences. */
function metricName(metric: string): string {
  return `${isLeaderboardMetric(metric) ? METRIC_LABELS[metric] : metric} F1`;
}

/** A board's key across snapshots: its track's id ("" in a phase without tracks). */
function boardKey(board: StoredBoard): string {
  return board.track?.id ?? "";
}

/** Each team's standing on a board: its first listed run that is neither a baseline nor disqualified. */
function teamEntries(board: StoredBoard): Map<string, StoredRow> {
  const out = new Map<string, StoredRow>();
  for (const row of board.rows) if (!row.isBaseline && !row.disqualified && !out.has(row.team.id)) out.set(row.team.id, row);
  return out;
}

/** `Run "sys" of Team A`. */
function runName(row: ChangeRun): string {
  return `Run "${row.systemName}" of ${row.team.name}`;
}

/** The changes on one board (same track) between two snapshots. */
function boardChanges(before: StoredBoard, after: StoredBoard, metric: string): SnapshotChange[] {
  const track = after.track?.name ?? null;
  const where = track === null ? "" : ` (${track} track)`;
  const m = metricName(metric);
  const out: SnapshotChange[] = [];
  const teamsBefore = teamEntries(before);
  const teamsAfter = teamEntries(after);
  for (const [id, now] of teamsAfter) {
    const was = teamsBefore.get(id);
    const team = { id, name: now.team.name };
    if (!was) {
      out.push({ kind: "team_added", track, team, rank: now.rank, value: now.value, text: `${team.name}${where} is new on the board: rank ${now.rank ?? "none"}, ${m} ${percent(now.value)}.` });
      continue;
    }
    if (was.rank === now.rank && was.value === now.value) continue;
    const parts: string[] = [];
    if (was.rank !== now.rank) parts.push(`rank ${was.rank ?? "none"} → ${now.rank ?? "none"}`);
    if (was.value !== now.value) parts.push(`${m} ${percent(was.value)} → ${percent(now.value)}`);
    else parts.push(`${m} ${percent(now.value)} unchanged`);
    out.push({
      kind: "team_changed",
      track,
      team,
      rank: { from: was.rank, to: now.rank },
      value: { from: was.value, to: now.value },
      text: `${team.name}${where}: ${parts.join(", ")}.`,
    });
  }
  for (const [id, was] of teamsBefore) {
    if (teamsAfter.has(id)) continue;
    const team = { id, name: was.team.name };
    out.push({ kind: "team_removed", track, team, rank: was.rank, value: was.value, text: `${team.name}${where} is no longer on the board (was rank ${was.rank ?? "none"}, ${m} ${percent(was.value)}).` });
  }
  const runsBefore = new Map(before.rows.map((r) => [r.submissionId, r]));
  const runsAfter = new Map(after.rows.map((r) => [r.submissionId, r]));
  const run = (r: StoredRow): ChangeRun => ({ team: { id: r.team.id, name: r.team.name }, systemName: r.systemName, submissionId: r.submissionId });
  for (const [id, r] of runsAfter) {
    const was = runsBefore.get(id);
    if (!was) out.push({ kind: "run_added", track, ...run(r), text: `${runName(r)}${where} added.` });
    else if (r.disqualified && !was.disqualified) {
      out.push({ kind: "run_disqualified", track, reason: r.disqualified.reason, ...run(r), text: `${runName(r)}${where} disqualified: ${r.disqualified.reason}` });
    } else if (!r.disqualified && was.disqualified) out.push({ kind: "run_reinstated", track, ...run(r), text: `${runName(r)}${where} reinstated.` });
  }
  for (const [id, r] of runsBefore) if (!runsAfter.has(id)) out.push({ kind: "run_removed", track, ...run(r), text: `${runName(r)}${where} removed.` });
  return out;
}

/**
 * What differs between two snapshots of a phase: gold versions per dataset, the scorer version,
 * the ranking metric, tracks added or removed, and per board (track) the teams added, removed or
 * moved (rank and ranking value before → after; a team's standing is its first listed run that is
 * neither a baseline nor disqualified), the runs added or removed, disqualified or reinstated.
 *
 * @param previous the previous snapshot's content, or null for the first snapshot
 * @param next the new snapshot's content
 * @returns the changes, each with its sentence; `[{kind: "first"}]` ("First published results.")
 *   without a previous snapshot, `[{kind: "unchanged"}]` when nothing differs
 */
export function snapshotChanges(previous: SnapshotContent | null, next: SnapshotContent): SnapshotChange[] {
  if (!previous) return [{ kind: "first", text: "First published results." }];
  const out: SnapshotChange[] = [];
  const goldBefore = new Map(previous.gold.map((g) => [g.dataset, g.version]));
  const goldAfter = new Map(next.gold.map((g) => [g.dataset, g.version]));
  for (const dataset of new Set([...goldAfter.keys(), ...goldBefore.keys()])) {
    const from = goldBefore.get(dataset) ?? null;
    const to = goldAfter.get(dataset) ?? null;
    if (from === to) continue;
    const v = (n: number | null) => (n === null ? "none" : `v${n}`);
    out.push({ kind: "gold", dataset, from, to, text: `Gold key of ${dataset}: ${v(from)} → ${v(to)}.` });
  }
  if (previous.scorerVersion !== next.scorerVersion) {
    out.push({ kind: "scorer", from: previous.scorerVersion, to: next.scorerVersion, text: `Scorer version: ${previous.scorerVersion} → ${next.scorerVersion}.` });
  }
  const before = previous.boards.map(asBoard).filter((b): b is StoredBoard => b !== null);
  const after = next.boards.map(asBoard).filter((b): b is StoredBoard => b !== null);
  const metricBefore = before[0]?.metric;
  const metric = after[0]?.metric ?? metricBefore ?? "conll";
  if (metricBefore !== undefined && metricBefore !== metric) {
    out.push({ kind: "metric", from: metricBefore, to: metric, text: `Ranking metric: ${metricName(metricBefore)} → ${metricName(metric)}.` });
  }
  const beforeByKey = new Map(before.map((b) => [boardKey(b), b]));
  const afterKeys = new Set(after.map(boardKey));
  for (const board of after) {
    const was = beforeByKey.get(boardKey(board));
    if (was) out.push(...boardChanges(was, board, metric));
    else if (board.track) out.push({ kind: "track_added", track: board.track.name, text: `Track ${board.track.name} added.` });
  }
  for (const board of before) {
    if (!afterKeys.has(boardKey(board)) && board.track) out.push({ kind: "track_removed", track: board.track.name, text: `Track ${board.track.name} removed.` });
  }
  if (out.length === 0) {
    return [{ kind: "unchanged", text: `Nothing changed since snapshot #${previous.number}: the same ranking, gold versions and scorer version.` }];
  }
  return out;
}
