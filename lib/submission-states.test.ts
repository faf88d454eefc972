/**
 * The submission state transitions against a real (embedded) Postgres: claims and their
 * guard, heartbeats, staleness, re-queueing.
 */
import { describe, expect, it } from "vitest";
import { useTestDatabase } from "./db/test-db";
import {
  claimableQueuedIds,
  claimSubmission,
  ErrorStage,
  failStaleExhausted,
  finishClaim,
  heartbeatClaims,
  liveClaimIds,
  releaseClaim,
  requeueStale,
  requeueSubmissions,
  tooManyAttemptsMessage,
  type Claim,
} from "./submission-states";
import { RESPONSE, addGold, createPhase, createRun, createSubmission, withNewTeam, type PhaseFixture } from "./worker/scoring-job.fixtures";

const testDb = useTestDatabase();

const STALE = { heartbeatStaleMs: 20_000, staleAfterMs: 600_000 };
const LIMITS = { ...STALE, maxAttempts: 5 };

async function row(id: string) {
  return testDb.prisma.submission.findUniqueOrThrow({
    where: { id },
    select: { status: true, attempts: true, workerId: true, heartbeatAt: true, startedAt: true, errorStage: true, errorMessage: true, goldVersion: true },
  });
}

async function claimed(id: string, workerId = "host:1"): Promise<Claim> {
  const result = await claimSubmission(testDb.prisma, id, workerId, LIMITS);
  if (!result.claimed) throw new Error(`not claimed: ${result.reason}`);
  return result.claim;
}

/** Sets a SCORING row's heartbeat `ageMs` in the past. */
async function ageHeartbeat(id: string, ageMs: number): Promise<void> {
  await testDb.prisma.$executeRaw`UPDATE submissions SET heartbeat_at = now() - ${ageMs}::int * interval '1 millisecond' WHERE id = ${id}::uuid`;
}

async function submission(f?: PhaseFixture): Promise<string> {
  return createSubmission(testDb.prisma, f ?? (await createPhase(testDb.prisma)), RESPONSE);
}

describe("ErrorStage", () => {
  it("names the three stages stored in error_stage", () => {
    expect(Object.values(ErrorStage)).toEqual(["validation", "scoring", "platform"]);
  });
});

describe("claimSubmission", () => {
  it("QUEUED → SCORING with worker id, started_at, heartbeat and attempts + 1", async () => {
    const id = await submission();
    const claim = await claimed(id, "host-a:10");
    expect(claim).toMatchObject({ submissionId: id, workerId: "host-a:10", attempts: 1 });
    const r = await row(id);
    expect(r).toMatchObject({ status: "SCORING", attempts: 1, workerId: "host-a:10" });
    expect(r.heartbeatAt).toEqual(r.startedAt);
    expect(new Date(claim.startedAt).getTime()).toBe(r.startedAt!.getTime());
  });

  it("two workers claiming at once: exactly one wins", async () => {
    const id = await submission();
    const other = testDb.newClient();
    const results = await Promise.all([
      claimSubmission(testDb.prisma, id, "host-a:1", LIMITS),
      claimSubmission(other, id, "host-b:2", LIMITS),
    ]);
    expect(results.filter((r) => r.claimed)).toHaveLength(1);
    expect(results.find((r) => !r.claimed)).toEqual({ claimed: false, reason: "being scored by another worker" });
    expect((await row(id)).attempts).toBe(1);
  });

  it("takes over a SCORING row only when its heartbeat is stale, and not at the attempt limit", async () => {
    const id = await submission();
    await claimed(id, "dead:1");
    expect(await claimSubmission(testDb.prisma, id, "live:2", LIMITS)).toEqual({ claimed: false, reason: "being scored by another worker" });
    await ageHeartbeat(id, 25_000);
    const takeover = await claimed(id, "live:2");
    expect(takeover).toMatchObject({ workerId: "live:2", attempts: 2 });
    expect(await row(id)).toMatchObject({ status: "SCORING", workerId: "live:2", attempts: 2 });

    await ageHeartbeat(id, 25_000);
    expect(await claimSubmission(testDb.prisma, id, "live:3", { ...STALE, maxAttempts: 2 })).toEqual({ claimed: false, reason: "being scored by another worker" });
  });

  it("a row claimed longer ago than the stale threshold is stale even with a fresh heartbeat (a stuck worker)", async () => {
    const id = await submission();
    await claimed(id, "stuck:1");
    await testDb.prisma.$executeRaw`UPDATE submissions SET started_at = now() - interval '1 hour' WHERE id = ${id}::uuid`;
    expect(await claimSubmission(testDb.prisma, id, "live:2", LIMITS)).toMatchObject({ claimed: true });
  });

  it("says why nothing was claimed", async () => {
    const id = await submission();
    await testDb.prisma.submission.update({ where: { id }, data: { status: "SCORED" } });
    expect(await claimSubmission(testDb.prisma, id, "w:1", LIMITS)).toEqual({ claimed: false, reason: "status is SCORED" });
    expect(await claimSubmission(testDb.prisma, "00000000-0000-4000-8000-000000000000", "w:1", LIMITS)).toEqual({ claimed: false, reason: "no such submission" });
  });
});

