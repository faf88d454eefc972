/**
 * A scoring worker's background upkeep (`worker.ts`): reconcile passes, claim heartbeats,
 * and enqueueing a team's next run once one of its runs has ended. Each is a task that runs
 * at most once at a time, so that `stop()` can wait for what is under way.
 */
import { pruneBoardChanges } from "../boards";
import { heartbeatClaims, type Claim } from "../submission-states";
import { errorMessage, inFlight, type Running, type WorkerContext } from "./context";
import { enqueueTeamNext, reconcile } from "./reconciler";
import { ClaimLostError } from "./scoring-job";

/** A task that runs at most once at a time. */
export interface SingleTask {
  /** Starts the task, or returns the pass already under way. */
  run(): Promise<void>;
  /** The pass under way, if any. */
  current(): Promise<void> | undefined;
}

/** Wraps `task` so that a call while a pass is under way gets that pass instead of a new one. */
export function oneAtATime(task: () => Promise<void>): SingleTask {
  let current: Promise<void> | undefined;
  return {
    run: () =>
      (current ??= task().finally(() => {
        current = undefined;
      })),
    current: () => current,
  };
}

/**
 * The reconciler as a worker runs it (`reconcile` in `reconciler.ts`, leaving this worker's
 * running submissions alone), followed by pruning old board changes. Logs what it changed
 * (`reconcile reset=… failed=… cancelled_jobs=… enqueued=…`); an error is logged, not thrown.
 */
export function reconcilePasses(ctx: WorkerContext): SingleTask {
  const { prisma, boss, config, log } = ctx;
  return oneAtATime(() =>
    reconcile({ prisma, boss, config, skipIds: inFlight(ctx) })
      .then(async (r) => {
        await pruneBoardChanges(prisma).catch((error: unknown) => log(`board changes: pruning failed: ${errorMessage(error)}`));
        if (r.reset || r.failed || r.cancelledJobs || r.enqueued) {
          log(`reconcile reset=${r.reset} failed=${r.failed} cancelled_jobs=${r.cancelledJobs} enqueued=${r.enqueued}`);
        }
      })
      .catch((error: unknown) => log(`reconcile error: ${errorMessage(error)}`)),
  );
}

/**
 * One heartbeat: refreshes `heartbeat_at` of the rows the running jobs hold
 * (`heartbeatClaims`, one UPDATE), and aborts with {@link ClaimLostError} a job whose claim
 * is gone. A database error is logged once (and its end once), not thrown.
 */
export function claimHeartbeats(ctx: WorkerContext): SingleTask {
  const { prisma, config, log, running } = ctx;
  let failing = false;
  return oneAtATime(async () => {
    const jobs = [...running.values()].filter((r): r is Running & { claim: Claim } => r.claim !== undefined);
    if (jobs.length === 0) return;
    try {
      const held = new Set(await heartbeatClaims(prisma, jobs.map((r) => r.claim)));
      if (failing) log("heartbeat: database reachable again");
      failing = false;
      for (const r of jobs) {
        // A job that finished meanwhile has no claim to lose.
        if (!held.has(r.claim) && running.has(r.jobId)) r.controller.abort(new ClaimLostError(r.submissionId));
      }
    } catch (error) {
      if (!failing) log(`heartbeat error (retrying every ${config.heartbeatMs} ms): ${errorMessage(error)}`);
      failing = true;
    }
  });
}

/** Enqueues teams' next runs ({@link teamWaker}). */
export interface TeamWaker {
  /** A job that held a claim of `teamId` ended: enqueue the team's next run. */
  wake(teamId: string): void;
  /** The enqueues under way. */
  pending(): Promise<void>[];
}

/**
 * One run per team at a time: when a job that held a team's claim ends, the team's next
 * QUEUED run is enqueued (`enqueueTeamNext` in `reconciler.ts`). A failure is logged; the
 * reconciler retries.
 */
export function teamWaker(ctx: WorkerContext): TeamWaker {
  const { prisma, boss, config, log } = ctx;
  const waking = new Set<Promise<void>>();
  return {
    wake: (teamId) => {
      const p: Promise<void> = enqueueTeamNext({ prisma, boss, teamId, stale: config })
        .then(() => undefined)
        .catch((error: unknown) => log(`team=${teamId}: enqueueing its next run failed (the reconciler retries): ${errorMessage(error)}`))
        .finally(() => waking.delete(p));
      waking.add(p);
    },
    pending: () => [...waking],
  };
}
