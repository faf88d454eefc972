/**
 * The embedded Postgres' generated credentials: a free port and a random password kept in a
 * 0600 file beside the data folder, reused on the next start; a data folder made by the old
 * code (fixed password `postgres`, no file) switched to a new password; a taken port replaced.
 */
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import {
  LEGACY_PASSWORD,
  credentialsFile,
  freePort,
  readCredentials,
  startEmbeddedPostgres,
  startTemporaryPostgres,
  writeCredentials,
} from "./embedded";

const dirs: string[] = [];
const tempDir = async () => {
  const dir = await mkdtemp(path.join(tmpdir(), "corefboard-embedded-"));
  dirs.push(dir);
  return dir;
};
afterAll(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** Whether `password` opens a session as `user` on 127.0.0.1:`port`. */
async function canConnect(port: number, user: string, password: string): Promise<boolean> {
  const client = new pg.Client({ host: "127.0.0.1", port, user, password, database: "postgres" });
  try {
    await client.connect();
    return true;
  } catch (error) {
    if ((error as { code?: string }).code === "28P01") return false;
    throw error;
  } finally {
    await client.end().catch(() => undefined);
  }
}

const mode = async (file: string) => (await stat(file)).mode & 0o777;

/** The durability settings of the server at `connectionString` (SHOW ...). */
async function durability(connectionString: string): Promise<Record<string, string>> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    const settings: Record<string, string> = {};
    for (const name of ["fsync", "full_page_writes", "synchronous_commit"]) settings[name] = (await client.query<Record<string, string>>(`SHOW ${name}`)).rows[0]![name]!;
    return settings;
  } finally {
    await client.end();
  }
}

describe("credentials file", () => {
  it("is written with mode 0600, read back, and refused when malformed", async () => {
    const file = path.join(await tempDir(), "sub", "pg.json");
    expect(await readCredentials(file)).toBeUndefined();
    expect(await writeCredentials(file, { port: 5555, user: "postgres", password: "a" }, { exclusive: true })).toBe(true);
    expect(await mode(file)).toBe(0o600);
    // Exclusive creation never overwrites: a concurrent first start keeps the winner's file.
    expect(await writeCredentials(file, { port: 6666, user: "postgres", password: "b" }, { exclusive: true })).toBe(false);
    expect(await readCredentials(file)).toEqual({ port: 5555, user: "postgres", password: "a" });
    await writeCredentials(file, { port: 7777, user: "postgres", password: "a" });
    expect(await readCredentials(file)).toEqual({ port: 7777, user: "postgres", password: "a" });
    expect(await mode(file)).toBe(0o600);

    await writeFile(file, JSON.stringify({ port: 70000, user: "postgres", password: "a" }));
    await expect(readCredentials(file)).rejects.toThrow(`${file} is not a valid credentials file`);
    await writeFile(file, "{");
    await expect(readCredentials(file)).rejects.toThrow(`${file} is not a valid credentials file`);
  });

  it("sits beside the data folder", () => {
    expect(credentialsFile("/srv/x/.data/postgres/")).toBe("/srv/x/.data/postgres.json");
  });
});

describe("startEmbeddedPostgres credentials", () => {
  it("picks a free port and a random password on first start and reuses them on the next", async () => {
    const dataDir = path.join(await tempDir(), "pg");
    const first = await startEmbeddedPostgres({ dataDir });
    let stored;
    try {
      stored = await readCredentials(credentialsFile(dataDir));
      expect(stored).toBeDefined();
      expect(await mode(credentialsFile(dataDir))).toBe(0o600);
      expect(stored!.port).toBe(first.port);
      expect(stored!.password).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(first.connectionString).toBe(`postgresql://postgres:${stored!.password}@127.0.0.1:${first.port}/corefboard`);
      expect(await canConnect(first.port, "postgres", LEGACY_PASSWORD)).toBe(false);
      // A kept cluster is durable (the throwaway one below is not).
      expect(await durability(first.connectionString)).toEqual({ fsync: "on", full_page_writes: "on", synchronous_commit: "on" });
    } finally {
      await first.stop();
    }

    const second = await startEmbeddedPostgres({ dataDir });
    try {
      expect(second.connectionString).toBe(first.connectionString);
    } finally {
      await second.stop();
    }

    // The kept port was taken meanwhile: a new free one is picked and kept.
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(first.port, "127.0.0.1", resolve));
    try {
      const third = await startEmbeddedPostgres({ dataDir });
      try {
        expect(third.port).not.toBe(first.port);
        expect(await readCredentials(credentialsFile(dataDir))).toEqual({ ...stored, port: third.port });
        expect(await canConnect(third.port, "postgres", stored!.password)).toBe(true);
      } finally {
        await third.stop();
      }
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  }, 60_000);

  it("moves a data folder made with the old fixed password to a new random one", async () => {
    const dataDir = path.join(await tempDir(), "pg");
    const port = await freePort();
    // As the old code did: password "postgres", no credentials file.
    const old = await startEmbeddedPostgres({ dataDir, port, password: LEGACY_PASSWORD });
    await old.stop();
    expect(await readCredentials(credentialsFile(dataDir))).toBeUndefined();

    const upgraded = await startEmbeddedPostgres({ dataDir, port });
    try {
      const stored = (await readCredentials(credentialsFile(dataDir)))!;
      expect(stored.port).toBe(port); // an explicit port (EMBEDDED_PG_PORT) wins
      expect(stored.password).not.toBe(LEGACY_PASSWORD);
      expect(await canConnect(port, "postgres", stored.password)).toBe(true);
      expect(await canConnect(port, "postgres", LEGACY_PASSWORD)).toBe(false);
      const client = new pg.Client({ connectionString: upgraded.connectionString });
      await client.connect();
      expect((await client.query("SELECT current_database() AS db")).rows[0].db).toBe("corefboard");
      await client.end();
    } finally {
      await upgraded.stop();
    }
  }, 60_000);

  it("startTemporaryPostgres still gives a working throwaway cluster and removes it all", async () => {
    const server = await startTemporaryPostgres();
    const parent = path.dirname(server.dataDir);
    expect(JSON.parse(await readFile(credentialsFile(server.dataDir), "utf8")).port).toBe(server.port);
    // Non-durable settings for data that is thrown away; commits still wait for their WAL write.
    expect(await durability(server.connectionString)).toEqual({ fsync: "off", full_page_writes: "off", synchronous_commit: "on" });
    await server.stop();
    await expect(stat(parent)).rejects.toThrow(/ENOENT/);
  }, 60_000);

  it("stop() returns when Postgres has already exited (e.g. a Ctrl-C in the terminal reached it first)", async () => {
    const server = await startTemporaryPostgres();
    const pid = Number((await readFile(path.join(server.dataDir, "postmaster.pid"), "utf8")).split("\n")[0]);
    process.kill(pid, "SIGINT"); // Postgres' fast shutdown
    for (let i = 0; i < 100 && alive(pid); i++) await new Promise((r) => setTimeout(r, 50));
    expect(alive(pid)).toBe(false);
    // Waiting for the exit that already happened would hang past the test's limit.
    await server.stop();
    await expect(stat(path.dirname(server.dataDir))).rejects.toThrow(/ENOENT/);
  }, 60_000);
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