describe("claimSubmission: one run per team at a time", () => {
  it("a second run of the team is refused while the first is scored (QUEUED, attempts unchanged); another team's run is claimed; after the finish the second is claimed", async () => {
    const f = await createPhase(testDb.prisma);
    const first = await submission(f);
    const second = await submission(f);
    const otherTeam = await submission(await withNewTeam(testDb.prisma, f));
    const claim = await claimed(first, "w:1");
    expect(claim.teamId).toBe(f.teamId);

    expect(await claimSubmission(testDb.prisma, second, "w:2", LIMITS)).toEqual({
      claimed: false,
      reason: `its team is scoring another run (submission ${first})`,
      busyWith: first,
    });
    expect(await row(second)).toMatchObject({ status: "QUEUED", attempts: 0, workerId: null, startedAt: null });
    expect(await claimed(otherTeam, "w:2")).toMatchObject({ submissionId: otherTeam, attempts: 1 });
    // The team's run being scored is not held back by itself (a delivered-twice job).
    expect(await claimSubmission(testDb.prisma, first, "w:3", LIMITS)).toEqual({ claimed: false, reason: "being scored by another worker" });

    expect(await finishClaim(testDb.prisma, claim, { status: "FAILED", stage: ErrorStage.validation, message: "x", location: null })).toBe(true);
    expect(await claimed(second, "w:2")).toMatchObject({ submissionId: second, attempts: 1 });
  });

  it("a released claim (row back to QUEUED) no longer holds the team", async () => {
    const f = await createPhase(testDb.prisma);
    const [a, b] = [await submission(f), await submission(f)];
    const claim = await claimed(a);
    expect(await claimSubmission(testDb.prisma, b, "w:2", LIMITS)).toMatchObject({ claimed: false, busyWith: a });
    expect(await releaseClaim(testDb.prisma, claim)).toBe(true);
    expect(await claimed(b, "w:2")).toMatchObject({ submissionId: b });
    expect(await claimSubmission(testDb.prisma, a, "w:3", LIMITS)).toMatchObject({ claimed: false, busyWith: b });
  });

  it("a stale claim (dead worker: old heartbeat, or claimed too long ago) does not block its team", async () => {
    const f = await createPhase(testDb.prisma);
    const [dead, stuck, next] = [await submission(f), await submission(f), await submission(f)];
    await claimed(dead, "dead:1");
    await ageHeartbeat(dead, 25_000);
    await claimed(stuck, "stuck:1");
    expect(await claimSubmission(testDb.prisma, next, "w:2", LIMITS)).toMatchObject({ claimed: false, busyWith: stuck });
    await testDb.prisma.$executeRaw`UPDATE submissions SET started_at = now() - interval '1 hour' WHERE id = ${stuck}::uuid`;
    expect(await claimed(next, "w:2")).toMatchObject({ submissionId: next, attempts: 1 });
    // The take-over of a stale row is held back by the team's live claim like a QUEUED row.
    expect(await claimSubmission(testDb.prisma, dead, "w:3", LIMITS)).toMatchObject({ claimed: false, busyWith: next });
    expect(await row(dead)).toMatchObject({ status: "SCORING", workerId: "dead:1", attempts: 1 });
  });

  it("claims of one team racing from several clients: exactly one wins each round; other teams are not held back", async () => {
    const clients = [testDb.prisma, ...Array.from({ length: 5 }, () => testDb.newClient())];
    for (let round = 0; round < 5; round++) {
      const f = await createPhase(testDb.prisma);
      const ids: string[] = [];
      for (let i = 0; i < clients.length; i++) ids.push(await submission(f));
      const g = await withNewTeam(testDb.prisma, f);
      const others: string[] = [];
      for (let i = 0; i < clients.length; i++) others.push(await submission(await withNewTeam(testDb.prisma, g)));
      const results = await Promise.all([
        ...ids.map((id, i) => claimSubmission(clients[i], id, `w:${i}`, LIMITS)),
        ...others.map((id, i) => claimSubmission(clients[i], id, `v:${i}`, LIMITS)),
      ]);
      const ours = results.slice(0, ids.length);
      const won = ours.filter((r) => r.claimed);
      expect(won, `round ${round}`).toHaveLength(1);
      const winner = won[0]!.claimed ? won[0]!.claim.submissionId : "";
      for (const r of ours) if (!r.claimed) expect(r.busyWith).toBe(winner);
      expect(results.slice(ids.length).every((r) => r.claimed)).toBe(true);
      const scoring = await testDb.prisma.submission.count({ where: { teamId: f.teamId, status: "SCORING" } });
      expect(scoring).toBe(1);
      expect(await testDb.prisma.submission.count({ where: { id: { in: ids }, status: "QUEUED", attempts: 0 } })).toBe(ids.length - 1);
    }
  });

  it("claimableQueuedIds lists the QUEUED runs of teams without a live claim, oldest first", async () => {
    const f = await createPhase(testDb.prisma);
    const [busy, waiting] = [await submission(f), await submission(f)];
    const g = await withNewTeam(testDb.prisma, f);
    const [free1, free2] = [await submission(g), await submission(g)];
    await claimed(busy);
    const ours = (found: string[]) => found.filter((id) => [busy, waiting, free1, free2].includes(id));
    expect(ours(await claimableQueuedIds(testDb.prisma, STALE))).toEqual([free1, free2]);
    await ageHeartbeat(busy, 25_000);
    expect(ours(await claimableQueuedIds(testDb.prisma, STALE))).toEqual([waiting, free1, free2]);
  });
});

