/**
 * The organizer's console services against a real database (issue 11 §3): the runs of a phase
 * (each filter, paging in a stable newest-first order, the primary score, flags, 404 for
 * non-organizers), the query parser's field errors, the teams of a task with their counts, and
 * the streamed archive of a phase's runs (every file's bytes, the manifest, organizers only,
 * produced batch by batch as it is read).
 */
import { randomBytes } from "node:crypto";
import { createGunzip } from "node:zlib";
import { Readable } from "node:stream";
import * as tar from "tar-stream";
import { describe, expect, it, vi } from "vitest";

vi.mock("../queue");

import { useTestDatabase } from "../db/test-db";
import { NotFoundError, UnauthorizedError, ValidationError } from "../errors";
import { packFile, sha256Hex } from "../storage";
import {
  archiveName,
  CONSOLE_PAGE_SIZE,
  listConsoleRuns,
  listTaskTeamStats,
  parseConsoleRunsQuery,
  phaseRunsArchive,
  RUNS_MANIFEST_COLUMNS,
  TEAMS_PAGE_SIZE,
} from "./console";
import { bytes, csvCells, insertScores, insertSubmission, insertSubmissionInTrack, makeTaskWithPhase, makeTeam, makeTrack, makeUser, rejection, thrown } from "../tasks/test-fixtures";

const testDb = useTestDatabase();

const HOUR = 3600_000;

/** An organizer, an admin, an outsider; a task with a phase; teams Alpha (2 members) and Beta. */
async function setup(options: { primaryMetric?: string } = {}) {
  const db = testDb.prisma;
  const organizer = await makeUser(db, "Console Organizer");
  const admin = await makeUser(db, "Console Admin", "ADMIN");
  const member = await makeUser(db, "Alpha Member");
  const other = await makeUser(db, "Alpha Other");
  const rival = await makeUser(db, "Beta Member");
  const { task, phase } = await makeTaskWithPhase(db, { organizerIds: [organizer.id], primaryMetric: options.primaryMetric });
  const alpha = await makeTeam(db, "Alpha", [member.id, other.id]);
  const beta = await makeTeam(db, "Beta", [rival.id]);
  return { db, organizer, admin, member, other, rival, task, phase, alpha, beta };
}

describe("parseConsoleRunsQuery", () => {
  it("reads status (any case), team, UTC dates (the end date inclusive) and the page; blanks are no filter", () => {
    expect(parseConsoleRunsQuery({ status: "scored", team: " Alpha ", from: "2026-01-02", to: "2026-01-03", page: "3" })).toEqual({
      status: "SCORED",
      team: "Alpha",
      from: new Date("2026-01-02T00:00:00.000Z"),
      to: new Date("2026-01-04T00:00:00.000Z"),
      page: 3,
    });
    expect(parseConsoleRunsQuery({ status: "", team: "  ", from: null, page: undefined })).toEqual({ status: undefined, team: undefined, from: undefined, to: undefined, page: 1 });
  });

  it("answers a 422 with a field error per bad value", () => {
    const error = thrown(() => parseConsoleRunsQuery({ status: "done", from: "2026-02-30", to: "yesterday", page: "0" })) as ValidationError;
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.httpStatus).toBe(422);
    expect(error.fieldErrors.map((e) => e.path)).toEqual(["status", "from", "to", "page"]);
    expect(error.fieldErrors[0].message).toBe('Unknown status "done". Choose one of: queued, scoring, scored, failed.');
    expect(error.fieldErrors[1].message).toBe('"2026-02-30" is not a date. Use YYYY-MM-DD (UTC).');
    const order = thrown(() => parseConsoleRunsQuery({ from: "2026-03-02", to: "2026-03-01" })) as ValidationError;
    expect(order.fieldErrors).toEqual([{ path: "from", message: "The start date must not be after the end date." }]);
    expect((thrown(() => parseConsoleRunsQuery({ team: "x".repeat(201) })) as ValidationError).fieldErrors[0].path).toBe("team");
    expect((thrown(() => parseConsoleRunsQuery({ page: "2.5" })) as ValidationError).fieldErrors[0].path).toBe("page");
  });
});

