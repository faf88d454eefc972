import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it, vi } from "vitest";
import { useTestDatabase } from "../lib/db/test-db";
import { credentialsFile, freePort, readCredentials, startEmbeddedPostgres } from "../lib/db/embedded";
import { migrate } from "../lib/db/migrate";
import { sha256Hex } from "../lib/storage";
import { verifyCredentials } from "../lib/accounts/users";
import { authenticateBearer } from "../lib/accounts/api-tokens";
import { isPasswordResetTokenUsable, resetPassword } from "../lib/accounts/password-reset";
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
    [["grant", "--email", "x@example.org"]],
    [["grant", "--role", "organizer"]],
    [["grant", "--email", "x@example.org", "--role", "owner"]],
    [["grant", "--email", "not an email", "--role", "organizer"]],
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
    expect(r.stdout).toMatch(/grant/);
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

describe("grant", () => {
  /** The account's role and its role changes, as recorded. */
  const recorded = async (email: string) => {
    const user = await db.prisma.user.findUniqueOrThrow({ where: { email }, select: { id: true, role: true } });
    const events = await db.prisma.auditEvent.findMany({ where: { action: "user.role_change", targetId: user.id }, orderBy: { at: "asc" }, select: { actorId: true, data: true } });
    return { role: user.role, events };
  };

  it("grants the organizer role, revokes it with --role user, and says when nothing changes; each change audited without an actor", async () => {
    await admin(["create-user", "--email", "chair@example.org", "--password", "0123456789"]);
    const granted = await admin(["grant", "--email", "Chair@Example.org", "--role", "organizer"]);
    expect(granted).toEqual({ code: 0, stdout: "chair@example.org is now an organizer (was a user)\n", stderr: "" });
    expect(await recorded("chair@example.org")).toEqual({
      role: "ORGANIZER",
      events: [{ actorId: null, data: { email: "chair@example.org", from: "USER", to: "ORGANIZER", via: "cli" } }],
    });

    const again = await admin(["grant", "--email", "chair@example.org", "--role", "ORGANIZER"]);
    expect(again).toMatchObject({ code: 0, stdout: "chair@example.org is already an organizer; nothing changed\n" });
    const revoked = await admin(["grant", "--email", "chair@example.org", "--role", "user"]);
    expect(revoked).toMatchObject({ code: 0, stdout: "chair@example.org is now a user (was an organizer)\n" });
    expect((await recorded("chair@example.org")).events.map((e) => e.data)).toEqual([
      { email: "chair@example.org", from: "USER", to: "ORGANIZER", via: "cli" },
      { email: "chair@example.org", from: "ORGANIZER", to: "USER", via: "cli" },
    ]);
  });

  it("makes an account made on the web an administrator", async () => {
    await db.prisma.user.create({ data: { email: "signed-up@example.org", name: "Signed Up" } });
    const r = await admin(["grant", "--email", "signed-up@example.org", "--role", "admin"]);
    expect(r).toMatchObject({ code: 0, stdout: "signed-up@example.org is now an administrator (was a user)\n" });
    expect((await recorded("signed-up@example.org")).role).toBe("ADMIN");
  });

  it("exits 1 for an unknown email, changing nothing", async () => {
    const before = await db.prisma.auditEvent.count({ where: { action: "user.role_change" } });
    const r = await admin(["grant", "--email", "Ghost@example.org", "--role", "organizer"]);
    expect(r).toEqual({ code: 1, stdout: "", stderr: "no user with the email address ghost@example.org\n" });
    expect(await db.prisma.auditEvent.count({ where: { action: "user.role_change" } })).toBe(before);
  });

  it("exits 1 rather than demote the last admin", async () => {
    await admin(["create-user", "--email", "sole-admin@example.org", "--password", "0123456789", "--admin"]);
    await db.prisma.user.updateMany({ where: { role: "ADMIN", email: { not: "sole-admin@example.org" } }, data: { role: "USER" } });
    const r = await admin(["grant", "--email", "sole-admin@example.org", "--role", "organizer"]);
    expect(r).toEqual({ code: 1, stdout: "", stderr: "sole-admin@example.org is the last site admin: make another account an admin first, so that the site keeps one.\n" });
    expect(await recorded("sole-admin@example.org")).toEqual({ role: "ADMIN", events: [] });
  });
});