describe("releaseClaim and finishClaim: only for the claim that holds the row", () => {
  it("release: SCORING → QUEUED for this claim; a stale copy of the claim changes nothing", async () => {
    const id = await submission();
    const first = await claimed(id, "w:1");
    expect(await releaseClaim(testDb.prisma, first)).toBe(true);
    expect(await row(id)).toMatchObject({ status: "QUEUED", attempts: 1, workerId: null, heartbeatAt: null });
    const second = await claimed(id, "w:1");
    expect(second.attempts).toBe(2);
    expect(await releaseClaim(testDb.prisma, first)).toBe(false);
    expect(await releaseClaim(testDb.prisma, { ...second, workerId: "w:2" })).toBe(false);
    expect(await releaseClaim(testDb.prisma, { ...second, startedAt: "2000-01-01 00:00:00+00" })).toBe(false);
    expect(await row(id)).toMatchObject({ status: "SCORING", attempts: 2, workerId: "w:1" });
  });

  it("finish SCORED writes the status and the rows in one transaction; a failing write rolls the status back", async () => {
    const f = await createPhase(testDb.prisma);
    const id = await submission(f);
    const claim = await claimed(id);
    const scored = { status: "SCORED", goldVersion: 1, scorerVersion: "9.9.9" } as const;
    await expect(
      finishClaim(testDb.prisma, claim, scored, async (tx) => {
        await tx.score.create({ data: { submissionId: id, phaseId: f.phaseId, metric: "conll", f1: 0.5 } });
        throw new Error("disk full");
      }),
    ).rejects.toThrow("disk full");
    expect(await row(id)).toMatchObject({ status: "SCORING", goldVersion: null });
    expect(await testDb.prisma.score.count({ where: { submissionId: id } })).toBe(0);

    const written = await finishClaim(testDb.prisma, claim, scored, async (tx) => {
      await tx.score.create({ data: { submissionId: id, phaseId: f.phaseId, metric: "conll", f1: 0.5 } });
    });
    expect(written).toBe(true);
    expect(await row(id)).toMatchObject({ status: "SCORED", goldVersion: 1, errorStage: null, workerId: "host:1" });
    expect(await testDb.prisma.score.count({ where: { submissionId: id } })).toBe(1);
  });

  it("finish after the claim was lost (re-queued, claimed again) writes nothing; the new claim's finish replaces the old results", async () => {
    const f = await createPhase(testDb.prisma);
    const id = await submission(f);
    const old = await claimed(id, "old:1");
    await testDb.prisma.$transaction((tx) => requeueSubmissions(tx, { id }));
    const fresh = await claimed(id, "new:2");
    expect(fresh.attempts).toBe(1);
    let wrote = false;
    const failed = { status: "FAILED", stage: ErrorStage.validation, message: "bad", location: { line: 3 } } as const;
    expect(await finishClaim(testDb.prisma, old, failed, async () => void (wrote = true))).toBe(false);
    expect(wrote).toBe(false);
    expect(await row(id)).toMatchObject({ status: "SCORING", workerId: "new:2", errorStage: null });

    await testDb.prisma.score.create({ data: { submissionId: id, phaseId: f.phaseId, metric: "conll", f1: 0.1 } });
    expect(await finishClaim(testDb.prisma, fresh, failed)).toBe(true);
    expect(await row(id)).toMatchObject({ status: "FAILED", errorStage: "validation", errorMessage: "bad", goldVersion: null });
    expect(await testDb.prisma.submission.findUniqueOrThrow({ where: { id }, select: { errorLocation: true } })).toEqual({ errorLocation: { line: 3 } });
    expect(await testDb.prisma.score.count({ where: { submissionId: id } })).toBe(0);
  });
});

