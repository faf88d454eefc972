/**
 * Final results snapshots against a real database (issue 11 §2): who may publish and when
 * (401/403/404/409 with every reason), what is stored (the final boards, a CSV and a JSON whose
 * sha256 match the stored bytes, the gold versions and the scorer version, the audit event),
 * numbering (also under concurrent publishes), immutability (the database trigger; a later gold
 * upload and re-score leave a published snapshot's bytes as they were, and the next snapshot says
 * what changed), and who may read them (anonymous readers of a public task, drafts, the
 * PARTICIPANTS and ORGANIZERS audiences); disqualified runs after the ranking in the page's
 * boards and the CSV; the LaTeX and Markdown tables generated from the stored JSON, citing its
 * sha256 (issue 24 §2). Runs and scores are written straight to the database as the worker
 * writes them; the queue is mocked.
 */
import { beforeEach, describe, expect, it, vi } from "vitest";

// lib/__mocks__/queue.ts: enqueueScoring is a vi.fn.
vi.mock("../queue");
// The routes' anonymous requests read the session cookie; there is none outside a request.
vi.mock("next/headers", () => ({ cookies: async () => ({ getAll: () => [] }) }));

import { GET as getNumberedJson } from "../../app/api/v1/phases/[phaseId]/results/[number]/route";
import { GET as getNumberedCsv } from "../../app/api/v1/phases/[phaseId]/results/[number]/csv/route";
import { GET as getNumberedLatex } from "../../app/api/v1/phases/[phaseId]/results/[number]/latex/route";
import { GET as getNumberedMarkdown } from "../../app/api/v1/phases/[phaseId]/results/[number]/markdown/route";
import { GET as listRoute, POST as publishRoute } from "../../app/api/v1/phases/[phaseId]/results/route";
import { createApiToken } from "../accounts/api-tokens";
import { useTestDatabase } from "../db/test-db";
import { ConflictError, ForbiddenError, NotFoundError, UnauthorizedError, ValidationError } from "../errors";
import { enqueueScoring } from "../queue";
import { packFile } from "../storage";
import { SCORER_VERSION } from "../scorer/version";
import { uploadGoldKey } from "../tasks/gold";
import { getLeaderboard } from "./leaderboard";
import { snapshotChanges, type SnapshotChange } from "./snapshot-changes";
import { getSnapshotFile, snapshotDownloadHeaders } from "./snapshot-files";
import { sha256Hex, SNAPSHOT_JSON_FORMAT } from "./snapshot-format";
import { publishSnapshot, SNAPSHOT_NOTE_MAX, snapshotReadiness } from "./snapshot-publish";
import { snapshotLatex, snapshotMarkdown } from "./snapshot-tables";
import { getSnapshot, latestSnapshot, listSnapshots, parseSnapshotNumber } from "./snapshots";
import { bytes, csvCells, insertScores, insertSubmission, insertSubmissionInTrack, makeTaskWithPhase, makeTeam, makeTrack, makeUser, rejection, SMALL_KEY, type PhaseOverrides } from "../tasks/test-fixtures";

const testDb = useTestDatabase();

beforeEach(() => {
  vi.mocked(enqueueScoring).mockReset();
  vi.mocked(enqueueScoring).mockResolvedValue(undefined);
});

const HOUR = 3600_000;
const DAY = 24 * HOUR;

/** The CSV as its header and one map per data row, column name → cell. */
function csvRows(csv: string): { header: string[]; rows: Map<string, string>[] } {
  const [header, ...lines] = csv.trim().split("\r\n").map(csvCells);
  return { header, rows: lines.map((cells) => new Map(header.map((c, i) => [c, cells[i]]))) };
}

/**
 * A published task whose phase closed an hour ago (overridable), with an organizer, team Alpha
 * (member) and team Beta (rival), a reader outside every team, an active gold key (version 1),
 * and three scored public runs: Alpha 0.8, Beta 0.6 and the organizers' baseline 0.5.
 */
async function setup(options: { phase?: PhaseOverrides; status?: "DRAFT" | "PUBLISHED"; gold?: boolean } = {}) {
  const db = testDb.prisma;
  const organizer = await makeUser(db, "Organizer");
  const member = await makeUser(db, "Member");
  const rival = await makeUser(db, "Rival");
  const reader = await makeUser(db, "Reader");
  const { task, phase, dataset } = await makeTaskWithPhase(db, {
    organizerIds: [organizer.id],
    status: options.status,
    phase: { opensAt: new Date(Date.now() - 10 * DAY), closesAt: new Date(Date.now() - HOUR), ...options.phase },
  });
  const alpha = await makeTeam(db, "Alpha", [member.id]);
  const beta = await makeTeam(db, "Beta", [rival.id]);
  const orgTeam = await makeTeam(db, "Organizers", [organizer.id]);
  const gold = packFile(bytes(`gold of ${phase.id}`));
  if (options.gold !== false) {
    await db.goldKey.create({
      data: { phaseId: phase.id, datasetId: dataset.id, version: 1, fileName: "secret-key.conll", ...gold, documentCount: 2, uploadedById: organizer.id, active: true },
    });
  }
  let minute = 0;
  const run = async (teamId: string, submitterId: string, conll: number, fields: { isBaseline?: boolean; systemName?: string; status?: "QUEUED" | "SCORING" | "SCORED" } = {}) => {
    const s = await insertSubmission(db, {
      phaseId: phase.id,
      teamId,
      submitterId,
      isBaseline: fields.isBaseline,
      status: fields.status,
      systemName: fields.systemName ?? "sys",
      createdAt: new Date(Date.now() - 5 * DAY + minute++ * 60_000),
    });
    if ((fields.status ?? "SCORED") === "SCORED") await insertScores(db, s.id, phase.id, { conll, muc: [Math.round(conll * 100), 100, Math.round(conll * 100), 100] });
    return s.id;
  };
  const ids = {
    alpha: await run(alpha.id, member.id, 0.8, { systemName: "alpha-sys" }),
    beta: await run(beta.id, rival.id, 0.6, { systemName: "beta-sys" }),
    baseline: await run(orgTeam.id, organizer.id, 0.5, { isBaseline: true, systemName: "baseline" }),
  };
  return { db, task, phase, dataset, organizer, member, rival, reader, alpha, beta, orgTeam, gold, ids, run };
}

/** The sentences of a list of changes. */
const texts = (changes: SnapshotChange[]) => changes.map((c) => c.text);

