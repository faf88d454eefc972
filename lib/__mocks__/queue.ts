/**
 * The test double of `lib/queue.ts` for service tests that must not start pg-boss: a test file
 * calls `vi.mock("../queue")` and reads the calls of `enqueueScoring` and `enqueueSignificance`
 * (`vi.fn`s that do nothing). `enqueueAfterCommit` keeps the real contract (lib/queue.ts, tested
 * in lib/queue.test.ts): enqueue, log a failure, never throw.
 */
import { vi } from "vitest";
import type { SignificanceJobData } from "../queue";

export const enqueueScoring = vi.fn(async (_ids: readonly string[]) => {});

export const enqueueSignificance = vi.fn(async (_jobs: readonly { key: string; data: SignificanceJobData }[]) => {});

export const enqueueAfterCommit = (ids: readonly string[], context: string) =>
  enqueueScoring(ids).catch((error: Error) => console.error(`enqueueScoring failed (${context}): ${error.message}`));
