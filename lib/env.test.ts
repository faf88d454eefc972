import { describe, expect, it } from "vitest";
import { DEV_NEXTAUTH_SECRET, EnvError, loadEnv } from "./env";

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
      WORKER_CONCURRENCY: 1,
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
});