describe("publishSnapshot: who and when", () => {
  it("is refused (409, every reason, nothing stored) while the phase is open, runs are queued or scoring, or no gold is active", async () => {
    const open = await setup({ phase: { closesAt: new Date(Date.now() + DAY) } });
    const stillOpen = await rejection(publishSnapshot(open.organizer.viewer, open.phase.id, { note: "x" }));
    expect(stillOpen).toBeInstanceOf(ConflictError);
    expect(stillOpen.httpStatus).toBe(409);
    expect(stillOpen.message).toMatch(/The test phase is still open \(it closes on .* UTC\): close it first/);

    const busy = await setup();
    await busy.run(busy.alpha.id, busy.member.id, 0, { status: "QUEUED" });
    await busy.run(busy.beta.id, busy.rival.id, 0, { status: "SCORING" });
    const scoring = await rejection(publishSnapshot(busy.organizer.viewer, busy.phase.id));
    expect(scoring).toBeInstanceOf(ConflictError);
    expect(scoring.message).toContain("2 runs of the phase are still being scored (1 queued, 1 scoring): wait until they are done.");
    expect(scoring.details?.problems).toEqual([expect.stringContaining("still being scored")]);

    const noGold = await setup({ gold: false });
    const goldless = await rejection(publishSnapshot(noGold.organizer.viewer, noGold.phase.id));
    expect(goldless.message).toContain("No dataset of the phase has an active gold key: upload the gold first.");

    // Every reason at once, and the same list from snapshotReadiness.
    const all = await setup({ gold: false, phase: { closesAt: new Date(Date.now() + DAY) } });
    await all.run(all.alpha.id, all.member.id, 0, { status: "QUEUED" });
    const many = await rejection(publishSnapshot(all.organizer.viewer, all.phase.id));
    expect(many.details?.problems).toHaveLength(3);
    const readiness = await snapshotReadiness(all.organizer.viewer, all.phase.id);
    expect(readiness).toEqual({ ready: false, problems: many.details?.problems, snapshots: [], resultsHref: `/tasks/${all.task.slug}/phases/${all.phase.id}/results` });
    expect(await snapshotReadiness(busy.organizer.viewer, busy.phase.id)).toMatchObject({ ready: false });

    for (const f of [open, busy, noGold, all]) expect(await f.db.resultSnapshot.count({ where: { phaseId: f.phase.id } })).toBe(0);
    expect(await open.db.auditEvent.count({ where: { action: "snapshot.publish", targetId: { in: [open.phase.id, busy.phase.id, noGold.phase.id, all.phase.id] } } })).toBe(0);
  });

  it("is refused in a draft task (409 for its organizers, 404 for everyone else)", async () => {
    const f = await setup({ status: "DRAFT" });
    const draft = await rejection(publishSnapshot(f.organizer.viewer, f.phase.id));
    expect(draft).toBeInstanceOf(ConflictError);
    expect(draft.message).toContain("The task is still a draft: publish the task before its final results.");
    expect(await rejection(publishSnapshot(f.reader.viewer, f.phase.id))).toBeInstanceOf(NotFoundError);
    expect(await rejection(publishSnapshot(f.member.viewer, f.phase.id))).toBeInstanceOf(NotFoundError);
    expect(await rejection(snapshotReadiness(f.reader.viewer, f.phase.id))).toBeInstanceOf(NotFoundError);
    expect((await snapshotReadiness(f.organizer.viewer, f.phase.id)).problems).toEqual(["The task is still a draft: publish the task before its final results."]);
    expect(await f.db.resultSnapshot.count({ where: { phaseId: f.phase.id } })).toBe(0);
  });

  it("is the organizers' (and site admins'): anonymous 401, participants and readers 403, unknown or malformed phases 404, a bad note 422", async () => {
    const f = await setup();
    expect(await rejection(publishSnapshot(null, f.phase.id))).toBeInstanceOf(UnauthorizedError);
    expect(await rejection(publishSnapshot(f.member.viewer, f.phase.id))).toBeInstanceOf(ForbiddenError);
    expect(await rejection(publishSnapshot(f.reader.viewer, f.phase.id))).toBeInstanceOf(ForbiddenError);
    expect(await rejection(snapshotReadiness(f.member.viewer, f.phase.id))).toBeInstanceOf(ForbiddenError);
    expect(await rejection(publishSnapshot(f.organizer.viewer, "not-a-uuid"))).toBeInstanceOf(NotFoundError);
    expect(await rejection(publishSnapshot(f.organizer.viewer, "00000000-0000-4000-8000-000000000000"))).toBeInstanceOf(NotFoundError);
    const long = (await rejection(publishSnapshot(f.organizer.viewer, f.phase.id, { note: "x".repeat(SNAPSHOT_NOTE_MAX + 1) }))) as ValidationError;
    expect(long).toBeInstanceOf(ValidationError);
    expect(long.fieldErrors[0].path).toBe("note");
    expect(await rejection(publishSnapshot(f.organizer.viewer, f.phase.id, { note: 42 }))).toBeInstanceOf(ValidationError);
    expect(await f.db.resultSnapshot.count({ where: { phaseId: f.phase.id } })).toBe(0);

    const admin = await makeUser(f.db, "Admin", "ADMIN");
    expect((await publishSnapshot(admin.viewer, f.phase.id)).number).toBe(1);
  });

  it("is refused while runs on the board were scored by another scorer version", async () => {
    const f = await setup();
    await f.db.submission.update({ where: { id: f.ids.alpha }, data: { scorerVersion: "0.0.1-old" } });
    const stale = await rejection(publishSnapshot(f.organizer.viewer, f.phase.id));
    expect(stale).toBeInstanceOf(ConflictError);
    expect(stale.message).toContain(`1 run was scored by another scorer version (0.0.1-old) than the current one (${SCORER_VERSION}): re-score the phase first`);
    await f.db.submission.update({ where: { id: f.ids.alpha }, data: { scorerVersion: SCORER_VERSION } });
    expect((await publishSnapshot(f.organizer.viewer, f.phase.id)).number).toBe(1);
  });
});

