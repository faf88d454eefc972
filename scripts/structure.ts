/**
 * The code's mechanical signs of structure (issue 25): long functions, long files, how many files
 * sit directly in `lib/services/`, and how far imports climb. `npm run structure` prints
 * them; scripts/structure.test.ts holds the code to its limits.
 *
 * What counts: the source under `app/`, `lib/`, `scoring/` and `scripts/`, and the root's
 * `proxy.ts`; not tests (`*.test.ts`, `e2e/`), benchmarks (`bench` folders and `bench*.ts`),
 * fixtures (`*.fixtures.ts`, `fixtures` and `test-*` helpers) or generated code (`lib/generated`).
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

/** The limits issue 25 sets. */
export const LIMITS = {
  /** Lines of one function, from its first line to its last, nested functions included. */
  functionLines: 120,
  /** Non-blank lines of one source file. */
  fileLines: 700,
  /** Files directly in lib/services/ (the folder may also go). */
  servicesFiles: 8,
  /** How many `../` an import may start with (anywhere; across top-level folders app/ uses `@/`). */
  climb: 2,
} as const;

/** The folders whose source is measured, relative to the repository's root. */
const SOURCE_DIRS = ["app", "lib", "scoring", "scripts"];
/** Root files measured beside them. */
const ROOT_FILES = ["proxy.ts"];

/** A function longer than {@link LIMITS.functionLines}. */
export interface LongFunction {
  file: string;
  name: string;
  line: number;
  lines: number;
}

/** What {@link measure} finds. */
export interface StructureReport {
  /** Every function with its length, longest first. */
  functions: LongFunction[];
  /** Source files with their non-blank line counts, longest first. */
  files: { file: string; lines: number }[];
  /** The files directly in lib/services/ (none once the folder has gone). */
  servicesFiles: string[];
  /** Every import of the measured folders (and e2e/) with how many folders it climbs, deepest first. */
  imports: { file: string; specifier: string; climb: number }[];
}

/** Whether a path (relative, with `/`) is a test, benchmark, fixture or generated file. */
export function isExcluded(file: string): boolean {
  const parts = file.split("/");
  const base = parts[parts.length - 1];
  return (
    /\.(test|spec)\.(ts|tsx|mjs)$/.test(base) ||
    /\.d\.ts$/.test(base) ||
    /\.fixtures?\.ts$/.test(base) ||
    /^(bench|test-)[\w.-]*\.(ts|mjs)$/.test(base) ||
    parts.includes("bench") ||
    parts.includes("fixtures") ||
    parts.includes("__mocks__") ||
    parts.includes("node_modules") ||
    file.startsWith("lib/generated/") ||
    file.startsWith("scoring/cli/dist/")
  );
}

/** The measured source files under `root`, as paths relative to it with `/`. */
export function sourceFiles(root: string): string[] {
  const out: string[] = [];
  for (const dir of SOURCE_DIRS) {
    for (const entry of readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !/\.(ts|tsx|mjs)$/.test(entry.name)) continue;
      const rel = path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join("/");
      if (!isExcluded(rel)) out.push(rel);
    }
  }
  for (const file of ROOT_FILES) out.push(file);
  return out.sort();
}

/** A readable name for a function node: its declared name, or the variable, property or call it sits in. */
function functionName(node: ts.Node, source: ts.SourceFile): string {
  const named = node as ts.FunctionLikeDeclaration;
  if (named.name) return named.name.getText(source);
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))) {
    return parent.name.getText(source);
  }
  if (parent && ts.isCallExpression(parent)) return `(callback of ${parent.expression.getText(source).slice(0, 40)})`;
  return "(anonymous)";
}