describe("listConsoleRuns", () => {
  it("lists every run newest first with team, system, track, status, primary score, warnings and flags", async () => {
    const f = await setup({ primaryMetric: "muc" });
    const track = await makeTrack(f.db, f.phase.id, "Closed");
    const base = Date.now() - 10 * HOUR;
    const a = await insertSubmission(f.db, { phaseId: f.phase.id, teamId: f.alpha.id, submitterId: f.member.id, systemName: "alpha-1", createdAt: new Date(base) });
    await insertScores(f.db, a.id, f.phase.id, { conll: 0.7, muc: [1, 2, 1, 2] });
    await insertScores(f.db, a.id, f.phase.id, { muc: [1, 1, 1, 1] }, { variant: "partial" });
    const b = await insertSubmission(f.db, { phaseId: f.phase.id, teamId: f.beta.id, submitterId: f.rival.id, systemName: "beta-1", status: "FAILED", createdAt: new Date(base + HOUR) });
    await f.db.submission.update({
      where: { id: b.id },
      data: { errorMessage: "line 3: bad", trackId: track.id, warnings: [{ code: "x", message: "one" }, { code: "y", message: "two" }], hiddenAt: new Date(), disqualifiedAt: new Date(), disqualifiedReason: "Late." },
    });
    const c = await insertSubmission(f.db, { phaseId: f.phase.id, teamId: f.alpha.id, submitterId: f.organizer.id, systemName: "base", isBaseline: true, status: "QUEUED", createdAt: new Date(base + 2 * HOUR) });
    await f.db.submission.update({ where: { id: c.id }, data: { withdrawnAt: new Date(), finalSelectedAt: new Date() } });

    const page = await listConsoleRuns(f.organizer.viewer, f.phase.id);
    expect(page).toMatchObject({ phase: { id: f.phase.id, name: f.phase.name, taskId: f.task.id }, primaryMetric: "muc", page: 1, pageSize: CONSOLE_PAGE_SIZE, total: 3, pages: 1 });
    expect(page.byStatus).toEqual({ QUEUED: 1, SCORING: 0, SCORED: 1, FAILED: 1 });
    expect(page.runs.map((r) => r.id)).toEqual([c.id, b.id, a.id]);
    const [rc, rb, ra] = page.runs;
    expect(ra).toMatchObject({ team: { id: f.alpha.id, name: f.alpha.name }, systemName: "alpha-1", track: null, status: "SCORED", primaryScore: 0.5, warnings: 0, isBaseline: false });
    expect(ra.hiddenAt).toBeNull();
    expect(rb).toMatchObject({ systemName: "beta-1", track: { id: track.id, name: "Closed" }, status: "FAILED", primaryScore: null, warnings: 2, errorMessage: "line 3: bad", disqualified: { reason: "Late." } });
    expect(rb.hiddenAt).toBeInstanceOf(Date);
    expect(rc).toMatchObject({ isBaseline: true, status: "QUEUED" });
    expect(rc.withdrawnAt).toBeInstanceOf(Date);
    expect(rc.finalSelectedAt).toBeInstanceOf(Date);
    // Site admins see it too.
    expect((await listConsoleRuns(f.admin.viewer, f.phase.id)).total).toBe(3);
  });

  it("the primary score is the CoNLL F1 by default", async () => {
    const f = await setup();
    const a = await insertSubmission(f.db, { phaseId: f.phase.id, teamId: f.alpha.id, submitterId: f.member.id });
    await insertScores(f.db, a.id, f.phase.id, { conll: 0.61, muc: [1, 2, 1, 2] });
    expect((await listConsoleRuns(f.organizer.viewer, f.phase.id)).runs[0].primaryScore).toBe(0.61);
  });

  it("filters by status, team (id or a part of its name, any case, wildcards literal) and UTC dates, each alone and together", async () => {
    const f = await setup();
    const pct = await makeTeam(f.db, "100%_sure", [f.other.id]);
    const day = (d: number, h = 12) => new Date(Date.UTC(2026, 0, d, h));
    const run = (teamId: string, d: number, status: "SCORED" | "FAILED" = "SCORED", h = 12) =>
      insertSubmission(f.db, { phaseId: f.phase.id, teamId, submitterId: f.member.id, status, createdAt: day(d, h) }).then((r) => r.id);
    const a1 = await run(f.alpha.id, 1);
    const a2 = await run(f.alpha.id, 2, "FAILED", 0);
    const b2 = await run(f.beta.id, 2, "SCORED", 23);
    const b3 = await run(f.beta.id, 3, "FAILED");
    const p4 = await run(pct.id, 4);
    const ids = async (query: Parameters<typeof parseConsoleRunsQuery>[0]) => (await listConsoleRuns(f.organizer.viewer, f.phase.id, parseConsoleRunsQuery(query))).runs.map((r) => r.id);

    expect(await ids({})).toEqual([p4, b3, b2, a2, a1]);
    expect(await ids({ status: "failed" })).toEqual([b3, a2]);
    expect(await ids({ team: "alpha" })).toEqual([a2, a1]);
    expect(await ids({ team: f.beta.id })).toEqual([b3, b2]);
    expect(await ids({ team: f.beta.id.toUpperCase() })).toEqual([b3, b2]);
    expect(await ids({ team: "%" })).toEqual([p4]);
    expect(await ids({ team: "0%_s" })).toEqual([p4]);
    expect(await ids({ team: "nobody" })).toEqual([]);
    expect(await ids({ from: "2026-01-02" })).toEqual([p4, b3, b2, a2]);
    expect(await ids({ to: "2026-01-02" })).toEqual([b2, a2, a1]);
    expect(await ids({ from: "2026-01-02", to: "2026-01-02" })).toEqual([b2, a2]);
    expect(await ids({ from: "2026-01-02", to: "2026-01-03", status: "FAILED", team: "Beta" })).toEqual([b3]);
    const filtered = await listConsoleRuns(f.organizer.viewer, f.phase.id, parseConsoleRunsQuery({ status: "failed" }));
    expect([filtered.total, filtered.pages]).toEqual([2, 1]);
    // The status counts are the phase's, whatever the filters.
    expect(filtered.byStatus).toMatchObject({ SCORED: 3, FAILED: 2 });
  });

  it("pages by 50 in a stable order (newest first, ties by id), every run exactly once", async () => {
    const f = await setup();
    const at = new Date(Date.UTC(2026, 1, 1));
    const rows = [];
    // 120 runs, groups of four sharing a timestamp: the id breaks the ties.
    for (let i = 0; i < 120; i++) rows.push(await insertSubmission(f.db, { phaseId: f.phase.id, teamId: i % 2 ? f.alpha.id : f.beta.id, submitterId: f.member.id, createdAt: new Date(at.getTime() + Math.floor(i / 4) * 1000) }));
    const expected = [...rows].sort((x, y) => y.createdAt.getTime() - x.createdAt.getTime() || (y.id < x.id ? -1 : 1)).map((r) => r.id);
    const pages = [];
    for (let page = 1; page <= 4; page++) pages.push(await listConsoleRuns(f.organizer.viewer, f.phase.id, { page }));
    expect(pages.map((p) => p.runs.length)).toEqual([50, 50, 20, 0]);
    expect(pages.map((p) => [p.total, p.pages])).toEqual(pages.map(() => [120, 3]));
    expect(pages.flatMap((p) => p.runs.map((r) => r.id))).toEqual(expected);
    const alphaPage2 = await listConsoleRuns(f.organizer.viewer, f.phase.id, parseConsoleRunsQuery({ team: f.alpha.id, page: "2" }));
    expect([alphaPage2.total, alphaPage2.pages, alphaPage2.runs.length]).toEqual([60, 2, 10]);
  });

  it("organizers only: 404 for participants and outsiders (as for an unknown phase), 401 anonymous", async () => {
    const f = await setup();
    await insertSubmission(f.db, { phaseId: f.phase.id, teamId: f.alpha.id, submitterId: f.member.id });
    for (const viewer of [f.member.viewer, f.rival.viewer]) {
      const error = await rejection(listConsoleRuns(viewer, f.phase.id));
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error.message).toBe("No such phase.");
    }
    expect(await rejection(listConsoleRuns(null, f.phase.id))).toBeInstanceOf(UnauthorizedError);
    expect((await rejection(listConsoleRuns(f.organizer.viewer, "not-a-uuid"))).message).toBe("No such phase.");
  });
});