describe("publishSnapshot: what is stored", () => {
  it("stores the final board, a CSV and a JSON whose sha256 match the stored bytes, numbers 1, 2, … and audits snapshot.publish", async () => {
    const f = await setup();
    const now = new Date(Date.now() - 60_000);
    const first = await publishSnapshot(f.organizer.viewer, f.phase.id, { note: "  Final ranking of the **test** phase.  " }, now);
    expect(first).toMatchObject({ number: 1, note: "Final ranking of the **test** phase.", createdAt: now, changes: [{ kind: "first", text: "First published results." }] });

    const row = await f.db.resultSnapshot.findUniqueOrThrow({ where: { phaseId_number: { phaseId: f.phase.id, number: 1 } } });
    expect(row.createdById).toBe(f.organizer.id);
    expect(row.scorerVersion).toBe(SCORER_VERSION);
    expect(row.csvSha256).toBe(sha256Hex(row.csv));
    expect(row.jsonSha256).toBe(sha256Hex(row.json));
    expect(row.csvSha256).toBe(first.csvSha256);
    expect(row.gold).toEqual([{ dataset: "main", version: 1, sha256: f.gold.sha256, fileName: "secret-key.conll" }]);

    // The CSV: the board's columns, Alpha ranked first, the baseline unranked.
    const csv = csvRows(row.csv);
    expect(csv.header.slice(0, 3)).toEqual(["rank", "team", "system"]);
    expect(csv.header.at(-1)).toBe("track");
    expect(csv.rows.map((r) => [r.get("rank"), r.get("system"), r.get("conll_f1")])).toEqual([
      ["1", "alpha-sys", "0.8"],
      ["2", "beta-sys", "0.6"],
      ["", "baseline", "0.5"],
    ]);

    // The JSON: the documented document, serialized with 2 spaces and a final newline.
    expect(row.json.endsWith("}\n")).toBe(true);
    const doc = JSON.parse(row.json);
    expect(JSON.stringify(doc, null, 2) + "\n").toBe(row.json);
    expect(doc).toMatchObject({
      format: SNAPSHOT_JSON_FORMAT,
      task: { slug: f.task.slug, title: f.task.title },
      phase: { id: f.phase.id, name: "test", closesAt: f.phase.closesAt.toISOString() },
      snapshot: { number: 1, createdAt: now.toISOString(), note: "Final ranking of the **test** phase." },
      gold: [{ dataset: "main", version: 1 }],
      scorerVersion: SCORER_VERSION,
      evaluation: { profile: "conll2012" },
      selectionRule: "BEST",
      changes: [{ kind: "first", text: "First published results." }],
    });
    expect(doc.boards).toHaveLength(1);
    expect(doc.boards[0]).toMatchObject({ generatedAt: now.toISOString(), policy: { final: true, organizerView: false }, metric: "conll", allRuns: false });
    expect(doc.boards[0].rows.map((r: { systemName: string; rank: number | null }) => [r.systemName, r.rank])).toEqual([
      ["alpha-sys", 1],
      ["beta-sys", 2],
      ["baseline", null],
    ]);
    expect(row.board).toEqual(doc.boards);
    // Gold metadata stays the organizers': neither the file name nor the sha256 is in an export.
    for (const text of [row.csv, row.json]) {
      expect(text).not.toContain(f.gold.sha256);
      expect(text).not.toContain("secret-key");
    }

    const audit = await f.db.auditEvent.findMany({ where: { action: "snapshot.publish", targetType: "phase", targetId: f.phase.id } });
    expect(audit).toHaveLength(1);
    expect(audit[0].actorId).toBe(f.organizer.id);
    expect(audit[0].data).toMatchObject({ number: 1, csvSha256: row.csvSha256, jsonSha256: row.jsonSha256 });

    // The next one is number 2; with nothing changed it says so.
    const second = await publishSnapshot(f.organizer.viewer, f.phase.id, { note: "Same results, new note." });
    expect(second.number).toBe(2);
    expect(texts(second.changes)).toEqual(["Nothing changed since snapshot #1: the same ranking, gold versions and scorer version."]);
    expect(second.csvSha256).toBe(first.csvSha256);
    expect(second.jsonSha256).not.toBe(first.jsonSha256);

    // Concurrent publishers get consecutive numbers (the lock; the unique index would make one a 409).
    const both = await Promise.all([publishSnapshot(f.organizer.viewer, f.phase.id), publishSnapshot(f.organizer.viewer, f.phase.id)]);
    expect(both.map((s) => s.number).sort()).toEqual([3, 4]);
    expect(await f.db.auditEvent.count({ where: { action: "snapshot.publish", targetId: f.phase.id } })).toBe(4);
  });

  it("publishes the final board: hidden and withdrawn runs out, disqualified runs unranked with their reason, runs after a freeze in", async () => {
    const f = await setup();
    const late = await f.run(f.alpha.id, f.member.id, 0.95, { systemName: "alpha-late" });
    const hidden = await f.run(f.beta.id, f.rival.id, 0.99, { systemName: "beta-hidden" });
    const withdrawn = await f.run(f.beta.id, f.rival.id, 0.97, { systemName: "beta-withdrawn" });
    const gamma = await makeTeam(f.db, "Gamma", [f.reader.id]);
    const cheat = await f.run(gamma.id, f.reader.id, 0.9, { systemName: "gamma-cheat" });
    const lateAt = (await f.db.submission.findUniqueOrThrow({ where: { id: late } })).createdAt;
    await f.db.phase.update({ where: { id: f.phase.id }, data: { leaderboardTiming: "frozen", frozenAt: new Date(lateAt.getTime() - 1000) } });
    await f.db.submission.update({ where: { id: hidden }, data: { hiddenAt: new Date(), hiddenById: f.organizer.id } });
    await f.db.submission.update({ where: { id: withdrawn }, data: { withdrawnAt: new Date() } });
    await f.db.submission.update({ where: { id: cheat }, data: { disqualifiedAt: new Date(), disqualifiedReason: "Trained on the test set.", disqualifiedById: f.organizer.id } });

    await publishSnapshot(f.organizer.viewer, f.phase.id);
    // On the final board the disqualified run stands where its score puts it: above rank 2.
    const row = await f.db.resultSnapshot.findUniqueOrThrow({ where: { phaseId_number: { phaseId: f.phase.id, number: 1 } } });
    const stored = JSON.parse(row.json).boards[0].rows as { systemName: string; rank: number | null; disqualified: { reason: string } | null }[];
    expect(stored.map((r) => [r.systemName, r.rank, r.disqualified?.reason ?? null])).toEqual([
      ["alpha-late", 1, null],
      ["gamma-cheat", null, "Trained on the test set."],
      ["beta-sys", 2, null],
      ["baseline", null, null],
    ]);
    // The page's board lists it apart, after the ranking.
    const anonymous = await getSnapshot(null, f.phase.id, "1");
    expect(anonymous.boards[0].rows.map((r) => [r.systemName, r.rank])).toEqual([
      ["alpha-late", 1],
      ["beta-sys", 2],
      ["baseline", null],
    ]);
    expect(anonymous.boards[0].disqualified.map((r) => [r.systemName, r.rank, r.disqualified?.reason])).toEqual([["gamma-cheat", null, "Trained on the test set."]]);
    // So does the CSV: its last row, with the reason.
    expect(csvRows(row.csv).rows.map((r) => [r.get("system"), r.get("rank"), r.get("disqualified")])).toEqual([
      ["alpha-late", "1", ""],
      ["beta-sys", "2", ""],
      ["baseline", "", ""],
      ["gamma-cheat", "", "Trained on the test set."],
    ]);
    // The live board an anonymous reader sees still leaves out the run made after the freeze.
    expect((await getLeaderboard(f.phase.id, null)).rows.map((r) => r.systemName)).not.toContain("alpha-late");
  });

  it("a disqualified run with the top score is listed after the ranking, under its heading, on the page's board, in the CSV and in the LaTeX and Markdown tables", async () => {
    const f = await setup();
    const gamma = await makeTeam(f.db, "Gamma", [f.reader.id]);
    const cheat = await f.run(gamma.id, f.reader.id, 0.99, { systemName: "gamma-cheat" });
    await f.db.submission.update({ where: { id: cheat }, data: { disqualifiedAt: new Date(), disqualifiedReason: "Used the | test & keys.", disqualifiedById: f.organizer.id } });
    await publishSnapshot(f.organizer.viewer, f.phase.id);

    const view = await getSnapshot(null, f.phase.id, 1);
    expect(view.boards[0].rows.map((r) => r.systemName)).toEqual(["alpha-sys", "beta-sys", "baseline"]);
    expect(view.boards[0].disqualified.map((r) => r.systemName)).toEqual(["gamma-cheat"]);
    const csv = (await getSnapshotFile(null, f.phase.id, 1, "csv")).body;
    expect(csvRows(csv).rows.map((r) => r.get("system"))).toEqual(["alpha-sys", "beta-sys", "baseline", "gamma-cheat"]);

    const latex = (await getSnapshotFile(null, f.phase.id, 1, "latex")).body;
    const lines = latex.split("\n");
    const first = lines.findIndex((l) => l.startsWith("1 & "));
    const heading = lines.indexOf("\\multicolumn{5}{l}{\\textit{Disqualified}} \\\\");
    const cheatLine = lines.findIndex((l) => l.includes("& gamma-cheat &"));
    expect(first).toBeGreaterThan(0);
    expect(lines[first]).toContain("& alpha-sys & \\textbf{80.00} &");
    expect(heading).toBeGreaterThan(first);
    expect(lines.slice(heading - 2, heading)).toEqual(["\\midrule", "% Disqualified: unranked, listed after the ranking"]);
    expect(cheatLine).toBe(heading + 2);
    expect(lines[heading + 1]).toBe(`% ${gamma.name} / gamma-cheat: Used the | test & keys.`);
    expect(lines[cheatLine]).toBe(`-- & ${gamma.name} & gamma-cheat & 99.00 & 99.00 \\\\`);
    expect(lines[cheatLine + 1]).toBe("\\bottomrule");

    const markdown = (await getSnapshotFile(null, f.phase.id, 1, "markdown")).body;
    const rank1 = markdown.indexOf("| 1 | ");
    const dqHeading = markdown.indexOf("**Disqualified**");
    expect(rank1).toBeGreaterThan(0);
    expect(dqHeading).toBeGreaterThan(rank1);
    expect(markdown.indexOf("gamma-cheat")).toBeGreaterThan(dqHeading);
    expect(markdown).toContain(`| – | ${gamma.name} | gamma-cheat | 99.00 | 99.00 | Used the \\| test \\& keys. |`);
  });

  it("a phase with tracks: one board per track in the JSON, one CSV whose track column names each row's board", async () => {
    const f = await setup();
    const llm = await makeTrack(f.db, f.phase.id, "LLM", { position: 0 });
    const open = await makeTrack(f.db, f.phase.id, "open", { position: 1 });
    // The setup's team runs go to tracks; the baseline stays without one (a reference row on both boards).
    await f.db.submission.update({ where: { id: f.ids.alpha }, data: { trackId: llm.id } });
    await f.db.submission.update({ where: { id: f.ids.beta }, data: { trackId: open.id } });
    const s = await insertSubmissionInTrack(f.db, { phaseId: f.phase.id, teamId: f.beta.id, submitterId: f.rival.id, systemName: "beta-llm" }, llm.id);
    await insertScores(f.db, s.id, f.phase.id, { conll: 0.7 });

    const first = await publishSnapshot(f.organizer.viewer, f.phase.id);
    const row = await f.db.resultSnapshot.findUniqueOrThrow({ where: { phaseId_number: { phaseId: f.phase.id, number: first.number } } });
    const doc = JSON.parse(row.json);
    expect(doc.boards.map((b: { track: { name: string } }) => b.track.name)).toEqual(["LLM", "open"]);
    const csv = csvRows(row.csv);
    expect(row.csv.match(/^rank,/gm)).toHaveLength(1);
    expect(csv.rows.map((r) => [r.get("track"), r.get("rank"), r.get("system")])).toEqual([
      ["LLM", "1", "alpha-sys"],
      ["LLM", "2", "beta-llm"],
      ["LLM", "", "baseline"],
      ["open", "1", "beta-sys"],
      ["open", "", "baseline"],
    ]);
    const view = await getSnapshot(null, f.phase.id, first.number);
    expect(view.boards.map((b) => [b.track?.name, b.rows.length])).toEqual([
      ["LLM", 3],
      ["open", 2],
    ]);

    // The next snapshot names the track of each change.
    await f.db.score.updateMany({ where: { submissionId: s.id, metric: "conll" }, data: { f1: 0.9 } });
    const second = await publishSnapshot(f.organizer.viewer, f.phase.id);
    expect(texts(second.changes)).toEqual([
      `${f.beta.name} (LLM track): rank 2 → 1, CoNLL F1 70.00 → 90.00.`,
      `${f.alpha.name} (LLM track): rank 1 → 2, CoNLL F1 80.00 unchanged.`,
    ]);
  });
});