/** Every function-like node in one file with its length in lines. */
export function functionsIn(file: string, text: string): LongFunction[] {
  const kind = file.endsWith(".tsx") ? ts.ScriptKind.TSX : file.endsWith(".mjs") ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const found: LongFunction[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isFunctionDeclaration(node) ||
      ts.isFunctionExpression(node) ||
      ts.isArrowFunction(node) ||
      ts.isMethodDeclaration(node) ||
      ts.isConstructorDeclaration(node) ||
      ts.isGetAccessorDeclaration(node) ||
      ts.isSetAccessorDeclaration(node)
    ) {
      if ((node as ts.FunctionLikeDeclaration).body) {
        const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
        const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
        found.push({ file, name: functionName(node, source), line: start + 1, lines: end - start + 1 });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The module specifiers a file imports or re-exports (static, dynamic and `vi.mock`). */
export function importSpecifiers(text: string): string[] {
  const out: string[] = [];
  const pattern = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\bvi\.mock\(\s*)["']([^"']+)["']/g;
  for (const match of text.matchAll(pattern)) out.push(match[1]);
  return out;
}

/** How many leading `../` a specifier has. */
export function climbOf(specifier: string): number {
  const match = /^(?:\.\.\/)+/.exec(specifier);
  return match ? match[0].length / 3 : 0;
}

/** Measures the tree at `root`. */
export function measure(root: string): StructureReport {
  const functions: LongFunction[] = [];
  const files: { file: string; lines: number }[] = [];
  const imports: { file: string; specifier: string; climb: number }[] = [];
  for (const file of sourceFiles(root)) {
    const text = readFileSync(path.join(root, file), "utf8");
    files.push({ file, lines: text.split("\n").filter((line) => line.trim() !== "").length });
    functions.push(...functionsIn(file, text));
  }
  for (const dir of [...SOURCE_DIRS, "e2e"]) {
    for (const entry of readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !/\.(ts|tsx|mjs)$/.test(entry.name)) continue;
      const file = path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join("/");
      if (file.startsWith("lib/generated/") || file.startsWith("scoring/cli/dist/") || file.includes("/node_modules/")) continue;
      for (const specifier of importSpecifiers(readFileSync(path.join(root, file), "utf8"))) {
        imports.push({ file, specifier, climb: climbOf(specifier) });
      }
    }
  }
  let servicesFiles: string[] = [];
  try {
    servicesFiles = readdirSync(path.join(root, "lib/services"), { withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => `lib/services/${entry.name}`);
  } catch {
    servicesFiles = [];
  }
  functions.sort((a, b) => b.lines - a.lines);
  files.sort((a, b) => b.lines - a.lines);
  imports.sort((a, b) => b.climb - a.climb);
  return { functions, files, servicesFiles, imports };
}

/** The report as text: each sign against its limit, with the offenders. */
export function formatReport(report: StructureReport): string {
  const over120 = report.functions.filter((f) => f.lines > LIMITS.functionLines);
  const over80 = report.functions.filter((f) => f.lines > 80);
  const over60 = report.functions.filter((f) => f.lines > 60);
  const longFiles = report.files.filter((f) => f.lines > LIMITS.fileLines);
  const climbing = report.imports.filter((i) => i.climb > LIMITS.climb);
  const appFour = report.imports.filter((i) => i.file.startsWith("app/") && i.climb >= 4);
  const lines = [
    `source files measured: ${report.files.length}, ${report.files.reduce((sum, f) => sum + f.lines, 0)} non-blank lines`,
    `functions over ${LIMITS.functionLines} lines: ${over120.length} (over 80: ${over80.length}, over 60: ${over60.length})`,
    ...over120.map((f) => `  ${f.lines}\t${f.name}\t${f.file}:${f.line}`),
    `files over ${LIMITS.fileLines} non-blank lines: ${longFiles.length}`,
    ...longFiles.map((f) => `  ${f.lines}\t${f.file}`),
    `files directly in lib/services/: ${report.servicesFiles.length} (of which tests: ${report.servicesFiles.filter((f) => f.endsWith(".test.ts")).length})`,
    `imports climbing more than ${LIMITS.climb} folders: ${climbing.length} (deepest: ${report.imports[0]?.climb ?? 0}); in app/ climbing four or more: ${appFour.length}`,
    ...climbing.slice(0, 20).map((i) => `  ${i.climb}\t${i.file}: ${i.specifier}`),
  ];
  return lines.join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const report = measure(process.cwd());
  if (process.argv.includes("--json")) console.log(JSON.stringify(report, null, 2));
  else console.log(formatReport(report));
}
