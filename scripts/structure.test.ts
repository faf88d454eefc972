/**
 * Holds the code to issue 25's mechanical limits (scripts/structure.ts): no function over 120
 * lines and no file over 700 non-blank lines outside tests, benchmarks and fixtures; no
 * `lib/services/` folder of loose files; no import climbing more than two folders. A failure
 * names the function or file: split it along its seams (ARCHITECTURE.md).
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LIMITS, climbOf, functionsIn, importSpecifiers, measure } from "./structure";

const report = measure(path.resolve(import.meta.dirname, ".."));

describe("structure", () => {
  it(`has no function over ${LIMITS.functionLines} lines`, () => {
    expect(report.functions.filter((f) => f.lines > LIMITS.functionLines).map((f) => `${f.file}:${f.line} ${f.name} (${f.lines} lines)`)).toEqual([]);
  });

  it(`has no source file over ${LIMITS.fileLines} non-blank lines`, () => {
    expect(report.files.filter((f) => f.lines > LIMITS.fileLines).map((f) => `${f.file} (${f.lines} lines)`)).toEqual([]);
  });

  it(`keeps at most ${LIMITS.servicesFiles} files directly in lib/services/`, () => {
    expect(report.servicesFiles.length).toBeLessThanOrEqual(LIMITS.servicesFiles);
  });

  it(`has no import climbing more than ${LIMITS.climb} folders (across top-level folders, @/ is the way)`, () => {
    expect(report.imports.filter((i) => i.climb > LIMITS.climb).map((i) => `${i.file}: ${i.specifier}`)).toEqual([]);
  });

  it("measures what it says: a function's lines, nested functions included, and an import's climb", () => {
    const text = "export function outer() {\n  const inner = () => {\n    return 1;\n  };\n  return inner();\n}\n";
    expect(functionsIn("x.ts", text).map((f) => [f.name, f.line, f.lines])).toEqual([
      ["outer", 1, 6],
      ["inner", 2, 3],
    ]);
    expect(importSpecifiers('import a from "../../x";\nexport { b } from "./y";\nvi.mock("../../../z");\nawait import("@/lib/q");').map(climbOf)).toEqual([2, 0, 3, 0]);
  });
});