describe("snapshots are immutable", () => {
  it("the database refuses an UPDATE of a snapshot's content (only the creator link may be cleared)", async () => {
    const f = await setup();
    await publishSnapshot(f.organizer.viewer, f.phase.id, { note: "v1" });
    const where = { phaseId_number: { phaseId: f.phase.id, number: 1 } };
    const before = await f.db.resultSnapshot.findUniqueOrThrow({ where });
    await expect(f.db.resultSnapshot.update({ where, data: { csv: "rank,team\r\n1,forged\r\n" } })).rejects.toThrow(/immutable/);
    await expect(f.db.resultSnapshot.update({ where, data: { note: "rewritten" } })).rejects.toThrow(/immutable/);
    await expect(f.db.resultSnapshot.update({ where, data: { csvSha256: "0".repeat(64) } })).rejects.toThrow(/immutable/);
    await expect(f.db.resultSnapshot.updateMany({ where: { phaseId: f.phase.id }, data: { scorerVersion: "9.9.9" } })).rejects.toThrow(/immutable/);
    await expect(f.db.$executeRawUnsafe(`UPDATE result_snapshots SET json = '{}' WHERE id = $1::uuid`, before.id)).rejects.toThrow(/immutable/);
    // An account's deletion clears the creator link, which the trigger allows.
    await f.db.resultSnapshot.update({ where, data: { createdById: null } });
    const after = await f.db.resultSnapshot.findUniqueOrThrow({ where });
    expect({ ...after, createdById: before.createdById }).toEqual(before);
  });

  it("a later gold upload and re-score leave a published snapshot's bytes and checksums intact; the next snapshot says gold v1 → v2 and how the scores moved", async () => {
    const f = await setup();
    const first = await publishSnapshot(f.organizer.viewer, f.phase.id);
    const where = { phaseId_number: { phaseId: f.phase.id, number: 1 } };
    const before = await f.db.resultSnapshot.findUniqueOrThrow({ where });
    const csvBefore = await getSnapshotFile(null, f.phase.id, 1, "csv");

    // A new gold version: every run is re-queued, so publishing waits.
    const upload = await uploadGoldKey(f.organizer.viewer, f.phase.id, "key.conll", bytes(SMALL_KEY));
    expect(upload.gold.version).toBe(2);
    expect(upload.requeued).toBe(3);
    expect((await rejection(publishSnapshot(f.organizer.viewer, f.phase.id))).message).toContain("3 runs of the phase are still being scored (3 queued, 0 scoring)");

    // The worker re-scores them against version 2: Alpha drops below Beta.
    const rescore = async (id: string, conll: number) => {
      await f.db.score.deleteMany({ where: { submissionId: id } });
      await insertScores(f.db, id, f.phase.id, { conll });
      await f.db.submission.update({ where: { id }, data: { status: "SCORED", goldVersion: 2, scorerVersion: SCORER_VERSION } });
    };
    await rescore(f.ids.alpha, 0.55);
    await rescore(f.ids.beta, 0.6);
    await rescore(f.ids.baseline, 0.5);

    // Snapshot 1 is byte for byte what it was.
    const after = await f.db.resultSnapshot.findUniqueOrThrow({ where });
    expect(after).toEqual(before);
    expect(sha256Hex(after.csv)).toBe(first.csvSha256);
    expect(sha256Hex(after.json)).toBe(first.jsonSha256);
    expect(await getSnapshotFile(null, f.phase.id, 1, "csv")).toEqual(csvBefore);
    expect((await getSnapshot(null, f.phase.id, 1)).boards[0].rows.map((r) => [r.systemName, r.rank])).toEqual([
      ["alpha-sys", 1],
      ["beta-sys", 2],
      ["baseline", null],
    ]);

    // Snapshot 2 says what changed.
    const second = await publishSnapshot(f.organizer.viewer, f.phase.id, { note: "Corrected gold." });
    expect(second.number).toBe(2);
    expect(texts(second.changes)).toEqual([
      "Gold key of main: v1 → v2.",
      `${f.beta.name}: rank 2 → 1, CoNLL F1 60.00 unchanged.`,
      `${f.alpha.name}: rank 1 → 2, CoNLL F1 80.00 → 55.00.`,
    ]);
    expect(second.changes).toContainEqual({ kind: "gold", dataset: "main", from: 1, to: 2, text: "Gold key of main: v1 → v2." });
    expect(second.changes).toContainEqual(
      expect.objectContaining({ kind: "team_changed", team: { id: f.alpha.id, name: f.alpha.name }, rank: { from: 1, to: 2 }, value: { from: 0.8, to: 0.55 } }),
    );
    const view = await getSnapshot(null, f.phase.id, 2);
    expect(view.gold).toEqual([{ dataset: "main", version: 2 }]);
    expect(JSON.parse((await getSnapshotFile(null, f.phase.id, 2, "json")).body).gold).toEqual([{ dataset: "main", version: 2 }]);
  });
});