/** A phase with datasets a and b (gold keys v1), and a run with a file for each, its results stored as if scored. */
async function scoredTwoDatasetRun() {
  const f = await createPhase(testDb.prisma, { datasets: [{ name: "a", gold: "x" }, { name: "b", gold: "y" }] });
  const [a, b] = f.datasets!;
  const id = await createRun(testDb.prisma, f, [
    { datasetId: a.id, text: RESPONSE },
    { datasetId: b.id, text: RESPONSE },
  ]);
  const golds = await testDb.prisma.goldKey.findMany({ where: { phaseId: f.phaseId }, select: { id: true, datasetId: true } });
  for (const d of [a, b]) {
    await testDb.prisma.submissionFile.update({
      where: { submissionId_datasetId: { submissionId: id, datasetId: d.id } },
      data: { goldKeyId: golds.find((g) => g.datasetId === d.id)!.id },
    });
    await testDb.prisma.datasetScore.create({ data: { submissionId: id, phaseId: f.phaseId, datasetId: d.id, metric: "conll", f1: 0.5 } });
    await testDb.prisma.documentScore.create({ data: { submissionId: id, datasetId: d.id, document: "doc", metric: "muc", recallNum: 1, recallDen: 2, precisionNum: 1, precisionDen: 2 } });
    await testDb.prisma.runAnalysis.create({ data: { submissionId: id, datasetId: d.id, errorCounts: {}, documentErrors: [], pronounDisclosure: {} } });
  }
  await testDb.prisma.score.create({ data: { submissionId: id, phaseId: f.phaseId, metric: "conll", f1: 0.5 } });
  await testDb.prisma.submission.update({ where: { id }, data: { evaluation: { profile: "conll2012" }, warnings: [{ code: "w", message: "m", dataset: "a" }] } });
  return { f, id, a, b };
}

