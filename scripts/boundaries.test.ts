/**
 * The module boundary rule (.dependency-cruiser.cjs, `npm run boundaries`) fails on a forbidden
 * import: run on a small tree with one import of each kind it forbids, and on the same tree
 * without them.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const REPO = path.resolve(import.meta.dirname, "..");
const CONFIG = path.join(REPO, ".dependency-cruiser.cjs");
const DEPCRUISE = path.join(REPO, "node_modules", ".bin", "depcruise");

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Writes `files` (path → text) into a fresh folder with a tsconfig, and runs the rule there. */
function cruise(files: Record<string, string>): { code: number | null; output: string } {
  const dir = mkdtempSync(path.join(tmpdir(), "corefboard-boundaries-"));
  dirs.push(dir);
  const tree: Record<string, string> = { "tsconfig.json": JSON.stringify({ compilerOptions: { module: "ESNext", moduleResolution: "Bundler", paths: { "@/*": ["./*"] } } }), ...files };
  for (const [file, text] of Object.entries(tree)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  const roots = ["app", "lib", "scoring"].filter((root) => Object.keys(files).some((file) => file.startsWith(`${root}/`)));
  const run = spawnSync(DEPCRUISE, ["--config", CONFIG, "--output-type", "err", ...roots], { cwd: dir, encoding: "utf8" });
  return { code: run.status, output: `${run.stdout}${run.stderr}` };
}

/** A tree whose imports all go the allowed way. */
const ALLOWED = {
  "lib/errors.ts": "export const E = 1;\n",
  "lib/audit/record.ts": 'import { E } from "../errors";\nexport const recordAudit = E;\n',
  "lib/audit/index.ts": 'export { recordAudit } from "./record";\n',
  "lib/tasks/phases.ts": 'import { recordAudit } from "../audit";\nexport const loadPhase = recordAudit;\n',
  "lib/tasks/index.ts": 'export { loadPhase } from "./phases";\n',
  "lib/runs/submissions.ts": 'import { loadPhase } from "../tasks";\nexport const createSubmission = loadPhase;\n',
  "lib/runs/index.ts": 'export { createSubmission } from "./submissions";\n',
  "app/page.tsx": 'import { createSubmission } from "@/lib/runs";\nexport default createSubmission;\n',
  "scoring/index.ts": "export const score = 1;\n",
};

describe("module boundaries", () => {
  it("pass a tree whose arrows go down the layers", () => {
    const { code, output } = cruise(ALLOWED);
    expect(output).not.toMatch(/error/);
    expect(code).toBe(0);
  });

  it("fail on a lower layer importing a higher one, a cycle, scoring importing lib, app importing Prisma or reaching behind a domain's index, and lib importing app", () => {
    const { code, output } = cruise({
      ...ALLOWED,
      // tasks (below runs) imports runs: forbidden by the tasks layer's rule, and a cycle.
      "lib/tasks/phases.ts": 'import { recordAudit } from "../audit";\nimport { createSubmission } from "../runs";\nexport const loadPhase = recordAudit;\nexport const again = createSubmission;\n',
      // app reaches behind the runs domain's surface.
      "app/other.tsx": 'import { createSubmission } from "@/lib/runs/submissions";\nexport default createSubmission;\n',
      "scoring/index.ts": 'import { E } from "../lib/errors";\nexport const score = E;\n',
      "lib/generated/prisma/client.ts": "export const PrismaClient = 1;\n",
      "app/route.ts": 'import { PrismaClient } from "@/lib/generated/prisma/client";\nexport const GET = PrismaClient;\n',
      "lib/errors.ts": 'import page from "../app/page";\nexport const E = 1;\nexport const P = page;\n',
    });
    expect(code).not.toBe(0);
    for (const rule of ["layer-tasks", "no-circular", "scoring-is-framework-free", "app-not-prisma", "lib-not-app", "domain-through-index"]) {
      expect(output, rule).toContain(`error ${rule}:`);
    }
  });
});