describe("reading snapshots", () => {
  it("anonymous readers of a public task list and read them and download the stored bytes; gold file names and checksums are the organizers'", async () => {
    const f = await setup();
    expect(await latestSnapshot(null, f.phase.id)).toBeNull();
    expect((await listSnapshots(null, f.phase.id)).snapshots).toEqual([]);
    await publishSnapshot(f.organizer.viewer, f.phase.id, { note: "first" });
    await publishSnapshot(f.organizer.viewer, f.phase.id, { note: "second" });

    const list = await listSnapshots(null, f.phase.id);
    expect(list.isOrganizer).toBe(false);
    expect(list.task.slug).toBe(f.task.slug);
    expect(list.snapshots.map((s) => [s.number, s.note])).toEqual([
      [2, "second"],
      [1, "first"],
    ]);
    expect(await latestSnapshot(null, f.phase.id)).toMatchObject({ number: 2, count: 2, href: `/tasks/${f.task.slug}/phases/${f.phase.id}/results/2` });
    expect(list.snapshots[1].links).toEqual({
      page: `/tasks/${f.task.slug}/phases/${f.phase.id}/results/1`,
      csv: `/api/v1/phases/${f.phase.id}/results/1/csv`,
      json: `/api/v1/phases/${f.phase.id}/results/1`,
      latex: `/api/v1/phases/${f.phase.id}/results/1/latex`,
      markdown: `/api/v1/phases/${f.phase.id}/results/1/markdown`,
    });

    const view = await getSnapshot(null, f.phase.id, "1");
    expect(view).toMatchObject({ number: 1, note: "first", latestNumber: 2, scorerVersion: SCORER_VERSION, gold: [{ dataset: "main", version: 1 }] });
    expect(view.gold[0]).not.toHaveProperty("sha256");
    expect(JSON.stringify(view)).not.toContain(f.gold.sha256);
    expect(view.boards[0].rows[0]).toMatchObject({ rank: 1, systemName: "alpha-sys", submittedAt: expect.any(Date), scores: { conll: { f1: 0.8 } } });
    const organizerView = await getSnapshot(f.organizer.viewer, f.phase.id, 1);
    expect(organizerView.isOrganizer).toBe(true);
    expect(organizerView.gold).toEqual([{ dataset: "main", version: 1, fileName: "secret-key.conll", sha256: f.gold.sha256 }]);

    const row = await f.db.resultSnapshot.findUniqueOrThrow({ where: { phaseId_number: { phaseId: f.phase.id, number: 1 } } });
    const csv = await getSnapshotFile(null, f.phase.id, "1", "csv");
    expect(csv).toEqual({
      body: row.csv,
      sha256: row.csvSha256,
      fileName: `${f.task.slug}-test-results-1.csv`,
      contentType: "text/csv; charset=utf-8",
      publicResults: true,
    });
    expect(view.csvBytes).toBe(Buffer.byteLength(row.csv));
    const json = await getSnapshotFile(null, f.phase.id, 1, "json");
    expect(json).toMatchObject({ body: row.json, sha256: row.jsonSha256, fileName: `${f.task.slug}-test-results-1.json`, contentType: "application/json; charset=utf-8" });

    for (const bad of ["3", "0", "01", "-1", "1.0", "abc", "99999999999"]) {
      expect(await rejection(getSnapshot(null, f.phase.id, bad))).toBeInstanceOf(NotFoundError);
      expect(await rejection(getSnapshotFile(null, f.phase.id, bad, "csv"))).toBeInstanceOf(NotFoundError);
    }
    expect(await rejection(getSnapshot(null, "nope", 1))).toBeInstanceOf(NotFoundError);
    expect(await rejection(listSnapshots(null, "00000000-0000-4000-8000-000000000000"))).toBeInstanceOf(NotFoundError);
    expect(parseSnapshotNumber("12")).toBe(12);
  });

  it("the LaTeX and Markdown tables are generated from the stored JSON and cite its file name and sha256; one table per track", async () => {
    const f = await setup();
    const llm = await makeTrack(f.db, f.phase.id, "LLM", { position: 0 });
    const open = await makeTrack(f.db, f.phase.id, "open_1", { position: 1 });
    await f.db.submission.update({ where: { id: f.ids.alpha }, data: { trackId: llm.id } });
    await f.db.submission.update({ where: { id: f.ids.beta }, data: { trackId: open.id } });
    const published = await publishSnapshot(f.organizer.viewer, f.phase.id);
    const row = await f.db.resultSnapshot.findUniqueOrThrow({ where: { phaseId_number: { phaseId: f.phase.id, number: 1 } } });
    const jsonName = `${f.task.slug}-test-results-1.json`;

    const latex = await getSnapshotFile(null, f.phase.id, 1, "latex");
    expect(latex).toMatchObject({ fileName: `${f.task.slug}-test-results-1.tex`, contentType: "text/x-tex; charset=utf-8", publicResults: true });
    expect(latex.sha256).toBe(sha256Hex(latex.body));
    expect(latex.body).toBe(snapshotLatex(row.json, { fileName: jsonName, sha256: published.jsonSha256 }));
    const tables = latex.body.split("\\end{tabular}\n").filter((t) => t.trim() !== "");
    expect(tables).toHaveLength(2);
    for (const [i, track] of ["LLM", "open_1"].entries()) {
      expect(tables[i]).toContain(`% Track: ${track}\n`);
      expect(tables[i]).toContain(`% Final results snapshot #1, published ${row.createdAt.toISOString()}; scorer version ${SCORER_VERSION}; gold keys: main v1\n`);
      expect(tables[i]).toContain(`% Source: ${jsonName} (the snapshot's JSON export), sha256 ${row.jsonSha256}\n`);
      expect(tables[i]).toContain(`% Generated: ${row.createdAt.toISOString()}\n`);
    }
    // The rows are the stored board's: Alpha ranked on LLM, Beta on open_1, the baseline on both.
    expect(tables[0]).toContain(`\n1 & ${f.alpha.name} & alpha-sys & \\textbf{80.00} & \\textbf{80.00} \\\\\n-- & ${f.orgTeam.name} & baseline (baseline) & 50.00 & 50.00 \\\\\n`);
    expect(tables[1]).toContain(`\n1 & ${f.beta.name} & beta-sys & \\textbf{60.00} & \\textbf{60.00} \\\\\n`);
    // Gold file names and checksums stay the organizers'.
    expect(latex.body).not.toContain(f.gold.sha256);

    const markdown = await getSnapshotFile(null, f.phase.id, 1, "markdown");
    expect(markdown).toMatchObject({ fileName: `${f.task.slug}-test-results-1.md`, contentType: "text/markdown; charset=utf-8" });
    expect(markdown.sha256).toBe(sha256Hex(markdown.body));
    expect(markdown.body).toBe(snapshotMarkdown(row.json, { fileName: jsonName, sha256: published.jsonSha256 }));
    expect(markdown.body.indexOf("### LLM track\n")).toBeLessThan(markdown.body.indexOf("### open\\_1 track\n"));
    expect(markdown.body.match(new RegExp(`Source: ${jsonName} \\(the snapshot's JSON export\\), sha256 ${row.jsonSha256}`, "g"))).toHaveLength(2);
    expect(markdown.body.trimEnd().split("\n").at(-1)).toBe(
      `Source: final results snapshot #1 of ${f.task.title} (test phase), published ${row.createdAt.toISOString()}: JSON export \`${jsonName}\`, sha256 \`${row.jsonSha256}\`.`,
    );
    expect(markdown.body).toContain(`| 1 | ${f.alpha.name} | alpha-sys | **80.00** | **80.00** |`);

    // Anything but a snapshot document is refused (the stored JSON would be damaged).
    expect(() => snapshotLatex("{}", { fileName: jsonName, sha256: "x" })).toThrow(/not a corefboard-results-snapshot\/1 document/);
  });

  it("a draft task's snapshots are its organizers' only (404 for everyone else)", async () => {
    const f = await setup();
    await publishSnapshot(f.organizer.viewer, f.phase.id);
    await f.db.task.update({ where: { id: f.task.id }, data: { status: "DRAFT" } });
    for (const viewer of [null, f.reader.viewer, f.member.viewer]) {
      expect(await rejection(listSnapshots(viewer, f.phase.id))).toBeInstanceOf(NotFoundError);
      expect(await rejection(getSnapshot(viewer, f.phase.id, 1))).toBeInstanceOf(NotFoundError);
      expect(await rejection(getSnapshotFile(viewer, f.phase.id, 1, "csv"))).toBeInstanceOf(NotFoundError);
      expect(await latestSnapshot(viewer, f.phase.id)).toBeNull();
    }
    expect((await getSnapshot(f.organizer.viewer, f.phase.id, 1)).number).toBe(1);
    expect((await getSnapshotFile(f.organizer.viewer, f.phase.id, 1, "csv")).publicResults).toBe(false);
  });

  it("respects the phase's audience: PARTICIPANTS (participants and organizers) and ORGANIZERS, even after a hidden-until-close board", async () => {
    const f = await setup();
    await f.db.phase.update({ where: { id: f.phase.id }, data: { leaderboardTiming: "after_close" } });
    await publishSnapshot(f.organizer.viewer, f.phase.id);
    // A public board hidden until the close: once published, the results are everyone's.
    expect((await getSnapshot(null, f.phase.id, 1)).boards[0].rows.map((r) => r.systemName)).toEqual(["alpha-sys", "beta-sys", "baseline"]);

    await f.db.phase.update({ where: { id: f.phase.id }, data: { leaderboardVisibility: "PARTICIPANTS" } });
    expect(await rejection(getSnapshot(null, f.phase.id, 1))).toBeInstanceOf(UnauthorizedError);
    expect(await rejection(listSnapshots(f.reader.viewer, f.phase.id))).toBeInstanceOf(ForbiddenError);
    expect(await rejection(getSnapshotFile(f.reader.viewer, f.phase.id, 1, "json"))).toBeInstanceOf(ForbiddenError);
    expect(await latestSnapshot(f.reader.viewer, f.phase.id)).toBeNull();
    expect((await getSnapshot(f.member.viewer, f.phase.id, 1)).number).toBe(1);
    const file = await getSnapshotFile(f.rival.viewer, f.phase.id, 1, "csv");
    expect(file.publicResults).toBe(false);
    expect(await latestSnapshot(f.member.viewer, f.phase.id)).toMatchObject({ number: 1 });

    await f.db.phase.update({ where: { id: f.phase.id }, data: { leaderboardVisibility: "ORGANIZERS" } });
    expect(await rejection(getSnapshot(f.member.viewer, f.phase.id, 1))).toBeInstanceOf(ForbiddenError);
    expect(await rejection(getSnapshot(null, f.phase.id, 1))).toBeInstanceOf(UnauthorizedError);
    expect((await listSnapshots(f.organizer.viewer, f.phase.id)).snapshots).toHaveLength(1);
  });
});

