/**
 * The environment serve hands its children (scripts/serve.ts): database URL, session secret,
 * public URL, port, and the preloaded modules that stop a child when serve dies.
 */
import { randomBytes } from "node:crypto";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { EnvError, loadEnv, type Env } from "../../lib/env";
import type { ChildEnv } from "./child";
import { log } from "./log";
import type { ServeOptions } from "./options";
import { ROOT } from "./root";
import { defaultPublicUrl, WILDCARD_HOSTS } from "./urls";

/**
 * The session secret when NEXTAUTH_SECRET is unset: read from `file`, or generated (32 random
 * bytes) and written there with mode 0600.
 */
export async function persistentSecret(file: string): Promise<string> {
  try {
    const existing = (await readFile(file, "utf8")).trim();
    if (existing.length >= 32) return existing;
  } catch {
    // generate below
  }
  const secret = randomBytes(32).toString("base64url");
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `${secret}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
  return secret;
}


/** The node option that preloads `scripts/<file>` into a child: `--import=file:///…/scripts/<file>`. */
export function preload(file: string): string {
  return `--import=${pathToFileURL(path.join(ROOT, "scripts", file)).href}`;
}

/** node's arguments that run the TypeScript `script` (relative to the root) through tsx. */
export function tsxArgs(script: string): string[] {
  return ["--import", "tsx", script];
}

/** The environment every child gets, and the site's public URL in it. */
export interface ChildSetup {
  childEnv: ChildEnv;
  /** NEXTAUTH_URL: as set, else {@link defaultPublicUrl} */
  publicUrl: string;
}

/**
 * The environment for every child: this process's, with DATABASE_URL, NEXTAUTH_SECRET (as
 * set, else a random one: kept in .data/nextauth-secret by {@link persistentSecret}, or a
 * fresh one with --fresh-data-dir), NEXTAUTH_URL (as set, else {@link defaultPublicUrl}),
 * PORT, NEXT_TELEMETRY_DISABLED=1, and scripts/exit-with-supervisor.mjs preloaded. Logs a
 * warning when the server listens on every interface without NEXTAUTH_URL.
 *
 * @param databaseUrl the database the children use
 * @throws Error `the web server would refuse this configuration.` with loadEnv()'s problems,
 *   when (without --dev) the environment fails the stricter production check
 */
export async function childEnvironment(options: ServeOptions, env: Env, databaseUrl: string): Promise<ChildSetup> {
  const secret =
    process.env.NEXTAUTH_SECRET?.trim() ||
    (options.freshDataDir ? randomBytes(32).toString("base64url") : await persistentSecret(path.join(ROOT, ".data", "nextauth-secret")));
  const port = env.PORT;
  const publicUrl = process.env.NEXTAUTH_URL?.trim() || defaultPublicUrl(options.hostname, port);
  if (WILDCARD_HOSTS.has(options.hostname) && !process.env.NEXTAUTH_URL?.trim()) {
    log.info(
      `listening on every interface without NEXTAUTH_URL: links and sign-in will point at ${publicUrl}. ` +
        "Set NEXTAUTH_URL=https://<your host> and put a TLS reverse proxy in front (see README).",
    );
  }
  // Every child stops by itself if this process dies without stopping it (scripts/exit-with-supervisor.mjs).
  const childEnv: ChildEnv = {
    ...process.env,
    NODE_OPTIONS: [process.env.NODE_OPTIONS, preload("exit-with-supervisor.mjs")].filter(Boolean).join(" "),
    COREFBOARD_SUPERVISOR_PID: String(process.pid),
    DATABASE_URL: databaseUrl,
    NEXTAUTH_SECRET: secret,
    NEXTAUTH_URL: publicUrl,
    PORT: String(port),
    NEXT_TELEMETRY_DISABLED: "1",
  };
  if (!options.dev) {
    // The web server runs with NODE_ENV=production, where loadEnv() is stricter: check now.
    try {
      loadEnv({ ...childEnv, NODE_ENV: "production" });
    } catch (error) {
      if (error instanceof EnvError) throw new Error(`the web server would refuse this configuration.\n${error.message}`);
      throw error;
    }
  }
  return { childEnv, publicUrl };
}
