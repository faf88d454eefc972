/**
 * bench:web's verdicts (scripts/bench-web.ts): the targets judged per round and, over several
 * rounds (`--rounds`), on the median of the rounds' figures; and its arguments. The load itself
 * is not driven here (`npm run bench:web` does that against a production build).
 */
import { describe, expect, it } from "vitest";
import { combineSlices, floorRatio, median, parseBenchWebArgs, targetFigures, targetsReport, type EndpointName, type EndpointResult, type LoadSlice, type ProcessCountResult } from "./bench-web";

/** An endpoint's figures with only its throughput (over one slice, or per slice) and size set. */
function result(name: EndpointName, requestsPerSecond: number, bytes = 1000, sliceRates = [requestsPerSecond]): EndpointResult {
  const q = { ms: 1, upper: 1 };
  return { name, label: name, path: `/${name}`, status: 200, bytes, gzipBytes: bytes, p50: q, p95: q, p99: q, mean: 1, alone: 1, requestsPerSecond, sliceRates, responses: 1, unanswered: 0, non2xx: 0, errors: 0, loadCpuShare: 0, serverCores: null, machineBusyShare: null };
}

/** A slice of `seconds` with these answered latencies (ms) and CPU figures. */
function slice(seconds: number, latencies: number[], over: Partial<LoadSlice> = {}): LoadSlice {
  return { seconds, latencies, unanswered: [], non2xx: 0, errors: 0, loadCpuSeconds: 0.1, serverCpuSeconds: 1, machineTicks: { busy: 50, total: 100 }, ...over };
}

/** One round: per process count, the page, JSON and both floors' throughput. */
function round(...counts: [webProcesses: number, page: number, json: number, floorPage: number, floorApi: number][]): ProcessCountResult[] {
  return counts.map(([webProcesses, page, json, floorPage, floorApi]) => ({
    webProcesses,
    failures: [],
    results: [result("page", page, 390_000), result("json", json), result("floor-page", floorPage), result("floor-api", floorApi)],
  }));
}

describe("median", () => {
  it("is the middle value, or the mean of the middle two", () => {
    expect(median([0.42, 0.3, 0.35])).toBe(0.35);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeUndefined();
  });
});

describe("targetFigures", () => {
  it("takes each ratio within its round: page and JSON against their floors per process count, 2 processes' JSON against 1's", () => {
    const figures = targetFigures(round([1, 30, 280, 100, 400], [2, 40, 350, 120, 500]));
    const value = (start: string) => figures.find((f) => f.what.startsWith(start))?.value;
    expect(value("1 process: leaderboard page")).toBeCloseTo(0.3);
    expect(value("1 process: leaderboard JSON")).toBeCloseTo(0.7);
    expect(value("2 processes: leaderboard page")).toBeCloseTo(40 / 120);
    expect(value("2 processes: leaderboard JSON ≥ 0.7×")).toBeCloseTo(0.7);
    expect(value("2 processes: leaderboard JSON ≥ 1.4× one process")).toBeCloseTo(1.25);
    expect(value("1 process: leaderboard page HTML")).toBe(390_000);
  });
});

describe("targetsReport", () => {
  it("judges one round on its own figures", () => {
    const text = targetsReport([round([1, 36, 300, 100, 400])], { connections: 10, duration: 10 });
    expect(text).toMatch(/1 process: leaderboard page ≥ 0\.35× the static page\s+0\.36×  met$/m);
    expect(text).toMatch(/1 process: leaderboard JSON ≥ 0\.7× the session API\s+0\.75×  met$/m);
    expect(text).toMatch(/1 process: leaderboard page HTML < 200 kB\s+390\.0 kB  MISSED$/m);
    expect(text).not.toMatch(/rounds/);
  });

  it("judges several rounds on the median of their ratios, listing each round's", () => {
    // The page's ratio per round: 0.30, 0.42, 0.38: median 0.38, met, though one round missed.
    const rounds = [round([1, 30, 200, 100, 400], [2, 40, 250, 120, 500]), round([1, 42, 300, 100, 400], [2, 40, 260, 120, 500]), round([1, 38, 320, 100, 400], [2, 50, 300, 120, 500])];
    const text = targetsReport(rounds, { connections: 10, duration: 10 });
    expect(text).toContain("the median of 3 rounds");
    expect(text).toMatch(/1 process: leaderboard page ≥ 0\.35× the static page\s+0\.38×  met  \(rounds: 0\.30×, 0\.42×, 0\.38×\)$/m);
    // JSON per round 0.50, 0.75, 0.80: median 0.75, met.
    expect(text).toMatch(/1 process: leaderboard JSON ≥ 0\.7× the session API\s+0\.75×  met/m);
    // 2 against 1: 1.25, 0.87, 0.94: median 0.94, missed.
    expect(text).toMatch(/2 processes: leaderboard JSON ≥ 1\.4× one process\s+0\.94×  MISSED  \(rounds: 1\.25×, 0\.87×, 0\.94×\)$/m);
  });
});

