import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it, vi } from "vitest";
import { useTestDatabase } from "../lib/db/test-db";
import { freePort } from "../lib/db/embedded";
import { sha256Hex } from "../lib/storage";
import { verifyCredentials } from "../lib/services/users";
import { authenticateBearer } from "../lib/auth/api-tokens";
import { isPasswordResetTokenUsable, resetPassword } from "../lib/services/password-reset";
import { runAdmin, type AdminIo } from "./admin";

const db = useTestDatabase();
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Runs the CLI in-process, capturing its output. */
async function admin(argv: string[], stdin = "") {
  let stdout = "";
  let stderr = "";
  const io: AdminIo = { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), readStdin: async () => stdin };
  const code = await runAdmin(argv, io);
  return { code, stdout, stderr };
}

describe("create-user", () => {
  it("creates an administrator who can sign in", async () => {
    const r = await admin(["create-user", "--email", "Boss@Example.org", "--password", "0123456789ab", "--name", "The Boss", "--admin"]);
    expect(r).toMatchObject({ code: 0 });
    expect(r.stdout).toMatch(/created administrator boss@example.org/);
    await expect(verifyCredentials("boss@example.org", "0123456789ab")).resolves.toMatchObject({ role: "ADMIN", name: "The Boss" });
  });

  it("creates a plain user by default, reading the password from stdin when asked", async () => {
    const r = await admin(["create-user", "--email", "pleb@example.org", "--password-stdin"], "from stdin 123\n");
    expect(r.code).toBe(0);
    await expect(verifyCredentials("pleb@example.org", "from stdin 123")).resolves.toMatchObject({ role: "USER", name: "pleb" });
  });

  it("exits 1 with a message when the email is taken", async () => {
    await admin(["create-user", "--email", "twice@example.org", "--password", "0123456789"]);
    const r = await admin(["create-user", "--email", "TWICE@example.org", "--password", "0123456789"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/already exists/);
  });

  it.each([
    [[]],
    [["no-such-command"]],
    [["create-user", "--password", "0123456789"]],
    [["create-user", "--email", "x@example.org"]],
    [["create-user", "--email", "x@example.org", "--password", "0123456789", "--password-stdin"]],
    [["create-user", "--email", "x@example.org", "--password", "short"]],
    [["create-user", "--email", "not an email", "--password", "0123456789"]],
    [["create-user", "--email", "x@example.org", "--password", "0123456789", "--bogus"]],
    [["create-token", "--email", "x@example.org"]],
    [["reset-link"]],
    [["reset-link", "--email", "not an email"]],
  ])("exits 2 on bad usage: %j", async (argv) => {
    const r = await admin(argv);
    expect(r.code).toBe(2);
    expect(r.stderr).not.toBe("");
    expect(r.stdout).toBe("");
    expect(await db.prisma.user.count({ where: { email: "x@example.org" } })).toBe(0);
  });

  it("exits 0 for --help", async () => {
    const r = await admin(["--help"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/create-user/);
  });
});

describe("create-token", () => {
  it("prints a working token alone on one stdout line and stores only its hash", async () => {
    await admin(["create-user", "--email", "ci@example.org", "--password", "0123456789"]);
    const r = await admin(["create-token", "--email", "CI@example.org", "--name", "CI"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^cfb_[A-Za-z0-9_-]{43}\n$/);
    const token = r.stdout.trim();
    expect(r.stderr).not.toContain(token);
    await expect(authenticateBearer(`Bearer ${token}`)).resolves.toMatchObject({ email: "ci@example.org" });
    const rows = await db.prisma.apiToken.findMany({ where: { name: "CI" } });
    expect(rows.map((row) => row.tokenHash)).toEqual([sha256Hex(token)]);
  });

  it("exits 1 for an unknown user", async () => {
    const r = await admin(["create-token", "--email", "ghost@example.org", "--name", "CI"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/no user with the email address ghost@example.org/);
    expect(r.stdout).toBe("");
  });
});

describe("reset-link", () => {
  const LINK = /^https:\/\/coref\.example\.org\/reset-password\?token=([A-Za-z0-9_-]{43})\n$/;

  it("prints a fresh link alone on one stdout line, at NEXTAUTH_URL, whose token sets a new password once", async () => {
    vi.stubEnv("NEXTAUTH_URL", "https://coref.example.org");
    try {
      await admin(["create-user", "--email", "forgetful@example.org", "--password", "0123456789"]);
      const r = await admin(["reset-link", "--email", "Forgetful@Example.org"]);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(LINK);
      expect(r.stderr).toMatch(/^password-reset link for forgetful@example\.org, valid once until \d{4}-\d\d-\d\dT[\d:.]+Z:\n$/);
      const token = LINK.exec(r.stdout)![1]!;
      expect(r.stderr).not.toContain(token);
      const rows = await db.prisma.passwordResetToken.findMany({ where: { user: { email: "forgetful@example.org" } } });
      expect(rows.map((row) => row.tokenHash)).toEqual([sha256Hex(token)]);
      await expect(isPasswordResetTokenUsable(token)).resolves.toBe(true);
      await resetPassword(token, "remembered at last");
      await expect(verifyCredentials("forgetful@example.org", "remembered at last")).resolves.toMatchObject({ email: "forgetful@example.org" });
      await expect(isPasswordResetTokenUsable(token)).resolves.toBe(false);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("exits 1 for an unknown user, printing no link", async () => {
    const r = await admin(["reset-link", "--email", "Ghost@example.org"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/no user with the email address ghost@example.org/);
    expect(r.stdout).toBe("");
  });
});

describe("as a separate process", () => {
  const run = (args: string[]) =>
    spawnSync(process.execPath, ["--import", "tsx", "scripts/admin.ts", ...args], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: db.connectionString },
      encoding: "utf8",
      timeout: 60_000,
    });

  it("creates a user and a token, with the documented exit codes", () => {
    const created = run(["create-user", "--email", "proc@example.org", "--password", "0123456789", "--admin"]);
    expect(created.stderr).toBe("");
    expect(created.status).toBe(0);
    const token = run(["create-token", "--email", "proc@example.org", "--name", "script"]);
    expect(token.status).toBe(0);
    expect(token.stdout).toMatch(/^cfb_[A-Za-z0-9_-]{43}\n$/);
    expect(run(["create-token", "--email", "proc@example.org"]).status).toBe(2);
  });

  it("prints a reset link at the NEXTAUTH_URL it is given, and exits 1 for an unknown email", () => {
    expect(run(["create-user", "--email", "proc-reset@example.org", "--password", "0123456789"]).status).toBe(0);
    const link = spawnSync(process.execPath, ["--import", "tsx", "scripts/admin.ts", "reset-link", "--email", "proc-reset@example.org"], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: db.connectionString, NEXTAUTH_URL: "http://127.0.0.1:3100" },
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(link.status).toBe(0);
    expect(link.stdout).toMatch(/^http:\/\/127\.0\.0\.1:3100\/reset-password\?token=[A-Za-z0-9_-]{43}\n$/);
    const unknown = run(["reset-link", "--email", "nobody@example.org"]);
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain("no user with the email address nobody@example.org");
    expect(unknown.stdout).toBe("");
  });

  it("starts (and stops) the embedded Postgres when DATABASE_URL is unset", async () => {
    const parent = await mkdtemp(path.join(tmpdir(), "corefboard-admin-"));
    try {
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        DATABASE_URL: "",
        EMBEDDED_PG_DATA_DIR: path.join(parent, "pg"),
        EMBEDDED_PG_PORT: String(await freePort()),
      };
      const args = ["--import", "tsx", "scripts/admin.ts", "create-user", "--email", "emb@example.org", "--password", "0123456789"];
      const first = spawnSync(process.execPath, args, { cwd: root, env, encoding: "utf8", timeout: 90_000 });
      expect(first.stderr).toMatch(/applied \d+ migration/);
      expect(first.status).toBe(0);
      const again = spawnSync(process.execPath, args, { cwd: root, env, encoding: "utf8", timeout: 90_000 });
      expect(again.status).toBe(1);
      expect(again.stderr).toMatch(/already exists/);
      expect(existsSync(path.join(parent, "pg", "postmaster.pid"))).toBe(false);
    } finally {
      await rm(parent, { recursive: true, force: true });
    }
  }, 120_000);
});
