/**
 * scoring/ is framework-free: it imports nothing from lib/ or app/, nor Next, React or
 * Prisma. This reads every source file's import specifiers and checks them.
 */
import { readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const scoringRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === "fixtures" ? [] : sources(path);
    return /\.(ts|mts|mjs|js)$/.test(name) ? [path] : [];
  });
}

const IMPORT = /(?:import|export)\s[^'"]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

describe("scoring/ dependency rules", () => {
  const files = sources(scoringRoot);
  it("has source files to check", () => {
    expect(files.length).toBeGreaterThan(10);
  });
  it("imports nothing from lib/, app/, Next, React or Prisma", () => {
    const offences: string[] = [];
    for (const file of files) {
      const text = readFileSync(file, "utf8");
      for (const m of text.matchAll(IMPORT)) {
        const spec = m[1] ?? m[2];
        const bad =
          /^(next|react|react-dom|@prisma\/|prisma|next-auth|pg-boss|@\/)/.test(spec) ||
          (spec.startsWith(".") && !resolve(dirname(file), spec).startsWith(scoringRoot));
        if (bad) offences.push(`${relative(scoringRoot, file)} imports ${spec}`);
      }
    }
    expect(offences).toEqual([]);
  });
});
