import { describe, expect, it } from "vitest";
import { DEV_NEXTAUTH_SECRET, EnvError, defaultMailFrom, loadEnv } from "./env";

const PROD_SECRET = "x".repeat(40);

function problemsOf(source: Record<string, string | undefined>): string[] {
  try {
    loadEnv(source);
  } catch (error) {
    expect(error).toBeInstanceOf(EnvError);
    return (error as EnvError).problems;
  }
  throw new Error("expected loadEnv to throw");
}

describe("loadEnv", () => {
  it("applies defaults in development, with the embedded database and a dev secret", () => {
    const env = loadEnv({});
    expect(env).toMatchObject({
      NODE_ENV: "development",
      EMBEDDED_PG_DATA_DIR: ".data/postgres",
      NEXTAUTH_SECRET: DEV_NEXTAUTH_SECRET,
      NEXTAUTH_URL: "http://localhost:3000",
      PORT: 3000,
      UPLOAD_MAX_BYTES: 50 * 1024 * 1024,
      WORKER_CONCURRENCY: 2,
      LOG_LEVEL: "info",
    });
    expect(env.DATABASE_URL).toBeUndefined();
    // No fixed port: the embedded Postgres picks a free one on first start and keeps it.
    expect(env.EMBEDDED_PG_PORT).toBeUndefined();
  });

  it("parses numbers and keeps given values", () => {
    const env = loadEnv({
      DATABASE_URL: "postgresql://u:p@db:5432/x",
      EMBEDDED_PG_PORT: "6000",
      UPLOAD_MAX_BYTES: " 1024 ",
      WORKER_CONCURRENCY: "4",
      PORT: "8080",
    });
    expect(env.DATABASE_URL).toBe("postgresql://u:p@db:5432/x");
    expect(env.EMBEDDED_PG_PORT).toBe(6000);
    expect(env.UPLOAD_MAX_BYTES).toBe(1024);
    expect(env.WORKER_CONCURRENCY).toBe(4);
    expect(env.NEXTAUTH_URL).toBe("http://localhost:8080");
  });

  it("WORKER_CONCURRENCY: two scoring slots by default (an empty value too); 1 stays allowed", () => {
    expect(loadEnv({}).WORKER_CONCURRENCY).toBe(2);
    expect(loadEnv({ WORKER_CONCURRENCY: "" }).WORKER_CONCURRENCY).toBe(2);
    expect(loadEnv({ WORKER_CONCURRENCY: "1" }).WORKER_CONCURRENCY).toBe(1);
  });

  it("treats empty strings as unset", () => {
    expect(loadEnv({ DATABASE_URL: "", UPLOAD_MAX_BYTES: "  " }).UPLOAD_MAX_BYTES).toBe(50 * 1024 * 1024);
  });

  it("requires a real NEXTAUTH_SECRET and NEXTAUTH_URL in production", () => {
    expect(problemsOf({ NODE_ENV: "production" })).toEqual([
      "NEXTAUTH_SECRET: required when NODE_ENV=production",
      "NEXTAUTH_URL: required when NODE_ENV=production",
    ]);
    const [short] = problemsOf({ NODE_ENV: "production", NEXTAUTH_SECRET: "short", NEXTAUTH_URL: "https://a.org" });
    expect(short).toMatch(/^NEXTAUTH_SECRET: must be a random string of at least 32 characters/);
    expect(short).not.toContain("short"); // secrets are never echoed
    expect(problemsOf({ NODE_ENV: "production", NEXTAUTH_SECRET: DEV_NEXTAUTH_SECRET, NEXTAUTH_URL: "https://a.org" }))
      .toHaveLength(1);
    const env = loadEnv({ NODE_ENV: "production", NEXTAUTH_SECRET: PROD_SECRET, NEXTAUTH_URL: "https://a.org" });
    expect(env.NEXTAUTH_SECRET).toBe(PROD_SECRET);
  });

  it("lists every bad setting in one message", () => {
    let error: unknown;
    try {
      loadEnv({
        NODE_ENV: "staging",
        DATABASE_URL: "mysql://secret-host/db",
        EMBEDDED_PG_PORT: "70000",
        UPLOAD_MAX_BYTES: "50MB",
        WORKER_CONCURRENCY: "0",
        NEXTAUTH_URL: "localhost:3000",
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(EnvError);
    const { message, problems } = error as EnvError;
    expect(problems.map((p) => p.split(":")[0]).sort()).toEqual([
      "DATABASE_URL",
      "EMBEDDED_PG_PORT",
      "NEXTAUTH_URL",
      "NODE_ENV",
      "UPLOAD_MAX_BYTES",
      "WORKER_CONCURRENCY",
    ]);
    expect(message.split("\n")[0]).toBe("Invalid configuration (environment variables):");
    expect(message).toContain('EMBEDDED_PG_PORT: must be at most 65535 (got "70000")');
    expect(message).toContain('UPLOAD_MAX_BYTES: expected a whole number (got "50MB")');
    expect(message).toContain('WORKER_CONCURRENCY: must be at least 1 (got "0")');
    expect(message).not.toContain("secret-host"); // DATABASE_URL may hold a password
  });

  it("mail: SMTP_URL is optional (unset: mail goes to the log) and MAIL_FROM defaults to no-reply at the site's host", () => {
    const dev = loadEnv({});
    expect(dev.SMTP_URL).toBeUndefined();
    expect(dev.MAIL_FROM).toBe("Corefboard <no-reply@localhost>");
    const site = loadEnv({ NEXTAUTH_URL: "https://coref.example.org/", SMTP_URL: "smtps://u:p@mail.example.org:465" });
    expect(site.SMTP_URL).toBe("smtps://u:p@mail.example.org:465");
    expect(site.MAIL_FROM).toBe("Corefboard <no-reply@coref.example.org>");
    expect(loadEnv({ MAIL_FROM: "Shared Task <task@example.org>" }).MAIL_FROM).toBe("Shared Task <task@example.org>");
    expect(loadEnv({ MAIL_FROM: "task@example.org" }).MAIL_FROM).toBe("task@example.org");
    expect(defaultMailFrom("http://127.0.0.1:3100")).toBe("Corefboard <no-reply@127.0.0.1>");
  });

  it("refuses a malformed SMTP_URL without echoing it (it may hold a password), and a MAIL_FROM without an address", () => {
    const problems = problemsOf({ SMTP_URL: "mail.example.org:25 with-secret", MAIL_FROM: "Corefboard" });
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^SMTP_URL: expected an smtp:\/\/ or smtps:\/\/ URL/);
    expect(problems[0]).not.toContain("with-secret");
    expect(problems[1]).toBe('MAIL_FROM: expected an address, e.g. "Corefboard <no-reply@coref.example.org>" or "no-reply@coref.example.org" (got "Corefboard")');
  });
});
