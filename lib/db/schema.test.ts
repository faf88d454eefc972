/**
 * The migrations (prisma/migrations/*.sql) and prisma/schema.prisma must describe the same
 * database. Starts a throwaway embedded Postgres, migrates it, compares the live catalog with
 * what Prisma's own parser reads from schema.prisma, then round-trips rows through the
 * generated Prisma client.
 */
import { readdirSync, readFileSync } from "node:fs";
import { copyFile, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readCatalog } from "./catalog";
import { createPrisma, type PrismaClient } from "./client";
import { startTemporaryPostgres, type EmbeddedPostgresHandle } from "./embedded";
import { MIGRATIONS_DIR, MIGRATIONS_TABLE, migrate } from "./migrate";
import { shapeFromPrismaSchema } from "./prisma-shape";
import { diffShapes, type DbShape } from "./shape";

const SCHEMA_TEXT = readFileSync(fileURLToPath(new URL("../../prisma/schema.prisma", import.meta.url)), "utf8");

/** Indexes the migrations add on purpose that Prisma cannot declare. */
const DB_ONLY_INDEXES = ["gold_keys_one_active_per_dataset"];

const sha = (c: string) => c.repeat(64);

let server: EmbeddedPostgresHandle;
let db: pg.Client;
let live: DbShape;

beforeAll(async () => {
  server = await startTemporaryPostgres();
  expect(await migrate(server.connectionString)).toEqual(["0001_init", "0002_analysis", "0003_resilience", "0004_evaluation", "0005_tracks", "0006_datasets", "0007_run_controls", "0008_task_lifecycle", "0009_board_significance", "0010_board_changes", "0011_team_membership", "0012_email_confirmation", "0013_audit_team", "0014_organizer_role", "0015_blind_inputs", "0016_board_settings_changes"]);
  db = new pg.Client({ connectionString: server.connectionString });
  await db.connect();
  live = await readCatalog(db, { ignoreTables: [MIGRATIONS_TABLE] });
}, 60_000);

afterAll(async () => {
  await db?.end();
  await server?.stop();
});

