import { describe, expect, it } from "vitest";
import {
  compareHref,
  documentHref,
  leaderboardApiHref,
  leaderboardHref,
  leaderboardParams,
  metricHref,
  phaseHref,
  signInHref,
  submissionHref,
  submitHref,
  taskHref,
  teamProgressHref,
} from "./hrefs";
import { LEADERBOARD_METRICS } from "./validations/metrics";

describe("page paths", () => {
  it("encode each segment once", () => {
    expect(taskHref("lit bank")).toBe("/tasks/lit%20bank");
    expect(phaseHref("lit bank", "p/1")).toBe("/tasks/lit%20bank/phases/p%2F1");
    expect(submitHref("t", "p")).toBe("/tasks/t/phases/p/submit");
    expect(teamProgressHref("t", "p", "team#1")).toBe("/tasks/t/phases/p/teams/team%231");
    expect(submissionHref("a?b")).toBe("/submissions/a%3Fb");
  });

  it("document links keep a document id with slashes and spaces in one segment, and name the dataset when given", () => {
    expect(documentHref("s1", "bleak_house/part 0")).toBe("/submissions/s1/documents/bleak_house%2Fpart%200");
    expect(documentHref("s1", "d1", "en gum")).toBe("/submissions/s1/documents/d1?dataset=en+gum");
    expect(documentHref("s1", "d1", null)).toBe("/submissions/s1/documents/d1");
  });

  it("compare and sign-in links put their values in the query", () => {
    expect(compareHref("x", "y&z")).toBe("/compare?a=x&b=y%26z");
    expect(new URL(signInHref("/tasks/t?metric=muc"), "http://h").searchParams.get("callbackUrl")).toBe("/tasks/t?metric=muc");
  });
});

describe("metricHref", () => {
  it("links every leaderboard metric to its own page", () => {
    for (const m of LEADERBOARD_METRICS) expect(metricHref(m)).toBe(`/metrics/${m}`);
  });

  it("folds other names of a metric to its page, and unknown names to the list", () => {
    expect(metricHref("B3")).toBe("/metrics/bcub");
    expect(metricHref("blanc_coref")).toBe("/metrics/blanc");
    expect(metricHref("CEAF-phi4")).toBe("/metrics/ceafe");
    expect(metricHref("als_zeros")).toBe("/metrics/zero");
    expect(metricHref("no such metric")).toBe("/metrics");
    expect(metricHref("constructor")).toBe("/metrics");
  });
});

describe("leaderboardHref", () => {
  const base = "/tasks/t/phases/p/leaderboard";

  it("writes no query for the default board", () => {
    expect(leaderboardHref("t", "p")).toBe(base);
    expect(leaderboardHref("t", "p", { metric: null, variant: "", all: false, rp: false, ci: false, team: null, cursor: null })).toBe(base);
  });

  it("writes the parameters given, in one order, with switches as 1", () => {
    const href = leaderboardHref("t", "p", {
      cursor: "c1",
      team: "Team A",
      ci: true,
      rp: true,
      all: true,
      rankDataset: "ds b",
      dataset: "ds_a",
      track: "tr",
      variant: "partial",
      metric: "muc",
    });
    expect(href).toBe(`${base}?metric=muc&variant=partial&track=tr&dataset=ds_a&rankDataset=ds+b&all=1&rp=1&ci=1&team=Team+A&cursor=c1`);
  });

  it("round-trips awkward values through the query string", () => {
    const params = new URL(leaderboardHref("t", "p", { team: "a&b=c ü", cursor: "x/y+z" }), "http://h").searchParams;
    expect(params.get("team")).toBe("a&b=c ü");
    expect(params.get("cursor")).toBe("x/y+z");
  });

  it("leaderboardParams is the query leaderboardHref writes", () => {
    const state = { metric: "lea" as const, all: true, team: "x" };
    expect(`${base}?${leaderboardParams(state)}`).toBe(leaderboardHref("t", "p", state));
  });
});

describe("leaderboardApiHref", () => {
  const api = "/api/v1/phases/p/leaderboard";

  it("keeps the JSON default out and puts the format last", () => {
    expect(leaderboardApiHref("p", { metric: "conll" })).toBe(`${api}?metric=conll`);
    expect(leaderboardApiHref("p", { metric: "conll", format: "json" })).toBe(`${api}?metric=conll`);
    expect(leaderboardApiHref("p", { metric: "conll", format: "csv" })).toBe(`${api}?metric=conll&format=csv`);
  });

  it("writes every parameter given, in one order", () => {
    expect(
      leaderboardApiHref("p", { format: "csv", cursor: "c", limit: 50, intervals: true, significance: true, team: "A", allRuns: true, rankDataset: "r", dataset: "d", track: "t", variant: "v", metric: "muc" }),
    ).toBe(`${api}?metric=muc&variant=v&track=t&dataset=d&rankDataset=r&allRuns=1&team=A&significance=1&intervals=1&limit=50&cursor=c&format=csv`);
    expect(leaderboardApiHref("p a")).toBe("/api/v1/phases/p%20a/leaderboard");
  });
});