describe("listTaskTeamStats", () => {
  it("lists the task's teams with members, runs (baselines counted apart) and last run, latest first; a recorded team without runs last", async () => {
    const f = await setup();
    const quiet = await makeTeam(f.db, "Quiet", [f.other.id]);
    await f.db.taskParticipant.create({ data: { taskId: f.task.id, userId: f.other.id, teamId: quiet.id } });
    const old = new Date(Date.UTC(2026, 0, 1));
    const late = new Date(Date.UTC(2026, 0, 5));
    await insertSubmission(f.db, { phaseId: f.phase.id, teamId: f.alpha.id, submitterId: f.member.id, createdAt: old });
    await insertSubmission(f.db, { phaseId: f.phase.id, teamId: f.alpha.id, submitterId: f.member.id, createdAt: new Date(old.getTime() + HOUR), isBaseline: true });
    await insertSubmission(f.db, { phaseId: f.phase.id, teamId: f.beta.id, submitterId: f.rival.id, createdAt: late });
    // Another task's runs do not count.
    const elsewhere = await makeTaskWithPhase(f.db);
    await insertSubmission(f.db, { phaseId: elsewhere.phase.id, teamId: f.alpha.id, submitterId: f.member.id, createdAt: new Date(Date.UTC(2026, 0, 9)) });

    const page = await listTaskTeamStats(f.organizer.viewer, f.task.id);
    expect(page).toMatchObject({ page: 1, pageSize: TEAMS_PAGE_SIZE, total: 3, pages: 1 });
    expect(page.teams).toEqual([
      { id: f.beta.id, name: f.beta.name, members: 1, runs: 1, baselineRuns: 0, lastRunAt: late },
      { id: f.alpha.id, name: f.alpha.name, members: 2, runs: 2, baselineRuns: 1, lastRunAt: new Date(old.getTime() + HOUR) },
      { id: quiet.id, name: quiet.name, members: 1, runs: 0, baselineRuns: 0, lastRunAt: null },
    ]);
    expect((await listTaskTeamStats(f.organizer.viewer, f.task.id, 2)).teams).toEqual([]);
  });

  it("pages by 50, and is for organizers only (404 for others, 401 anonymous, 422 for a bad page)", async () => {
    const f = await setup();
    for (let i = 0; i < TEAMS_PAGE_SIZE + 2; i++) {
      const team = await makeTeam(f.db, `Many ${i}`, [f.member.id]);
      await insertSubmission(f.db, { phaseId: f.phase.id, teamId: team.id, submitterId: f.member.id, createdAt: new Date(Date.UTC(2026, 0, 1) + i * 1000) });
    }
    const first = await listTaskTeamStats(f.organizer.viewer, f.task.id, 1);
    const second = await listTaskTeamStats(f.admin.viewer, f.task.id, 2);
    expect([first.teams.length, second.teams.length, first.total, first.pages]).toEqual([50, 2, 52, 2]);
    expect(new Set([...first.teams, ...second.teams].map((t) => t.id)).size).toBe(52);
    expect(await rejection(listTaskTeamStats(f.member.viewer, f.task.id))).toBeInstanceOf(NotFoundError);
    expect(await rejection(listTaskTeamStats(null, f.task.id))).toBeInstanceOf(UnauthorizedError);
    expect((await rejection(listTaskTeamStats(f.organizer.viewer, f.task.id, 0))).httpStatus).toBe(422);
  });
});

