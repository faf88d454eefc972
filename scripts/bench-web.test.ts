/**
 * bench:web's verdicts (scripts/bench-web.ts): the targets judged per round and, over several
 * rounds (`--rounds`), on the median of the rounds' figures; and its arguments. The load itself
 * is not driven here (`npm run bench:web` does that against a production build).
 */
import { describe, expect, it } from "vitest";
import { median, parseBenchWebArgs, targetFigures, targetsReport, type EndpointName, type EndpointResult, type ProcessCountResult } from "./bench-web";

/** An endpoint's figures with only its throughput and size set. */
function result(name: EndpointName, requestsPerSecond: number, bytes = 1000): EndpointResult {
  const q = { ms: 1, upper: 1 };
  return { name, label: name, path: `/${name}`, status: 200, bytes, gzipBytes: bytes, p50: q, p95: q, p99: q, mean: 1, alone: 1, requestsPerSecond, responses: 1, unanswered: 0, non2xx: 0, errors: 0, loadCpuShare: 0, serverCores: null, machineBusyShare: null };
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

describe("parseBenchWebArgs", () => {
  it("takes --rounds from 1 to 20, default 1", () => {
    expect(parseBenchWebArgs([]).rounds).toBe(1);
    expect(parseBenchWebArgs(["--rounds", "3"]).rounds).toBe(3);
    expect(() => parseBenchWebArgs(["--rounds", "0"])).toThrow(/whole number from 1 to 20/);
  });
});