/** What a finished `node --import tsx scripts/admin.ts` printed, and its exit code. */
interface Finished {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `node --import tsx scripts/admin.ts ...args` to its end, as `spawnSync` would (stdin
 * at end of file, killed after `timeoutMs`), but without blocking this process, so that
 * independent runs overlap: each one spends seconds starting up (tsx, Prisma, migrations check).
 */
function runAdminProcess(args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/admin.ts", ...args], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"], timeout: timeoutMs });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.once("error", reject);
    child.once("close", (status) => resolve({ status, stdout, stderr }));
  });
}

// What only a process shows: the exit codes (0, 1, 2: one process each), the environment
// (DATABASE_URL set or unset, NEXTAUTH_URL), nothing but the answer on stdout, and the embedded
// Postgres started and stopped by the CLI. What the commands do is checked in-process above.
// Concurrent: the tests use other accounts (or another cluster) and spend their time in child
// processes (each spends seconds starting up: tsx and the modules it loads). Each test may take
// longer than it would alone (the processes share the cores), hence the timeouts.
describe.concurrent("as a separate process", () => {
  const env = () => ({ ...process.env, DATABASE_URL: db.connectionString });

  it("exits 2 on bad usage, found before the database is opened", async () => {
    const usage = await runAdminProcess(["create-token", "--email", "proc@example.org"], env(), 60_000);
    expect(usage.status).toBe(2);
    expect(usage.stderr).toMatch(/required option '--name <name>' not specified/);
    expect(usage.stdout).toBe("");
  }, 120_000);

  it("prints a reset link at the NEXTAUTH_URL it is given, alone on stdout, and exits 0", async () => {
    // In-process: the account is only the set-up.
    expect((await admin(["create-user", "--email", "proc-reset@example.org", "--password", "0123456789"])).code).toBe(0);
    const link = await runAdminProcess(["reset-link", "--email", "proc-reset@example.org"], { ...env(), NEXTAUTH_URL: "http://127.0.0.1:3100" }, 60_000);
    expect(link.status).toBe(0);
    expect(link.stdout).toMatch(/^http:\/\/127\.0\.0\.1:3100\/reset-password\?token=[A-Za-z0-9_-]{43}\n$/);
    // With DATABASE_URL set (and migrated), stderr has the command's own line and nothing else.
    expect(link.stderr).toMatch(/^password-reset link for proc-reset@example\.org, valid once until [^\n]+:\n$/);
  }, 120_000);

  it("starts the embedded Postgres when DATABASE_URL is unset, migrates it, and stops it; exits 1 for an unknown email", async () => {
    const parent = await mkdtemp(path.join(tmpdir(), "corefboard-admin-"));
    const dataDir = path.join(parent, "pg");
    try {
      const port = await freePort();
      const embeddedEnv: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: "", EMBEDDED_PG_DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(port) };
      const unknown = await runAdminProcess(["create-token", "--email", "Nobody@example.org", "--name", "script"], embeddedEnv, 90_000);
      expect(unknown.stderr).toMatch(/^applied \d+ migration\(s\)\nno user with the email address nobody@example\.org\n$/);
      expect(unknown.status).toBe(1);
      expect(unknown.stdout).toBe("");
      // The cluster is in EMBEDDED_PG_DATA_DIR, on EMBEDDED_PG_PORT (kept in its credentials
      // file), and stopped: no server is left on it, so this process starts (owns) it again and
      // finds every migration applied there.
      expect((await readCredentials(credentialsFile(dataDir)))?.port).toBe(port);
      expect(existsSync(path.join(dataDir, "postmaster.pid"))).toBe(false);
      const again = await startEmbeddedPostgres({ dataDir });
      try {
        expect(again.owned).toBe(true);
        await expect(migrate(again.connectionString)).resolves.toEqual([]);
      } finally {
        await again.stop();
      }
    } finally {
      await rm(parent, { recursive: true, force: true });
    }
  }, 120_000);
});
