/**
 * lib's metric lists come from the scorer's registry: every registry metric has a label, a
 * board position and an explanation page; the lists are in board order; and no other file of
 * lib/ or app/ writes a list of metric ids out (the registry and `lib/validations/metrics.ts`
 * are the only places a metric is added).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { METRIC_REGISTRY } from "../../scoring/metrics/registry";
import { getMetricExplanation } from "../content/metrics-explained";
import {
  boardColumns,
  COUNT_METRIC_NAMES,
  isOptionalMetric,
  LEADERBOARD_METRICS,
  METRIC_DISPLAY,
  METRIC_IDS,
  METRIC_LABELS,
  metricSchema,
  OPTIONAL_METRIC_NAMES,
  shownMetrics,
} from "./metrics";

const REGISTRY_IDS = METRIC_REGISTRY.map((m) => m.id);

describe("lib's metrics on top of the registry", () => {
  it.each(REGISTRY_IDS)("%s has a label, a board position and an explanation page", (id) => {
    expect(Object.hasOwn(METRIC_DISPLAY, id)).toBe(true);
    expect(METRIC_DISPLAY[id].label.trim().length).toBeGreaterThan(0);
    expect(Number.isInteger(METRIC_DISPLAY[id].position)).toBe(true);
    expect(METRIC_LABELS[id]).toBe(METRIC_DISPLAY[id].label);
    expect(LEADERBOARD_METRICS).toContain(id);
    const page = getMetricExplanation(id);
    expect(page?.id).toBe(id);
    expect(page?.label).toBe(METRIC_DISPLAY[id].label);
    expect(page?.optional).toBe(METRIC_REGISTRY.find((m) => m.id === id)!.optional);
    expect(page?.scorer).toBe(METRIC_REGISTRY.find((m) => m.id === id)!.corefud ? "corefud" : "reference");
  });

  it("labels and describes nothing the registry lacks, and gives every metric its own place", () => {
    expect(Object.keys(METRIC_DISPLAY).sort()).toEqual([...REGISTRY_IDS].sort());
    const positions = Object.values(METRIC_DISPLAY).map((d) => d.position);
    expect(new Set(positions).size).toBe(positions.length);
    expect(new Set(Object.values(METRIC_LABELS)).size).toBe(LEADERBOARD_METRICS.length);
  });

  it("lists the registry in board order, then conll; optional metrics after the standard ones", () => {
    expect(LEADERBOARD_METRICS).toEqual(["mentions", "muc", "bcub", "ceafm", "ceafe", "lea", "blanc", "mcf", "mor", "zero", "conll"]);
    expect(METRIC_IDS).toEqual(LEADERBOARD_METRICS);
    expect(COUNT_METRIC_NAMES).toEqual(["mentions", "muc", "bcub", "ceafm", "ceafe", "lea", "mcf", "mor", "zero"]);
    expect(OPTIONAL_METRIC_NAMES).toEqual(METRIC_REGISTRY.filter((m) => m.optional).map((m) => m.id));
    const firstOptional = LEADERBOARD_METRICS.findIndex(isOptionalMetric);
    expect(LEADERBOARD_METRICS.slice(0, firstOptional).some(isOptionalMetric)).toBe(false);
    expect(LEADERBOARD_METRICS.slice(firstOptional, -1).every(isOptionalMetric)).toBe(true);
    expect(METRIC_LABELS.mor).toBe("MOR");
    expect(METRIC_LABELS.zero).toBe("Zeros");
    for (const m of LEADERBOARD_METRICS) expect(metricSchema.parse(m)).toBe(m);
    expect(() => metricSchema.parse("b3")).toThrow("must be one of mentions, muc, bcub, ceafm, ceafe, lea, blanc, mcf, mor, zero, conll");
  });

  it("hides the optional metrics no run has; the board shows Mentions only when ranking by it", () => {
    expect(shownMetrics(LEADERBOARD_METRICS, (m) => m === "mor")).toEqual(["mentions", "muc", "bcub", "ceafm", "ceafe", "lea", "blanc", "mor", "conll"]);
    expect(boardColumns("conll", () => false)).toEqual(["muc", "bcub", "ceafm", "ceafe", "lea", "blanc", "conll"]);
    expect(boardColumns("mentions", (m) => m === "zero")).toEqual(["mentions", "muc", "bcub", "ceafm", "ceafe", "lea", "blanc", "conll", "zero"]);
    expect(boardColumns("mcf", (m) => m === "zero")).toEqual(["muc", "bcub", "ceafm", "ceafe", "lea", "blanc", "conll", "mcf", "zero"]);
  });
});

// ---------------------------------------------------------------------------------------
// No other list of metric ids in lib/ or app/

const root = join(fileURLToPath(new URL(".", import.meta.url)), "..", "..");
/** The one file of lib/ and app/ that may write the metric ids out. */
const ALLOWED = new Set(["lib/validations/metrics.ts"]);

/** Source files of lib/ and app/ (not tests, not the generated Prisma client). */
function sourceFiles(): string[] {
  return ["lib", "app"].flatMap((dir) =>
    (readdirSync(join(root, dir), { recursive: true }) as string[])
      .map((f) => relative(root, join(root, dir, f)).split("\\").join("/"))
      .filter((f) => /\.(ts|tsx|mjs)$/.test(f) && !/\.test\.tsx?$/.test(f) && !f.startsWith("lib/generated/") && !ALLOWED.has(f)),
  );
}

const IDS = [...REGISTRY_IDS, "conll"].join("|");
const QUOTED = `["'](?:${IDS})["']`;
/** Three or more quoted metric ids in a row, separated by commas or `|`: an array or a union type. */
const LIST = new RegExp(`${QUOTED}(?:\\s*(?:as const)?\\s*[,|]\\s*${QUOTED}){2,}`, "g");
/** Three or more `id: <literal>` entries in a row: a record such as a label or flag table. */
const ENTRY = `\\b(?:${IDS})\\s*:\\s*(?:true|false|\\d+|"[^"\\n]*"|'[^'\\n]*')\\s*`;
const RECORD = new RegExp(`${ENTRY},(?:\\s*${ENTRY},?){2,}`, "g");

/** Where `text` writes a list of metric ids: `line: excerpt` for each. */
function hardCodedLists(text: string): string[] {
  return [LIST, RECORD].flatMap((re) => [...text.matchAll(re)].map((m) => `${text.slice(0, m.index).split("\n").length}: ${m[0].replace(/\s+/g, " ")}`));
}

describe("one source for the metric lists", () => {
  it("finds the lists it is meant to find", () => {
    expect(hardCodedLists(`const A = ["muc", "bcub", "ceafe"];`)).toHaveLength(1);
    expect(hardCodedLists(`type C = "conll" | "muc" |\n  "lea";`)).toHaveLength(1);
    expect(hardCodedLists(`const L = { muc: "MUC", bcub: "B³", ceafm: "CEAFm" };`)).toHaveLength(1);
    expect(hardCodedLists(`const P = { mentions: true, muc: true, lea: true };`)).toHaveLength(1);
    expect(hardCodedLists(`if (m === "muc" || m === "conll") x = ["bcub", "bcub-entity", "muc"];`)).toEqual([]);
  });

  it("no file of lib/ or app/ but lib/validations/metrics.ts writes a list of metric ids out", () => {
    const files = sourceFiles();
    expect(files).toContain("lib/boards/scores.ts");
    expect(files).toContain("app/_components/board-table.tsx");
    const found = files.flatMap((f) => hardCodedLists(readFileSync(join(root, f), "utf8")).map((hit) => `${f}:${hit}`));
    expect(found).toEqual([]);
  });
});