describe("snapshotChanges", () => {
  /** A stored board with rows `[team, system, rank, value, extra]`. */
  const board = (track: string | null, rows: [string, string, number | null, number | null, { baseline?: boolean; dq?: string }?][], metric = "conll") => ({
    metric,
    track: track === null ? null : { id: `t-${track}`, name: track, description: "" },
    rows: rows.map(([team, system, rank, value, extra]) => ({
      rank,
      value,
      team: { id: `id-${team}`, name: team },
      systemName: system,
      submissionId: `s-${system}`,
      isBaseline: extra?.baseline ?? false,
      disqualified: extra?.dq ? { reason: extra.dq, at: "2025-01-01T00:00:00.000Z" } : null,
    })),
  });
  const content = (number: number, boards: unknown[], gold = [{ dataset: "main", version: 1 }], scorerVersion = "1.0.0") => ({ number, gold, scorerVersion, boards });

  it("the first snapshot says so; teams and runs added, removed, disqualified and reinstated; scorer, metric, gold and track changes", () => {
    expect(snapshotChanges(null, content(1, []))).toEqual([{ kind: "first", text: "First published results." }]);
    const before = content(1, [
      board("LLM", [
        ["A", "a1", 1, 0.8],
        ["B", "b1", 2, 0.7],
        ["C", "c1", 3, 0.6],
        ["Org", "base", null, 0.5, { baseline: true }],
      ]),
      board("old", [["A", "a-old", 1, 0.5]]),
    ]);
    const after = content(
      2,
      [
        board(
          "LLM",
          [
            ["A", "a1", null, 0.8, { dq: "Used the test set." }],
            ["B", "b1", 1, 0.7],
            ["D", "d1", 2, 0.65],
            ["Org", "base", null, 0.5, { baseline: true }],
          ],
          "muc",
        ),
        board("new", [["B", "b-new", 1, 0.4]], "muc"),
      ],
      [
        { dataset: "main", version: 2 },
        { dataset: "extra", version: 1 },
      ],
      "1.1.0",
    );
    expect(texts(snapshotChanges(before, after))).toEqual([
      "Gold key of main: v1 → v2.",
      "Gold key of extra: none → v1.",
      "Scorer version: 1.0.0 → 1.1.0.",
      "Ranking metric: CoNLL F1 → MUC F1.",
      "B (LLM track): rank 2 → 1, MUC F1 70.00 unchanged.",
      "D (LLM track) is new on the board: rank 2, MUC F1 65.00.",
      "A (LLM track) is no longer on the board (was rank 1, MUC F1 80.00).",
      "C (LLM track) is no longer on the board (was rank 3, MUC F1 60.00).",
      'Run "a1" of A (LLM track) disqualified: Used the test set.',
      'Run "d1" of D (LLM track) added.',
      'Run "c1" of C (LLM track) removed.',
      "Track new added.",
      "Track old removed.",
    ]);
    const reinstated = snapshotChanges(after, content(3, [board("LLM", [["A", "a1", 1, 0.8]], "muc")], after.gold, "1.1.0"));
    expect(reinstated).toContainEqual(expect.objectContaining({ kind: "run_reinstated", submissionId: "s-a1", text: 'Run "a1" of A (LLM track) reinstated.' }));
    expect(snapshotChanges(content(4, [board(null, [["A", "a1", 1, 0.8]])]), content(5, [board(null, [["A", "a1", 1, 0.8]])]))).toEqual([
      { kind: "unchanged", text: "Nothing changed since snapshot #4: the same ranking, gold versions and scorer version." },
    ]);
  });
});

