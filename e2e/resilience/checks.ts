/**
 * What the resilience tests check in the site's database and in the worker's log: the runs'
 * states, how often each run was scored, and figures for the report.
 *
 * "Scored exactly once" is checked three ways, since the Score rows themselves are keyed by
 * (submission, metric) and could be written twice without a trace:
 * - the worker's log has exactly one `submission=<id> … status=SCORED` line per run (one
 *   line per finished job: lib/worker);
 * - the run's `attempts` counter (one per claim) is within the expected bound;
 * - every run has the same, non-zero number of Score rows (all metrics, none twice).
 */
import type { SubmissionStatus } from "../../lib/db";
import type { Site } from "./harness";
import { sleep } from "./harness";

/** A submission row, as the checks read it. */
export interface RunRow extends Record<string, unknown> {
  id: string;
  status: SubmissionStatus;
  attempts: number;
  worker_id: string | null;
  error_stage: string | null;
  error_message: string | null;
  created_at: Date;
  started_at: Date | null;
  scored_at: Date | null;
  scores: number;
}

/** The rows of the given submissions (with their Score row counts), in no particular order. */
export function readRuns(site: Site, ids: string[]): Promise<RunRow[]> {
  return site.query<RunRow>(
    `select s.id, s.status, s.attempts, s.worker_id, s.error_stage, s.error_message, s.created_at, s.started_at, s.scored_at,
            (select count(*)::int from scores c where c.submission_id = s.id) as scores
       from submissions s where s.id = any($1::uuid[])`,
    [ids],
  );
}

/**
 * Polls until every run in `ids` has one of `statuses`.
 *
 * @returns the rows at that moment
 * @throws Error listing the runs still elsewhere after `timeoutMs`
 */
export async function waitForRuns(site: Site, ids: string[], timeoutMs: number, statuses: RunRow["status"][] = ["SCORED", "FAILED"]): Promise<RunRow[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await readRuns(site, ids).catch(() => [] as RunRow[]);
    if (rows.length === ids.length && rows.every((r) => statuses.includes(r.status))) return rows;
    if (Date.now() > deadline) {
      const pending = rows.filter((r) => !statuses.includes(r.status)).map((r) => `${r.id} ${r.status} attempts=${r.attempts}`);
      throw new Error(`after ${timeoutMs} ms, ${ids.length - rows.length + pending.length} of ${ids.length} runs are not ${statuses.join("/")}: ${pending.slice(0, 10).join("; ")}`);
    }
    await sleep(200);
  }
}

/** How many `status=SCORED` job lines the worker(s) logged for each of `ids`. */
export function scoredLogCounts(site: Site, ids: string[]): Map<string, number> {
  const counts = new Map(ids.map((id) => [id, 0]));
  for (const line of site.logLines()) {
    if (!/status[=:]\s*"?SCORED\b/.test(line)) continue;
    const id = /submission[=:]\s*"?([0-9a-f-]{36})/.exec(line)?.[1];
    if (id !== undefined && counts.has(id)) counts.set(id, counts.get(id)! + 1);
  }
  return counts;
}

/** The pid in a worker id `host:pid` (lib/worker), or undefined. */
export function pidOfWorkerId(workerId: string | null): number | undefined {
  const pid = workerId ? /:(\d+)$/.exec(workerId)?.[1] : undefined;
  return pid === undefined ? undefined : Number(pid);
}

/** Seconds with one decimal, for figures. */
export function seconds(ms: number): string {
  return (ms / 1000).toFixed(1);
}
