/**
 * Server configuration from environment variables, validated with zod.
 *
 * Call `loadEnv()` once at startup (web server, worker, scripts). An empty variable counts as
 * unset, so `FOO=` in a `.env` file falls back to the default.
 */
import { z } from "zod";

/** Development-only NextAuth secret; refused when NODE_ENV=production. */
export const DEV_NEXTAUTH_SECRET = "corefboard-development-secret-do-not-use-in-production";

const MB = 1024 * 1024;

/** Default data folder of the embedded Postgres, relative to the working directory (EMBEDDED_PG_DATA_DIR). */
export const DEFAULT_EMBEDDED_PG_DATA_DIR = ".data/postgres";

/** Integer from a string, within [min, max]. */
const int = (min: number, max: number) =>
  z
    .string()
    .regex(/^\s*-?\d+\s*$/, { error: "expected a whole number" })
    .transform(Number)
    .pipe(z.number().int().min(min, { error: `must be at least ${min}` }).max(max, { error: `must be at most ${max}` }));

const postgresUrl = z
  .string()
  .regex(/^postgres(ql)?:\/\/\S+$/, { error: "expected a postgres:// or postgresql:// URL" });

const httpUrl = z.string().regex(/^https?:\/\/[^\s/]+\S*$/, { error: "expected an http:// or https:// URL" });

const smtpUrl = z
  .string()
  .regex(/^smtps?:\/\/[^\s/]+\S*$/, { error: "expected an smtp:// or smtps:// URL, e.g. smtps://user:password@mail.example.org:465" });