describe("floorRatio", () => {
  it("is the median of the slice-by-slice ratios when the endpoint and its floor ran in the same turns", () => {
    // The machine slowed down in the middle turn: both halved there. Slice ratios 0.4, 0.4, 0.3.
    const results = [result("page", 30, 1000, [40, 20, 30]), result("floor-page", 80, 1000, [100, 50, 100])];
    expect(floorRatio(results, "page")).toBeCloseTo(0.4);
    // Whole-load throughput would say 30 / 80.
    expect(30 / 80).not.toBeCloseTo(0.4);
  });

  it("falls back to the whole loads' ratio for one slice or unequal slice counts, and is undefined without the floor", () => {
    expect(floorRatio([result("json", 300), result("floor-api", 400)], "json")).toBeCloseTo(0.75);
    expect(floorRatio([result("json", 300, 1000, [200, 400]), result("floor-api", 400, 1000, [400, 400, 400])], "json")).toBeCloseTo(0.75);
    expect(floorRatio([result("json", 300)], "json")).toBeUndefined();
    expect(floorRatio([result("floor-api", 400)], "floor-api")).toBeUndefined();
  });
});

describe("combineSlices", () => {
  const warm = { first: { status: 200, body: Buffer.from("x".repeat(2000)), ms: 40 }, ms: [40, 12, 10, 11] };

  it("takes latencies over every slice, throughput and CPU over their summed time, and each slice's throughput", () => {
    const r = combineSlices({ name: "json", label: "leaderboard JSON", path: "/j" }, warm, [slice(2, [10, 20, 30, 40]), slice(1, [50, 60], { serverCpuSeconds: 0.5, machineTicks: { busy: 40, total: 50 } })], 2);
    expect(r.requestsPerSecond).toBeCloseTo(6 / 3);
    expect(r.sliceRates).toEqual([2, 2]);
    expect(r.responses).toBe(6);
    expect(r.p50).toEqual({ ms: 30, upper: 30 });
    expect(r.p99).toEqual({ ms: 60, upper: 60 });
    expect(r.mean).toBeCloseTo(35);
    expect(r.serverCores).toBeCloseTo(1.5 / 3);
    expect(r.machineBusyShare).toBeCloseTo(90 / 150);
    expect(r.loadCpuShare).toBeCloseTo(0.2 / 3 / 2);
    // alone: the median of the warm-up requests after the first; sizes from the first answer.
    expect(r.alone).toBe(11);
    expect(r.bytes).toBe(2000);
    expect(r.gzipBytes).toBeLessThan(100);
  });

  it("counts every slice's unanswered requests and errors, and has no CPU figure when one slice lacks it", () => {
    const r = combineSlices({ name: "page", label: "page", path: "/p" }, warm, [slice(1, [5], { unanswered: [900], non2xx: 1 }), slice(1, [6], { unanswered: [800], errors: 2, serverCpuSeconds: null, machineTicks: null })], 2);
    expect([r.unanswered, r.non2xx, r.errors]).toEqual([2, 1, 2]);
    // Two of four requests never answered: the median is a lower bound.
    expect(r.p95.upper).toBe(Number.POSITIVE_INFINITY);
    expect([r.serverCores, r.machineBusyShare]).toEqual([null, null]);
  });
});

describe("parseBenchWebArgs", () => {
  it("takes --slices from 1 to 100, default 5, each slice at least 1 s", () => {
    expect(parseBenchWebArgs([]).slices).toBe(5);
    expect(parseBenchWebArgs(["--duration", "10", "--slices", "10"]).slices).toBe(10);
    expect(() => parseBenchWebArgs(["--duration", "10", "--slices", "11"])).toThrow(/slices under 1 s/);
    expect(() => parseBenchWebArgs(["--slices", "0"])).toThrow(/whole number from 1 to 100/);
  });

  it("takes --warmup-load from 0 (none) to 600 s, default 5", () => {
    expect(parseBenchWebArgs([]).warmupLoad).toBe(5);
    expect(parseBenchWebArgs(["--warmup-load", "0"]).warmupLoad).toBe(0);
    expect(() => parseBenchWebArgs(["--warmup-load", "601"])).toThrow(/whole number from 0 to 600/);
  });

  it("takes --rounds from 1 to 20, default 1", () => {
    expect(parseBenchWebArgs([]).rounds).toBe(1);
    expect(parseBenchWebArgs(["--rounds", "3"]).rounds).toBe(3);
    expect(() => parseBenchWebArgs(["--rounds", "0"])).toThrow(/whole number from 1 to 20/);
  });
});
