import { spawn } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

const GUARD = pathToFileURL(path.join(path.dirname(fileURLToPath(import.meta.url)), "exit-with-supervisor.mjs")).href;

/** A node process that would run for a minute, with the guard watching `supervisorPid`. */
function guarded(supervisorPid: number) {
  return spawn(process.execPath, ["--import", GUARD, "-e", "process.on('SIGTERM', () => { console.log('stopping'); process.exit(0); }); setTimeout(() => {}, 60000);"], {
    env: { ...process.env, COREFBOARD_SUPERVISOR_PID: String(supervisorPid) },
    stdio: ["ignore", "pipe", "pipe"],
  });
}

describe("exit-with-supervisor preload", () => {
  it("stops a child (SIGTERM to itself) within seconds once its supervisor is gone", { timeout: 20_000 }, async () => {
    const supervisor = spawn("sleep", ["1"]);
    const child = guarded(supervisor.pid!);
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    // The supervisor lives 1 s and the guard checks every second; the child alone would run a
    // minute, past this test's 20 s limit.
    const [code] = (await once(child, "exit")) as [number | null];
    expect(code).toBe(0);
    expect(out).toContain("stopping");
  });

  it("leaves the child alone while the supervisor lives", { timeout: 20_000 }, async () => {
    const child = guarded(process.pid);
    await new Promise((r) => setTimeout(r, 2500));
    expect(child.exitCode).toBeNull();
    child.kill("SIGKILL");
    await once(child, "exit");
  });
});
