import { describe, expect, it } from "vitest";
import { METRICS, OPTIONAL_METRICS } from "../../scoring/index";
import { DomainError, errorResponseBody, PhaseClosedError, QuotaExceededError, TooLargeError, ValidationError } from "../errors";
import { joinCodeSchema } from "./team";
import { leaderboardQuerySchema } from "./leaderboard";
import { LEADERBOARD_METRICS } from "./metrics";
import { parseInput } from "./parse";
import { submissionMetadataSchema } from "./submission";
import { createTaskSchema, phasePatchSchema } from "./task";
import { formatInZone, isValidTimeZone, localDateTimeToUtc } from "./time";

const phase = (over: Record<string, unknown> = {}) => ({ name: "test", opensAt: "2025-03-01T00:00:00Z", closesAt: "2025-03-10T23:59:00-12:00", ...over });
const task = (over: Record<string, unknown> = {}) => ({ slug: "crac-2025", title: "CRAC 2025", phases: [phase()], ...over });

/** The field errors `parseInput` reports for `input`. */
function fieldErrors(schema: Parameters<typeof parseInput>[0], input: unknown): { path: string; message: string }[] {
  try {
    parseInput(schema, input);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).httpStatus).toBe(422);
    return (error as ValidationError).fieldErrors;
  }
  throw new Error("expected a ValidationError");
}

describe("metric names", () => {
  it("are the scorer's metrics plus the derived conll", () => {
    expect([...LEADERBOARD_METRICS].sort()).toEqual([...METRICS, ...OPTIONAL_METRICS, "conll"].sort());
  });
});

describe("time zones", () => {
  it("accepts IANA names, UTC and AoE, and rejects unknown names", () => {
    for (const z of ["UTC", "Europe/Prague", "America/New_York", "AoE"]) expect(isValidTimeZone(z)).toBe(true);
    for (const z of ["Mars/Olympus", "", "aoe ", "GMT+99"]) expect(isValidTimeZone(z)).toBe(false);
  });

  it("reads wall-clock times in a zone: AoE is UTC−12, Prague follows DST", () => {
    expect(localDateTimeToUtc("2025-03-01T23:59", "AoE").toISOString()).toBe("2025-03-02T11:59:00.000Z");
    expect(localDateTimeToUtc("2025-01-15T10:00", "Europe/Prague").toISOString()).toBe("2025-01-15T09:00:00.000Z");
    expect(localDateTimeToUtc("2025-07-15T10:00", "Europe/Prague").toISOString()).toBe("2025-07-15T08:00:00.000Z");
    expect(() => localDateTimeToUtc("2025-02-30T10:00", "UTC")).toThrow(RangeError);
    expect(() => localDateTimeToUtc("tomorrow", "UTC")).toThrow(RangeError);
  });

  it("formats an instant in the display zone with its offset", () => {
    expect(formatInZone(new Date("2025-03-02T11:59:00Z"), "AoE")).toBe("2025-03-01 23:59 AoE (UTC−12:00)");
    expect(formatInZone(new Date("2025-01-15T09:00:00Z"), "Europe/Prague")).toBe("2025-01-15 10:00 Europe/Prague (UTC+01:00)");
  });
});

describe("createTaskSchema", () => {
  it("applies defaults and converts times to UTC instants", () => {
    const t = parseInput(createTaskSchema, task());
    expect(t).toMatchObject({ primaryMetric: "conll", description: "", dataLicense: null, dataSource: null });
    expect(t.phases[0]).toMatchObject({ displayTimeZone: "UTC", dailyLimit: null, totalLimit: null, leaderboardVisibility: "PUBLIC", selectionRule: "BEST", participantAnalysis: "NONE", teamDocumentScores: false });
    expect(t.phases[0].closesAt.toISOString()).toBe("2025-03-11T11:59:00.000Z");
  });

  it("reports each bad field with its path", () => {
    const errors = fieldErrors(
      createTaskSchema,
      task({
        slug: "Bad Slug",
        primaryMetric: "f1",
        phases: [phase({ closesAt: "2025-02-01T00:00:00Z", displayTimeZone: "Nowhere/City", dailyLimit: 0 }), phase({ opensAt: "2025-03-01 00:00" })],
      }),
    );
    const paths = errors.map((e) => e.path);
    expect(paths).toEqual(expect.arrayContaining(["slug", "primaryMetric", "phases.0.displayTimeZone", "phases.0.dailyLimit", "phases.1.opensAt"]));
    expect(errors.find((e) => e.path === "slug")?.message).toMatch(/lower-case/);
  });

  it("rejects a phase that closes before it opens, duplicate phase names and no phases", () => {
    expect(fieldErrors(createTaskSchema, task({ phases: [phase({ closesAt: "2025-03-01T00:00:00Z" })] })).map((e) => e.path)).toEqual(["phases.0.closesAt"]);
    expect(fieldErrors(createTaskSchema, task({ phases: [phase(), phase()] })).map((e) => e.path)).toEqual(["phases.1.name"]);
    expect(fieldErrors(createTaskSchema, task({ phases: [] })).map((e) => e.path)).toEqual(["phases"]);
  });

  it("accepts every leaderboard metric as primary metric", () => {
    for (const m of LEADERBOARD_METRICS) expect(parseInput(createTaskSchema, task({ primaryMetric: m })).primaryMetric).toBe(m);
  });
});