describe("migrations vs schema.prisma", () => {
  it("agree on tables, columns, types, nullability, defaults, keys, indexes and foreign keys", () => {
    const expected = shapeFromPrismaSchema(SCHEMA_TEXT);
    expect(diffShapes(expected, live, DB_ONLY_INDEXES)).toEqual([]);
    // Guard against a vacuous pass.
    expect(Object.keys(expected.tables)).toHaveLength(28);
    expect(expected.tables.scores.indexes).toEqual(["phase_id,variant,metric,f1 DESC"]);
  });

  it("notices a column added to schema.prisma without a migration", () => {
    const edited = SCHEMA_TEXT.replace(
      /(model Team \{\n)/,
      '$1  motto String? @map("motto")\n',
    );
    expect(edited).not.toBe(SCHEMA_TEXT);
    expect(diffShapes(shapeFromPrismaSchema(edited), live, DB_ONLY_INDEXES)).toEqual([
      "teams.motto: column in schema.prisma, not in the database",
    ]);
  });

  it("notices changed defaults, nullability, indexes and delete rules", () => {
    const edited = SCHEMA_TEXT.replace('@default("conll")', '@default("muc")')
      .replace("systemName    String ", "systemName    String?")
      .replace("  @@index([status])\n  @@index([teamId])\n", "  @@index([teamId])\n")
      .replace("references: [id], onDelete: SetNull)\n\n  @@index([targetType", "references: [id], onDelete: Cascade)\n\n  @@index([targetType");
    expect(diffShapes(shapeFromPrismaSchema(edited), live, DB_ONLY_INDEXES).sort()).toEqual([
      "audit_events: foreign key (actor_id) -> users(id) ON DELETE CASCADE ON UPDATE CASCADE in schema.prisma, not in the database",
      "audit_events: foreign key (actor_id) -> users(id) ON DELETE SET NULL ON UPDATE CASCADE in the database, not in schema.prisma",
      "submissions.system_name: nullable in schema.prisma, NOT NULL in the database",
      "submissions: index status in the database, not in schema.prisma",
      "tasks.primary_metric: default 'muc'::text in schema.prisma, 'conll'::text in the database",
    ]);
  });

  it("is idempotent and safe when several processes migrate at once", async () => {
    expect(await migrate(server.connectionString)).toEqual([]);
    await db.query("CREATE DATABASE race");
    const url = new URL(server.connectionString);
    url.pathname = "/race";
    const runs = await Promise.all([migrate(url.href), migrate(url.href), migrate(url.href)]);
    expect(runs.flat()).toEqual(["0001_init", "0002_analysis", "0003_resilience", "0004_evaluation", "0005_tracks", "0006_datasets", "0007_run_controls", "0008_task_lifecycle", "0009_board_significance", "0010_board_changes", "0011_team_membership", "0012_email_confirmation", "0013_audit_team", "0014_organizer_role", "0015_blind_inputs", "0016_board_settings_changes"]);
  });
});

describe("0012_email_confirmation", () => {
  it("marks every account that exists when it runs confirmed (at its creation time); new rows start unconfirmed", async () => {
    await db.query("CREATE DATABASE backfill");
    const url = new URL(server.connectionString);
    url.pathname = "/backfill";
    // The migrations before 0012 only, then an account, then the rest.
    const before = await mkdtemp(path.join(tmpdir(), "migrations-"));
    for (const name of readdirSync(MIGRATIONS_DIR).filter((n) => n.endsWith(".sql") && n < "0012")) await copyFile(path.join(MIGRATIONS_DIR, name), path.join(before, name));
    expect(await migrate(url.href, { dir: before })).not.toContain("0012_email_confirmation");
    const client = new pg.Client({ connectionString: url.href });
    await client.connect();
    try {
      await client.query(`INSERT INTO users (email, name, created_at) VALUES ('old@example.org', 'Old', '2025-03-01T10:00:00Z')`);
      expect(await migrate(url.href)).toContain("0012_email_confirmation");
      const { rows } = await client.query<{ email_confirmed_at: Date }>(`SELECT email_confirmed_at FROM users WHERE email = 'old@example.org'`);
      expect(rows[0]!.email_confirmed_at.toISOString()).toBe("2025-03-01T10:00:00.000Z");
      await client.query(`INSERT INTO users (email, name) VALUES ('new@example.org', 'New')`);
      const fresh = await client.query<{ email_confirmed_at: Date | null }>(`SELECT email_confirmed_at FROM users WHERE email = 'new@example.org'`);
      expect(fresh.rows[0]!.email_confirmed_at).toBeNull();
    } finally {
      await client.end();
    }
  });
});

describe("Prisma client round trip", () => {
  let prisma: PrismaClient;
  beforeAll(() => {
    prisma = createPrisma(server.connectionString);
  });
  afterAll(async () => {
    await prisma?.$disconnect();
  });

  it("creates and reads a user, team, task, phase, gold key, submission and scores", async () => {
    const user = await prisma.user.create({ data: { email: "ada@example.org", name: "Ada", passwordHash: "$2b$10$x" } });
    expect(user.role).toBe("USER");
    const team = await prisma.team.create({
      data: { name: "Team A", members: { create: { userId: user.id, role: "OWNER" } } },
    });
    const task = await prisma.task.create({
      data: { slug: "ontonotes", title: "OntoNotes", organizers: { create: { userId: user.id } } },
    });
    expect(task).toMatchObject({ primaryMetric: "conll", keepSingletons: true, mentionMatching: "exact", description: "" });
    const phase = await prisma.phase.create({
      data: {
        taskId: task.id,
        name: "test",
        opensAt: new Date("2026-01-01T00:00:00Z"),
        closesAt: new Date("2026-02-01T12:00:00Z"),
        displayTimeZone: "AoE",
        dailyLimit: 5,
      },
    });
    expect(phase).toMatchObject({ leaderboardVisibility: "PUBLIC", selectionRule: "BEST", participantAnalysis: "NONE", teamDocumentScores: false, totalLimit: null });
    expect(phase.closesAt.toISOString()).toBe("2026-02-01T12:00:00.000Z");

    const gzip = new Uint8Array([0x1f, 0x8b, 1, 2, 3]);
    const dataset = await prisma.dataset.create({ data: { phaseId: phase.id, name: "en_gum", language: "en", fileName: "en_gum-corefud-test.conllu", format: "conllu" } });
    expect(dataset).toMatchObject({ position: 0 });
    await prisma.goldKey.create({
      data: { phaseId: phase.id, datasetId: dataset.id, version: 1, fileName: "key.conll", sha256: sha("a"), gzip, size: 10, documentCount: 2, uploadedById: user.id, active: true },
    });
    const submission = await prisma.submission.create({
      data: { phaseId: phase.id, teamId: team.id, submitterId: user.id, systemName: "baseline", fileName: "r.conll", sha256: sha("b"), size: 10 },
    });
    await prisma.submissionFile.create({ data: { submissionId: submission.id, phaseId: phase.id, datasetId: dataset.id, fileName: "r.conll", sha256: sha("b"), gzip, size: 10 } });
    await prisma.datasetScore.create({ data: { submissionId: submission.id, phaseId: phase.id, datasetId: dataset.id, metric: "conll", f1: 0.5 } });
    expect(submission).toMatchObject({ status: "QUEUED", attempts: 0, isBaseline: false, visibility: "PUBLIC", errorLocation: null, goldVersion: null });

    await prisma.score.createMany({
      data: [
        { submissionId: submission.id, phaseId: phase.id, metric: "muc", recallNum: 3, recallDen: 4, precisionNum: 3, precisionDen: 5, recall: 0.75, precision: 0.6, f1: 2 / 3 },
        { submissionId: submission.id, phaseId: phase.id, metric: "conll", f1: 0.5 },
      ],
    });
    await prisma.documentScore.create({
      data: { submissionId: submission.id, datasetId: dataset.id, document: "doc1_0", metric: "muc", recallNum: 3, recallDen: 4, precisionNum: 3, precisionDen: 5 },
    });
    await prisma.apiToken.create({ data: { userId: user.id, name: "cli", tokenHash: sha("c") } });
    await prisma.auditEvent.create({
      data: { actorId: user.id, action: "gold.upload", targetType: "phase", targetId: phase.id, data: { version: 1 } },
    });

    const read = await prisma.submission.findUniqueOrThrow({
      where: { id: submission.id },
      include: { scores: { orderBy: { metric: "asc" } }, files: true, datasetScores: true, documentScores: true, team: { include: { members: true } }, phase: { include: { task: true, goldKeys: true } } },
    });
    expect(read.scores.map((s) => [s.metric, s.f1, s.recallNum])).toEqual([["conll", 0.5, null], ["muc", 2 / 3, 3]]);
    expect(read.documentScores).toHaveLength(1);
    expect(read.datasetScores.map((s) => [s.datasetId, s.metric, s.f1])).toEqual([[dataset.id, "conll", 0.5]]);
    expect(Array.from(read.files[0].gzip)).toEqual(Array.from(gzip));
    expect(read.team.members[0]).toMatchObject({ userId: user.id, role: "OWNER" });
    expect(read.phase.task.slug).toBe("ontonotes");
    expect(Array.from(read.phase.goldKeys[0].gzip)).toEqual(Array.from(gzip));
    expect(read.phase.goldKeys[0].stats).toEqual({});

    const ranked = await prisma.score.findMany({ where: { phaseId: phase.id, metric: "muc" }, orderBy: { f1: "desc" } });
    expect(ranked.map((s) => s.submissionId)).toEqual([submission.id]);

    const updated = await prisma.submission.update({
      where: { id: submission.id },
      data: { status: "FAILED", errorStage: "parse", errorMessage: "bad", errorLocation: { line: 3, column: 1 } },
    });
    expect(updated.errorLocation).toEqual({ line: 3, column: 1 });

    // Deleting the submission cascades to its scores.
    await prisma.submission.delete({ where: { id: submission.id } });
    expect(await prisma.score.count()).toBe(0);
    expect(await prisma.documentScore.count()).toBe(0);
    expect(await prisma.datasetScore.count()).toBe(0);
    expect(await prisma.submissionFile.count()).toBe(0);
  });

  it("enforces the rules Prisma cannot express", async () => {
    const user = await prisma.user.create({ data: { email: "bob@example.org", name: "Bob" } });
    const task = await prisma.task.create({ data: { slug: "t2", title: "T2" } });
    const phase = await prisma.phase.create({
      data: { taskId: task.id, name: "dev", opensAt: new Date("2026-01-01Z"), closesAt: new Date("2026-01-02Z") },
    });
    const dataset = await prisma.dataset.create({ data: { phaseId: phase.id, name: "main", fileName: "main.conll" } });
    const key = { phaseId: phase.id, datasetId: dataset.id, fileName: "k", sha256: sha("d"), gzip: new Uint8Array([1]), size: 1, documentCount: 1, uploadedById: user.id };
    await prisma.goldKey.create({ data: { ...key, version: 1, active: true } });
    await expect(prisma.goldKey.create({ data: { ...key, version: 2, active: true } })).rejects.toThrow();
    await prisma.goldKey.create({ data: { ...key, version: 2, active: false } });
    await expect(prisma.goldKey.create({ data: { ...key, version: 2 } })).rejects.toThrow(); // (dataset, version) unique
    // Another dataset of the phase has its own versions and its own active key.
    const second = await prisma.dataset.create({ data: { phaseId: phase.id, name: "cs_pdt", fileName: "cs_pdt.conllu", format: "conllu" } });
    await prisma.goldKey.create({ data: { ...key, datasetId: second.id, version: 1, active: true } });
    await expect(prisma.dataset.create({ data: { phaseId: phase.id, name: "bad/name", fileName: "x.conll" } })).rejects.toThrow();
    await expect(prisma.dataset.create({ data: { phaseId: phase.id, name: "other", fileName: "dir/x.conll" } })).rejects.toThrow();
    await expect(prisma.dataset.create({ data: { phaseId: phase.id, name: "fmt", fileName: "f.txt", format: "txt" } })).rejects.toThrow();
    await expect(prisma.dataset.create({ data: { phaseId: phase.id, name: "dup", fileName: "main.conll" } })).rejects.toThrow(); // (phase, file name) unique
    await expect(prisma.user.create({ data: { email: "Carol@Example.org", name: "C" } })).rejects.toThrow();
    await expect(prisma.apiToken.create({ data: { userId: user.id, name: "x", tokenHash: "not-hex" } })).rejects.toThrow();
    await expect(
      prisma.phase.create({ data: { taskId: task.id, name: "bad", opensAt: new Date("2026-01-02Z"), closesAt: new Date("2026-01-01Z") } }),
    ).rejects.toThrow();
    // A score's phase must be its submission's phase.
    const team = await prisma.team.create({ data: { name: "Team B" } });
    const sub = await prisma.submission.create({
      data: { phaseId: phase.id, teamId: team.id, submitterId: user.id, systemName: "s", fileName: "f", sha256: sha("e"), size: 1 },
    });
    const other = await prisma.phase.create({
      data: { taskId: task.id, name: "test", opensAt: new Date("2026-01-01Z"), closesAt: new Date("2026-01-02Z") },
    });
    await expect(prisma.score.create({ data: { submissionId: sub.id, phaseId: other.id, metric: "muc", f1: 0 } })).rejects.toThrow();
    // A run's file and dataset scores must name a dataset of the run's phase.
    const elsewhere = await prisma.dataset.create({ data: { phaseId: other.id, name: "main", fileName: "main.conll" } });
    const file = { submissionId: sub.id, phaseId: phase.id, fileName: "f", sha256: sha("e"), gzip: new Uint8Array([1]), size: 1 };
    await expect(prisma.submissionFile.create({ data: { ...file, datasetId: elsewhere.id } })).rejects.toThrow();
    await expect(prisma.datasetScore.create({ data: { submissionId: sub.id, phaseId: phase.id, datasetId: elsewhere.id, metric: "muc", f1: 0 } })).rejects.toThrow();
    await prisma.submissionFile.create({ data: { ...file, datasetId: dataset.id } });
  });
});