describe("the results routes (as Next calls them, with API tokens)", () => {
  const base = "http://localhost:3000";
  const ctx = <P extends Record<string, string>>(params: P) => ({ params: Promise.resolve(params) });
  const request = (method: string, path: string, token: string | null, body?: string, contentType = "application/json") =>
    new Request(`${base}${path}`, {
      method,
      headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { "Content-Type": contentType }) },
      body,
    });

  it("POST publishes (organizers, 201), GET lists; the downloads answer the stored bytes with their sha256, file name and cache rule", async () => {
    const f = await setup();
    const organizer = (await createApiToken(f.organizer.id, "results")).token;
    const member = (await createApiToken(f.member.id, "results")).token;
    const path = `/api/v1/phases/${f.phase.id}/results`;
    const params = ctx({ phaseId: f.phase.id });

    expect((await publishRoute(request("POST", path, null), params)).status).toBe(401);
    expect((await publishRoute(request("POST", path, member), params)).status).toBe(403);
    expect((await publishRoute(request("POST", path, organizer, "[1]"), params)).status).toBe(422);
    expect((await publishRoute(request("POST", path, organizer, "note", "text/plain"), params)).status).toBe(415);
    const created = await publishRoute(request("POST", path, organizer, JSON.stringify({ note: "Final." })), params);
    expect(created.status).toBe(201);
    const { snapshot } = (await created.json()) as { snapshot: { number: number; note: string; csvSha256: string; jsonSha256: string; links: { csv: string } } };
    expect(snapshot).toMatchObject({ number: 1, note: "Final.", links: { csv: `${path}/1/csv` } });
    // No body at all is fine too.
    expect((await publishRoute(request("POST", path, organizer), params)).status).toBe(201);

    const list = await listRoute(request("GET", path, null), params);
    expect(list.status).toBe(200);
    expect(((await list.json()) as { snapshots: { number: number }[] }).snapshots.map((s) => s.number)).toEqual([2, 1]);

    const row = await f.db.resultSnapshot.findUniqueOrThrow({ where: { phaseId_number: { phaseId: f.phase.id, number: 1 } } });
    const csv = await getNumberedCsv(request("GET", `${path}/1/csv`, null), ctx({ phaseId: f.phase.id, number: "1" }));
    expect(csv.status).toBe(200);
    const csvBytes = Buffer.from(await csv.arrayBuffer());
    expect(csvBytes.equals(Buffer.from(row.csv, "utf8"))).toBe(true);
    expect(sha256Hex(csvBytes.toString("utf8"))).toBe(snapshot.csvSha256);
    expect(Object.fromEntries(csv.headers)).toMatchObject({
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${f.task.slug}-test-results-1.csv"`,
      "x-content-sha256": snapshot.csvSha256,
      "cache-control": "public, max-age=31536000, immutable",
      etag: `"${snapshot.csvSha256}"`,
    });
    // Asked again with its ETag: 304, no body, the caching headers kept; another tag gets the file.
    const again = (tag: string) => {
      const r = request("GET", `${path}/1/csv`, null);
      r.headers.set("If-None-Match", tag);
      return getNumberedCsv(r, ctx({ phaseId: f.phase.id, number: "1" }));
    };
    const revalidated = await again(`W/"x", "${snapshot.csvSha256}"`);
    expect(revalidated.status).toBe(304);
    expect(await revalidated.text()).toBe("");
    expect(Object.fromEntries(revalidated.headers)).toMatchObject({ etag: `"${snapshot.csvSha256}"`, "cache-control": "public, max-age=31536000, immutable" });
    expect((await again('"not-it"')).status).toBe(200);
    const json = await getNumberedJson(request("GET", `${path}/1`, null), ctx({ phaseId: f.phase.id, number: "1" }));
    expect(await json.text()).toBe(row.json);
    expect(json.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(json.headers.get("x-content-sha256")).toBe(snapshot.jsonSha256);

    for (const [kind, handler, type] of [
      ["latex", getNumberedLatex, "text/x-tex; charset=utf-8"],
      ["markdown", getNumberedMarkdown, "text/markdown; charset=utf-8"],
    ] as const) {
      const table = await handler(request("GET", `${path}/1/${kind}`, null), ctx({ phaseId: f.phase.id, number: "1" }));
      expect(table.status).toBe(200);
      const text = await table.text();
      expect(text).toContain(`sha256 ${snapshot.jsonSha256}`);
      expect(Object.fromEntries(table.headers)).toMatchObject({
        "content-type": type,
        "content-disposition": `attachment; filename="${f.task.slug}-test-results-1.${kind === "latex" ? "tex" : "md"}"`,
        "x-content-sha256": sha256Hex(text),
        "cache-control": "public, max-age=31536000, immutable",
        etag: `"${sha256Hex(text)}"`,
      });
    }

    for (const number of ["3", "x", "0"]) {
      const missing = await getNumberedCsv(request("GET", `${path}/${number}/csv`, null), ctx({ phaseId: f.phase.id, number }));
      expect(missing.status).toBe(404);
      expect(missing.headers.get("cache-control")).toBe("no-store");
      expect((await getNumberedLatex(request("GET", `${path}/${number}/latex`, null), ctx({ phaseId: f.phase.id, number }))).status).toBe(404);
      expect((await getNumberedMarkdown(request("GET", `${path}/${number}/markdown`, null), ctx({ phaseId: f.phase.id, number }))).status).toBe(404);
    }

    // Results for participants only: readable by a participant's token, never cached publicly.
    await f.db.phase.update({ where: { id: f.phase.id }, data: { leaderboardVisibility: "PARTICIPANTS" } });
    expect((await getNumberedCsv(request("GET", `${path}/1/csv`, null), ctx({ phaseId: f.phase.id, number: "1" }))).status).toBe(401);
    const privateCsv = await getNumberedCsv(request("GET", `${path}/1/csv`, member), ctx({ phaseId: f.phase.id, number: "1" }));
    expect(privateCsv.status).toBe(200);
    expect(privateCsv.headers.get("cache-control")).toBe("private, no-store");
    expect((await getNumberedLatex(request("GET", `${path}/1/latex`, null), ctx({ phaseId: f.phase.id, number: "1" }))).status).toBe(401);
    const privateMarkdown = await getNumberedMarkdown(request("GET", `${path}/1/markdown`, member), ctx({ phaseId: f.phase.id, number: "1" }));
    expect(privateMarkdown.status).toBe(200);
    expect(privateMarkdown.headers.get("cache-control")).toBe("private, no-store");
    expect(snapshotDownloadHeaders({ body: "", sha256: "a", fileName: "f.csv", contentType: "text/csv; charset=utf-8", publicResults: false })["Cache-Control"]).toBe(
      "private, no-store",
    );
  });
});