describe("phasePatchSchema", () => {
  it("keeps absent fields absent (no defaults) and lets null clear a limit", () => {
    expect(parseInput(phasePatchSchema, { name: "dev" })).toEqual({ name: "dev" });
    expect(parseInput(phasePatchSchema, { dailyLimit: null })).toEqual({ dailyLimit: null });
    expect(fieldErrors(phasePatchSchema, { colour: "red" })[0].message).toMatch(/colour/);
  });

  it("takes the participant analysis level (NONE, TEAMS, PUBLIC) and the team per-document switch; the old boolean is refused", () => {
    expect(parseInput(phasePatchSchema, { participantAnalysis: "TEAMS", teamDocumentScores: true })).toEqual({ participantAnalysis: "TEAMS", teamDocumentScores: true });
    expect(fieldErrors(phasePatchSchema, { participantAnalysis: "EVERYONE" }).map((e) => e.path)).toEqual(["participantAnalysis"]);
    expect(fieldErrors(phasePatchSchema, { participantAnalysis: true }).map((e) => e.path)).toEqual(["participantAnalysis"]);
    expect(fieldErrors(phasePatchSchema, { teamDocumentScores: "yes" }).map((e) => e.path)).toEqual(["teamDocumentScores"]);
    expect(fieldErrors(phasePatchSchema, { allowParticipantAnalysis: true })[0].message).toMatch(/allowParticipantAnalysis/);
  });
});

describe("submissionMetadataSchema", () => {
  it("trims, defaults, and turns empty optional fields into null", () => {
    expect(parseInput(submissionMetadataSchema, { systemName: "  my sys ", paperUrl: "", team: "" })).toEqual({
      systemName: "my sys",
      description: "",
      paperUrl: null,
      codeUrl: null,
      team: null,
      isBaseline: false,
      visibility: "PUBLIC",
    });
  });

  it("rejects a missing system name and non-http URLs", () => {
    expect(fieldErrors(submissionMetadataSchema, { systemName: " ", codeUrl: "javascript:alert(1)" }).map((e) => e.path).sort()).toEqual(["codeUrl", "systemName"]);
  });
});

describe("joinCodeSchema and leaderboardQuerySchema", () => {
  it("normalizes join codes and rejects malformed ones", () => {
    expect(joinCodeSchema.parse(" abcd-efgh ijkl-mnop ")).toBe("ABCDEFGHIJKLMNOP");
    expect(joinCodeSchema.safeParse("ABCD-EFGH").success).toBe(false);
    expect(joinCodeSchema.safeParse("ABCD-EFGH-IJKL-MNO1").success).toBe(false);
  });

  it("reads metric and allRuns from a query", () => {
    expect(leaderboardQuerySchema.parse({ metric: "muc", allRuns: "1" })).toEqual({ metric: "muc", allRuns: true });
    expect(leaderboardQuerySchema.parse({})).toEqual({ allRuns: false });
    expect(leaderboardQuerySchema.safeParse({ metric: "accuracy" }).success).toBe(false);
  });
});

describe("errors", () => {
  it("carry a code, an HTTP status and JSON details", () => {
    const closed = new PhaseClosedError("closed", { opensAt: "a", closesAt: "b" });
    expect([closed.code, closed.httpStatus]).toEqual(["phase_closed", 409]);
    expect(new QuotaExceededError("q", { limit: "daily" }).httpStatus).toBe(429);
    const big = new TooLargeError("big", { maxBytes: 1, size: 2 });
    expect(errorResponseBody(big)).toEqual({ status: 413, body: { error: { code: "too_large", message: "big", maxBytes: 1, size: 2 } } });
    const v = new ValidationError("bad file", { formatErrors: [{ file: "f", line: 3, column: 2, expected: "x", found: "y", message: "m" }] });
    expect(v.toJSON().error.formatErrors).toEqual([{ file: "f", line: 3, column: 2, expected: "x", found: "y", message: "m" }]);
    expect(v).toBeInstanceOf(DomainError);
  });

  it("hide anything that is not a domain error behind a generic 500", () => {
    const answer = errorResponseBody(new Error("connection string postgres://secret"));
    expect(answer.status).toBe(500);
    expect(JSON.stringify(answer.body)).not.toMatch(/secret/);
  });
});

describe("parseInput and NUL characters", () => {
  it("refuses a NUL in any parsed string with a 422 naming the field (PostgreSQL would refuse it with a 500)", () => {
    const ok = parseInput(submissionMetadataSchema, { systemName: "system", description: "fine" }, "submission");
    expect(ok.systemName).toBe("system");
    let error: unknown;
    try {
      parseInput(submissionMetadataSchema, { systemName: "sys\u0000tem", description: "a\u0000b" }, "submission");
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).fieldErrors).toEqual([
      { path: "systemName", message: "must not contain NUL characters" },
      { path: "description", message: "must not contain NUL characters" },
    ]);
  });
});