/** A sender: `address@host` or `Display Name <address@host>`. */
const mailFrom = z
  .string()
  .regex(/^(?:[^<>\r\n]*<[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/, {
    error: 'expected an address, e.g. "Corefboard <no-reply@coref.example.org>" or "no-reply@coref.example.org"',
  });

const fields = z.object({
  NODE_ENV: z.enum(["development", "test", "production"]).default("development"),
  /** Postgres to use. Unset: start the embedded Postgres (EMBEDDED_PG_*). */
  DATABASE_URL: postgresUrl.optional(),
  /**
   * Port of the embedded Postgres (127.0.0.1 only). Unset: a free port picked on first start
   * and kept with the generated password beside the data folder (`lib/db/embedded.ts`).
   */
  EMBEDDED_PG_PORT: int(1, 65535).optional(),
  /** Data folder of the embedded Postgres. */
  EMBEDDED_PG_DATA_DIR: z.string().default(DEFAULT_EMBEDDED_PG_DATA_DIR),
  /** Signs NextAuth session tokens. Required in production (at least 32 characters). */
  NEXTAUTH_SECRET: z.string().optional(),
  /** Public base URL of the site, e.g. https://corefboard.example.org. Required in production. */
  NEXTAUTH_URL: httpUrl.optional(),
  /**
   * Outgoing mail server (password-reset mail, `lib/accounts/mail.ts`), as nodemailer's connection URL,
   * e.g. `smtps://user:password@mail.example.org:465`. Unset: mail is not sent but written to
   * the server log (recipient, subject, link).
   */
  SMTP_URL: smtpUrl.optional(),
  /** Sender of the site's mail. Unset: `Corefboard <no-reply@HOST>`, HOST from NEXTAUTH_URL. */
  MAIL_FROM: mailFrom.optional(),
  /** HTTP port of the web server. */
  PORT: int(1, 65535).default(3000),
  /** Largest accepted upload (submission or gold key), uncompressed, in bytes. */
  UPLOAD_MAX_BYTES: int(1, 2 ** 31 - 1).default(50 * MB),
  /** Threads that read and check uploads off the web server's event loop (`lib/upload-pool/`). Unset: one less than the cores, at least 1. */
  UPLOAD_VALIDATION_THREADS: int(1, 64).optional(),
  /**
   * Uploads that may wait for a checking thread; one more gets 503 "try again in a minute".
   * 256: the byte bound below is what limits the wait, so that a burst of small files is let
   * in (with 64, 100 concurrent small uploads on a loaded 2-core machine got 1–3 answers of 503
   * where each should be taken or refused by its quota: resilience test c).
   */
  UPLOAD_VALIDATION_QUEUE: int(0, 1000).default(256),
  /** Megabytes of uploads that may wait for a checking thread in all; a file that would go over gets 503 likewise. */
  UPLOAD_VALIDATION_QUEUE_MB: int(0, 100_000).default(200),
  /** Wall-clock limit for reading one upload, in milliseconds (the thread is stopped: 422). */
  UPLOAD_VALIDATION_TIMEOUT_MS: int(100, 3600 * 1000).default(30 * 1000),
  /** Heap limit of a checking thread (V8 old generation), in MB; a file that needs more gets 422. */
  UPLOAD_VALIDATION_MAX_MEMORY_MB: int(64, 65536).default(1024),
  /**
   * Scoring jobs one worker process runs at once (its scoring slots, each a thread). Default 2:
   * one team scores one run at a time (`claimSubmission`), so with two slots a team's long run
   * never makes another team's run wait (issue 23 F10). 1 is allowed (a small machine).
   */
  WORKER_CONCURRENCY: int(1, 64).default(2),
  /** Wall-clock limit for scoring one submission, in milliseconds. */
  SCORING_TIMEOUT_MS: int(1000, 24 * 3600 * 1000).default(10 * 60 * 1000),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
});

const schema = fields
  .superRefine((env, ctx) => {
    if (env.NODE_ENV !== "production") return;
    if (env.NEXTAUTH_SECRET === undefined) {
      ctx.addIssue({ code: "custom", path: ["NEXTAUTH_SECRET"], message: "required when NODE_ENV=production" });
    } else if (env.NEXTAUTH_SECRET.length < 32 || env.NEXTAUTH_SECRET === DEV_NEXTAUTH_SECRET) {
      ctx.addIssue({
        code: "custom",
        path: ["NEXTAUTH_SECRET"],
        message: "must be a random string of at least 32 characters in production (e.g. `openssl rand -base64 32`)",
      });
    }
    if (env.NEXTAUTH_URL === undefined) {
      ctx.addIssue({ code: "custom", path: ["NEXTAUTH_URL"], message: "required when NODE_ENV=production" });
    }
  })
  .transform((env) => {
    const publicUrl = env.NEXTAUTH_URL ?? `http://localhost:${env.PORT}`;
    return {
      ...env,
      NEXTAUTH_SECRET: env.NEXTAUTH_SECRET ?? DEV_NEXTAUTH_SECRET,
      NEXTAUTH_URL: publicUrl,
      MAIL_FROM: env.MAIL_FROM ?? defaultMailFrom(publicUrl),
    };
  });

/**
 * The sender used when MAIL_FROM is unset: `Corefboard <no-reply@HOST>`, HOST being the host
 * name of the site's public URL (e.g. `no-reply@coref.example.org`; `no-reply@localhost` in
 * development).
 *
 * @param publicUrl the site's public base URL (NEXTAUTH_URL)
 */
export function defaultMailFrom(publicUrl: string): string {
  let host = "localhost";
  try {
    host = new URL(publicUrl).hostname || host;
  } catch {
    // NEXTAUTH_URL is checked above; keep the fallback for anything URL() still refuses.
  }
  return `Corefboard <no-reply@${host.replace(/^\[|\]$/g, "")}>`;
}

/** The validated configuration. */
export type Env = z.output<typeof schema>;

/** Variables whose values never appear in error messages. */
const SECRET_KEYS = new Set(["NEXTAUTH_SECRET", "DATABASE_URL", "SMTP_URL"]);

/** Thrown by {@link loadEnv}; `problems` has one line per bad setting. */
export class EnvError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration (environment variables):\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "EnvError";
  }
}

/**
 * Validates the environment and applies defaults.
 *
 * @param source variables to read (default `process.env`); empty strings count as unset
 * @returns the typed configuration
 * @throws EnvError listing every bad setting in one message, as `NAME: problem (got "value")`;
 *   values of secrets are never shown
 */
export function loadEnv(source: Record<string, string | undefined> = process.env): Env {
  const input: Record<string, string> = {};
  for (const key of Object.keys(fields.shape)) {
    const value = source[key];
    if (value !== undefined && value.trim() !== "") input[key] = value.trim();
  }
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const key = String(issue.path[0] ?? "environment");
    const shown = key in input && !SECRET_KEYS.has(key) ? ` (got ${JSON.stringify(input[key])})` : "";
    return `${key}: ${issue.message}${shown}`;
  });
  throw new EnvError(problems);
}
