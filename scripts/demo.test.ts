import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

// What `npm run demo` loads is tested on the loaders it calls (lib/demo/demo-task.test.ts and
// gum-demo-task.test.ts: loadDemoTask, loadGumDemoTask, loadDemoTasks); the e2e analysis spec
// uses the LitBank demo task on the running site. Here: the script itself, as a process.
describe("npm run demo (scripts/demo.ts)", () => {
  it("exits 1 with a clear message when DATABASE_URL is not set, loading nothing", () => {
    const r = spawnSync(process.execPath, ["--import", "tsx", "scripts/demo.ts"], { cwd: root, env: { ...process.env, DATABASE_URL: "" }, encoding: "utf8", timeout: 60_000 });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("demo: DATABASE_URL is not set");
    expect(r.stdout).toBe("");
  }, 60_000);
});