/** How many rows of each result table the run has on dataset `datasetId`, and its file's gold key. */
async function resultsOn(id: string, datasetId: string) {
  const where = { submissionId: id, datasetId };
  return {
    datasetScores: await testDb.prisma.datasetScore.count({ where }),
    documentScores: await testDb.prisma.documentScore.count({ where }),
    analyses: await testDb.prisma.runAnalysis.count({ where }),
    goldKeyId: (await testDb.prisma.submissionFile.findUniqueOrThrow({ where: { submissionId_datasetId: where } })).goldKeyId,
  };
}

describe("finishClaim with datasets", () => {
  it("SCORED scoped to datasets deletes only their rows (and every Score row); FAILED deletes all and resets every file's gold key", async () => {
    const { f, id, a, b } = await scoredTwoDatasetRun();
    const keptA = await resultsOn(id, a.id);
    expect(keptA).toMatchObject({ datasetScores: 1, documentScores: 1, analyses: 1 });
    expect(keptA.goldKeyId).not.toBeNull();

    const first = await claimed(id);
    const scored = { status: "SCORED", goldVersion: null, scorerVersion: "9.9.9", datasetIds: [b.id] } as const;
    let seen: unknown = "not called";
    expect(
      await finishClaim(testDb.prisma, first, scored, async (tx) => {
        seen = { scores: await tx.score.count({ where: { submissionId: id } }), b: await tx.datasetScore.count({ where: { submissionId: id, datasetId: b.id } }) };
      }),
    ).toBe(true);
    // Inside the transaction the write saw b's rows and the phase-level rows gone.
    expect(seen).toEqual({ scores: 0, b: 0 });
    expect(await resultsOn(id, a.id)).toEqual(keptA);
    expect(await resultsOn(id, b.id)).toEqual({ datasetScores: 0, documentScores: 0, analyses: 0, goldKeyId: null });
    expect(await row(id)).toMatchObject({ status: "SCORED", goldVersion: null });
    expect(await testDb.prisma.submission.findUniqueOrThrow({ where: { id }, select: { evaluation: true, warnings: true } })).toEqual({ evaluation: null, warnings: [] });

    await testDb.prisma.$transaction((tx) => requeueSubmissions(tx, { id }, { datasetIds: [] }));
    const second = await claimed(id);
    expect(await finishClaim(testDb.prisma, second, { status: "FAILED", stage: ErrorStage.validation, message: "bad", location: null })).toBe(true);
    for (const d of [a, b]) expect(await resultsOn(id, d.id)).toEqual({ datasetScores: 0, documentScores: 0, analyses: 0, goldKeyId: null });
    expect(await testDb.prisma.score.count({ where: { submissionId: id } })).toBe(0);
    expect(f.datasets).toHaveLength(2);
  });

  it("SCORED without datasetIds replaces every dataset's results", async () => {
    const { id, a, b } = await scoredTwoDatasetRun();
    const claim = await claimed(id);
    expect(await finishClaim(testDb.prisma, claim, { status: "SCORED", goldVersion: 1, scorerVersion: "9.9.9" })).toBe(true);
    for (const d of [a, b]) expect(await resultsOn(id, d.id)).toEqual({ datasetScores: 0, documentScores: 0, analyses: 0, goldKeyId: null });
    expect(await row(id)).toMatchObject({ status: "SCORED", goldVersion: 1 });
  });
});

describe("heartbeatClaims", () => {
  it("refreshes the heartbeat of the claims still held and returns only those", async () => {
    const a = await submission();
    const b = await submission();
    const ca = await claimed(a, "w:1");
    const cb = await claimed(b, "w:1");
    await ageHeartbeat(a, 10_000);
    await ageHeartbeat(b, 10_000);
    await testDb.prisma.$transaction((tx) => requeueSubmissions(tx, { id: b }));
    const before = Date.now();
    expect(await heartbeatClaims(testDb.prisma, [ca, cb])).toEqual([ca]);
    expect((await row(a)).heartbeatAt!.getTime()).toBeGreaterThan(before - 1000);
    expect(await row(b)).toMatchObject({ status: "QUEUED", heartbeatAt: null });
    expect(await heartbeatClaims(testDb.prisma, [])).toEqual([]);
  });
});

