/**
 * What end-to-end tests know about the server under test, and running the repository's
 * scripts against its database.
 *
 * The web server (playwright.config.ts → `scripts/serve.ts --fresh-data-dir`) uses a
 * throwaway Postgres on a free port. serve.ts writes that database's URL to the file named
 * by `E2E_STATE_FILE` (see {@link e2eStateFile}); the helpers here read it and run
 * `scripts/admin.ts` (or the e2e-only `e2e/helpers/seed.ts`) with that DATABASE_URL, inside
 * the test's own process.
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";

/** The repository root. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

/** The HTTP port of the server under test (E2E_PORT, default 3100). */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3100);

/** The base URL of the server under test (one host name throughout: 127.0.0.1). */
export const BASE_URL = `http://127.0.0.1:${E2E_PORT}`;

/** Upload limit (UPLOAD_MAX_BYTES) that playwright.config.ts gives the server under test: 2 MB. */
export const E2E_UPLOAD_MAX_BYTES = 2 * 1024 * 1024;

/**
 * The file where serve.ts records the server's database URL: `$E2E_STATE_FILE`, else a
 * per-port file in the temp folder.
 */
export function e2eStateFile(port: number = E2E_PORT): string {
  return process.env.E2E_STATE_FILE?.trim() || path.join(tmpdir(), `corefboard-e2e-${port}.json`);
}

/**
 * The test outbox of the server under test (`MAIL_OUTBOX_FILE`, see lib/accounts/mail.ts): a per-port
 * file in the temp folder, where the server appends every mail it would have sent.
 */
export function e2eOutboxFile(port: number = E2E_PORT): string {
  return process.env.MAIL_OUTBOX_FILE?.trim() || path.join(tmpdir(), `corefboard-e2e-mail-${port}.jsonl`);
}

/**
 * The database URL of the running server under test.
 *
 * @throws Error when the state file is missing (the server was not started by Playwright's webServer)
 */
export function serverDatabaseUrl(): string {
  const file = e2eStateFile();
  let state: { databaseUrl?: unknown };
  try {
    state = JSON.parse(readFileSync(file, "utf8")) as { databaseUrl?: unknown };
  } catch (error) {
    throw new Error(`cannot read ${file} (written by scripts/serve.ts when E2E_STATE_FILE is set): ${(error as Error).message}`);
  }
  if (typeof state.databaseUrl !== "string") throw new Error(`${file} has no databaseUrl`);
  return state.databaseUrl;
}

/** Output of a script run. */
export interface ScriptResult {
  stdout: string;
  stderr: string;
}

/**
 * The scripts that {@link runScript} runs inside this process (the Playwright worker), through
 * their exported entry points: a `node --import tsx` start costs 1.4–1.9 s of CPU before the
 * script does anything, and a test's set-up runs several. Each takes its arguments and its
 * standard input, and writes what the command line would print.
 */
const IN_PROCESS: Record<string, (args: string[], stdin: string) => Promise<ScriptResult>> = {
  "scripts/admin.ts": async (args, stdin) => (await import("./seed")).runAdminCaptured(args, stdin),
  "e2e/helpers/seed.ts": async (args, stdin) => {
    const { runSeed } = await import("./seed");
    try {
      return { stdout: `${JSON.stringify(await runSeed(args, Buffer.from(stdin)))}\n`, stderr: "" };
    } catch (error) {
      throw new Error(`e2e/helpers/seed.ts ${args[0] ?? ""} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  },
};

/**
 * Runs a repository script against the server's database, with `stdin` on its standard input
 * (if given): `scripts/admin.ts` and `e2e/helpers/seed.ts` inside this process (see
 * {@link IN_PROCESS}; the first call points this process's DATABASE_URL at the server's
 * database, with NODE_ENV=test and LOG_LEVEL=warn as a spawned script would have them), any
 * other script as `node --import tsx <script> ...args` in the repository root.
 *
 * @param script path relative to the root, e.g. "scripts/admin.ts"
 * @param options `stdin`; `env`, extra environment variables (in this process, they are set
 *   for the rest of the worker's life)
 * @returns stdout and stderr
 * @throws Error with both outputs when the script fails (exits non-zero)
 */
export function runScript(script: string, args: string[], options: { stdin?: string; env?: Record<string, string> } = {}): Promise<ScriptResult> {
  const env = { ...options.env, DATABASE_URL: serverDatabaseUrl(), NODE_ENV: "test" as const, LOG_LEVEL: "warn" };
  const inProcess = IN_PROCESS[script];
  if (inProcess) {
    Object.assign(process.env, env);
    return inProcess(args, options.stdin ?? "");
  }
  return new Promise((resolve, reject) => {
    const child = execFile(process.execPath, ["--import", "tsx", script, ...args], { cwd: ROOT, env: { ...process.env, ...env }, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${script} ${args[0] ?? ""} failed (${error.code ?? error.message}):\n${stderr}\n${stdout}`));
      else resolve({ stdout, stderr });
    });
    if (options.stdin !== undefined) child.stdin?.end(options.stdin);
    else child.stdin?.end();
  });
}

/** A short random tag for unique names (slugs, emails) within and across runs. */
export function uniqueTag(): string {
  return `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`;
}

/**
 * Runs one SQL query against the server's database (read-only checks such as "nothing was
 * stored"; set data up through the app, the admin CLI or seed.ts instead).
 *
 * @returns the rows
 */
export async function queryDb<R extends Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<R[]> {
  const client = new pg.Client({ connectionString: serverDatabaseUrl() });
  await client.connect();
  try {
    return (await client.query<R>(sql, params)).rows;
  } finally {
    await client.end();
  }
}