/** Reads a `.tar.gz` web stream back: each entry's path and bytes, in order. */
async function readArchive(stream: ReadableStream<Uint8Array>): Promise<{ path: string; bytes: Buffer }[]> {
  const extract = tar.extract();
  const entries: { path: string; bytes: Buffer }[] = [];
  const reading = (async () => {
    for await (const entry of extract) {
      const chunks: Buffer[] = [];
      for await (const chunk of entry) chunks.push(Buffer.from(chunk as Uint8Array));
      entries.push({ path: entry.header.name, bytes: Buffer.concat(chunks) });
    }
  })();
  Readable.fromWeb(stream as import("node:stream/web").ReadableStream).pipe(createGunzip()).pipe(extract as unknown as NodeJS.WritableStream);
  await reading;
  return entries;
}

describe("phaseRunsArchive", () => {
  it("streams every run's files as <team>/<run id>-<system>/<file> with a runs.csv manifest, reading the runs in batches", async () => {
    const f = await setup();
    const slash = await makeTeam(f.db, "Te/am ../x", [f.rival.id]);
    const expected = new Map<string, Buffer>();
    const manifest = new Map<string, string[]>();
    const teams = [f.alpha, f.beta, slash];
    const start = Date.UTC(2026, 2, 1);
    for (let i = 0; i < 230; i++) {
      const team = teams[i % 3];
      const content = Buffer.from(`run ${i}\n${"x".repeat(i * 37)}\n`);
      const stored = packFile(content);
      const systemName = i === 5 ? "../../etc/passwd" : `sys ${i}`;
      const row = await insertSubmission(f.db, { phaseId: f.phase.id, teamId: team.id, submitterId: f.member.id, systemName, createdAt: new Date(start + i * 1000), isBaseline: i === 7 });
      await f.db.submissionFile.updateMany({ where: { submissionId: row.id }, data: { gzip: stored.gzip, sha256: stored.sha256, size: stored.size, fileName: i === 9 ? "a/b\\c.conll" : "response.conll" } });
      if (i % 2 === 0) await insertScores(f.db, row.id, f.phase.id, { conll: i / 1000 });
      if (i === 11) await f.db.submission.update({ where: { id: row.id }, data: { hiddenAt: new Date(), disqualifiedAt: new Date(), disqualifiedReason: "Copied, \"obviously\"." } });
      const entryPath = `${archiveName(team.name)}/${row.id}-${archiveName(systemName)}/${i === 9 ? "a_b_c.conll" : "response.conll"}`;
      expected.set(entryPath, content);
      manifest.set(row.id, [
        row.id,
        team.name,
        systemName,
        "",
        "SCORED",
        row.createdAt.toISOString(),
        i % 2 === 0 ? String(i / 1000) : "",
        i === 7 ? "yes" : "no",
        "no",
        i === 11 ? "yes" : "no",
        i === 11 ? 'Copied, "obviously".' : "",
        entryPath,
        sha256Hex(content),
        String(content.byteLength),
      ]);
    }
    // Another phase's runs are not in it.
    const elsewhere = await makeTaskWithPhase(f.db, { organizerIds: [f.organizer.id] });
    await insertSubmission(f.db, { phaseId: elsewhere.phase.id, teamId: f.alpha.id, submitterId: f.member.id });

    const batches: number[] = [];
    const archive = await phaseRunsArchive(f.organizer.viewer, f.phase.id, { batchSize: 50, onBatch: (n) => batches.push(n) });
    expect(archive.fileName).toBe(`${f.task.slug}-test-runs.tar.gz`);
    const entries = await readArchive(archive.stream);
    expect(batches).toEqual([50, 50, 50, 50, 30]);
    expect(entries.map((e) => e.path)).toEqual([...expected.keys(), "runs.csv"]);
    for (const entry of entries.slice(0, -1)) expect(entry.bytes.equals(expected.get(entry.path)!), entry.path).toBe(true);
    for (const entry of entries) expect(entry.path.split("/").some((part) => part === ".." || part === "")).toBe(false);
    expect(entries.some((e) => e.path.startsWith("Te_am __x "))).toBe(true);

    const lines = entries[entries.length - 1].bytes.toString("utf8").trimEnd().split("\n");
    expect(lines[0]).toBe(RUNS_MANIFEST_COLUMNS.join(","));
    expect(lines).toHaveLength(231);
    expect(lines.slice(1).map(csvCells)).toEqual([...manifest.values()]);
  });

  it("is produced as it is read: after the first chunk only part of the runs has been read from the database", async () => {
    const f = await setup();
    for (let i = 0; i < 40; i++) {
      // Incompressible files of 256 KiB: the buffers between the producer and the reader hold a few of them at most.
      const content = randomBytes(256 * 1024);
      const stored = packFile(content);
      const row = await insertSubmission(f.db, { phaseId: f.phase.id, teamId: f.alpha.id, submitterId: f.member.id, createdAt: new Date(Date.UTC(2026, 3, 1) + i * 1000) });
      await f.db.submissionFile.updateMany({ where: { submissionId: row.id }, data: { gzip: stored.gzip, sha256: stored.sha256, size: stored.size } });
    }
    let runsRead = 0;
    const archive = await phaseRunsArchive(f.organizer.viewer, f.phase.id, { batchSize: 4, onBatch: (n) => (runsRead += n) });
    const reader = archive.stream.getReader();
    expect((await reader.read()).done).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(runsRead).toBeGreaterThan(0);
    expect(runsRead).toBeLessThan(20);
    await reader.cancel();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(runsRead).toBeLessThan(20);
  });

  it("runs.csv guards text cells that start like a formula (team, system, track, reason, path) and leaves numbers alone", async () => {
    const f = await setup();
    const team = await f.db.team.update({ where: { id: f.alpha.id }, data: { name: '=HYPERLINK("x")' } });
    const track = await makeTrack(f.db, f.phase.id, "－Closed");
    const row = await insertSubmissionInTrack(f.db, { phaseId: f.phase.id, teamId: team.id, submitterId: f.member.id, systemName: "+cmd|' /C calc'!A0" }, track.id);
    await insertScores(f.db, row.id, f.phase.id, { conll: 0.25 });
    await f.db.submission.update({ where: { id: row.id }, data: { disqualifiedAt: new Date(), disqualifiedReason: "@SUM(1)" } });
    const file = await f.db.submissionFile.findFirstOrThrow({ where: { submissionId: row.id } });

    const entries = await readArchive((await phaseRunsArchive(f.organizer.viewer, f.phase.id)).stream);
    const entryPath = `=HYPERLINK("x")/${row.id}-+cmd|' _C calc'!A0/${file.fileName}`;
    expect(entries.map((e) => e.path)).toEqual([entryPath, "runs.csv"]);
    const text = entries[1].bytes.toString("utf8");
    const lines = text.split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe("");
    expect(csvCells(lines[1])).toEqual([
      row.id,
      `'=HYPERLINK("x")`,
      "'+cmd|' /C calc'!A0",
      "'－Closed",
      "SCORED",
      row.createdAt.toISOString(),
      "0.25",
      "no",
      "no",
      "no",
      "'@SUM(1)",
      `'${entryPath}`,
      file.sha256,
      String(file.size),
    ]);
    // The raw line: the quote-bearing cells are quoted, every dangerous one starts with an apostrophe.
    expect(lines[1]).toContain(`,"'=HYPERLINK(""x"")",'+cmd|' /C calc'!A0,'－Closed,`);
  });

  it("an empty phase gives an archive holding only the manifest's header", async () => {
    const f = await setup();
    const entries = await readArchive((await phaseRunsArchive(f.admin.viewer, f.phase.id)).stream);
    expect(entries.map((e) => [e.path, e.bytes.toString("utf8")])).toEqual([["runs.csv", `${RUNS_MANIFEST_COLUMNS.join(",")}\n`]]);
  });

  it("organizers only: 404 for team members and outsiders, 401 anonymous, before anything is streamed", async () => {
    const f = await setup();
    await insertSubmission(f.db, { phaseId: f.phase.id, teamId: f.alpha.id, submitterId: f.member.id });
    for (const viewer of [f.member.viewer, f.rival.viewer]) {
      const error = await rejection(phaseRunsArchive(viewer, f.phase.id));
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error.message).toBe("No such phase.");
    }
    expect(await rejection(phaseRunsArchive(null, f.phase.id))).toBeInstanceOf(UnauthorizedError);
  });
});

describe("archiveName", () => {
  it("makes a name one safe path segment", () => {
    expect(archiveName("a/b\\c")).toBe("a_b_c");
    expect(archiveName("../..")).toBe("___");
    expect(archiveName("..")).toBe("_");
    expect(archiveName("  ")).toBe("_");
    expect(archiveName(".")).toBe("_");
    expect(archiveName("x\u0000y\nz")).toBe("x_y_z");
    expect(archiveName("v1.2 final")).toBe("v1.2 final");
    expect(archiveName("n".repeat(150))).toHaveLength(100);
    expect(bytes(archiveName("ü")).length).toBe(2);
  });
});