describe("requeueSubmissions", () => {
  it("resets status, attempts, error and claim of every matching submission, oldest first", async () => {
    const f = await createPhase(testDb.prisma);
    const first = await submission(f);
    const second = await submission(f);
    await claimed(first, "w:1");
    await testDb.prisma.submission.update({ where: { id: second }, data: { status: "FAILED", attempts: 3, errorStage: "validation", errorMessage: "x", errorLocation: { line: 1 } } });
    const ids = await testDb.prisma.$transaction((tx) => requeueSubmissions(tx, { phaseId: f.phaseId }));
    expect(ids).toEqual([first, second]);
    for (const id of ids) {
      expect(await row(id)).toMatchObject({ status: "QUEUED", attempts: 0, workerId: null, heartbeatAt: null, startedAt: null, errorStage: null, errorMessage: null });
    }
  });

  it("keeps the old results; marks every dataset to be scored again by default, or only the datasets given", async () => {
    const { f, id, a, b } = await scoredTwoDatasetRun();
    const before = { a: await resultsOn(id, a.id), b: await resultsOn(id, b.id) };
    // A new gold key of b: only b's file loses its gold key; every result row stays.
    await addGold(testDb.prisma, f, 2, "z", "b-v2.conll", b.id);
    expect(await testDb.prisma.$transaction((tx) => requeueSubmissions(tx, { id }, { datasetIds: [b.id] }))).toEqual([id]);
    expect(await resultsOn(id, a.id)).toEqual(before.a);
    expect(await resultsOn(id, b.id)).toEqual({ ...before.b, goldKeyId: null });
    expect(await testDb.prisma.score.count({ where: { submissionId: id } })).toBe(1);
    // A change of the task's settings: every dataset.
    await testDb.prisma.$transaction((tx) => requeueSubmissions(tx, { id }));
    expect(await resultsOn(id, a.id)).toEqual({ ...before.a, goldKeyId: null });
    expect(await row(id)).toMatchObject({ status: "QUEUED", attempts: 0 });
  });
});

describe("reconciler steps", () => {
  it("requeueStale and failStaleExhausted take stale rows only; liveClaimIds names the live ones", async () => {
    // One team each: a team's runs are claimed one at a time.
    const f = await createPhase(testDb.prisma);
    const live = await submission(f);
    const dead = await submission(await withNewTeam(testDb.prisma, f));
    const exhausted = await submission(await withNewTeam(testDb.prisma, f));
    const mine = await submission(await withNewTeam(testDb.prisma, f));
    for (const id of [live, dead, exhausted, mine]) await claimed(id, "w:1");
    await testDb.prisma.submission.update({ where: { id: exhausted }, data: { attempts: 5 } });
    for (const id of [dead, exhausted, mine]) await ageHeartbeat(id, 30_000);
    const ids = [live, dead, exhausted, mine];
    // Other tests' rows may be stale too: look at this test's rows only.
    const ours = (found: string[]) => found.filter((id) => ids.includes(id));

    expect(await liveClaimIds(testDb.prisma, ids, STALE)).toEqual(new Set([live]));
    expect(ours(await failStaleExhausted(testDb.prisma, { ...LIMITS, skipIds: [mine] }))).toEqual([exhausted]);
    expect(await row(exhausted)).toMatchObject({ status: "FAILED", errorStage: "platform", errorMessage: tooManyAttemptsMessage(5) });
    expect(ours(await requeueStale(testDb.prisma, { ...STALE, skipIds: [mine] }))).toEqual([dead]);
    expect(await row(dead)).toMatchObject({ status: "QUEUED", attempts: 1, workerId: null });
    expect(await row(live)).toMatchObject({ status: "SCORING" });
    expect(await row(mine)).toMatchObject({ status: "SCORING" });
    expect(ours(await requeueStale(testDb.prisma, STALE))).toEqual([mine]);
  });
});
