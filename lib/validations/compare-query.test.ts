import { describe, expect, it } from "vitest";
import { ValidationError } from "../errors";
import { compareApiQuerySchema, MAX_COMPARE_SAMPLES, parseCompareQuery } from "./compare-query";
import { parseInput } from "./parse";

describe("parseCompareQuery (the page)", () => {
  it("takes the runs, the phase and the samples, trimmed, the first of repeated values", () => {
    expect(parseCompareQuery({ a: " x ", b: ["y", "z"], phase: "p", samples: "500" })).toEqual({ a: "x", b: "y", phase: "p", samples: 500 });
  });

  it("treats absent and empty parameters alike", () => {
    expect(parseCompareQuery({})).toEqual({ a: undefined, b: undefined, phase: undefined, samples: undefined });
    expect(parseCompareQuery({ a: "", b: "  ", phase: "" })).toEqual({ a: undefined, b: undefined, phase: undefined, samples: undefined });
  });

  it("refuses bad sample counts with a ValidationError naming the parameter", () => {
    for (const samples of ["0", "abc", String(MAX_COMPARE_SAMPLES + 1), "1.5"]) {
      let error: unknown;
      try {
        parseCompareQuery({ samples });
      } catch (e) {
        error = e;
      }
      expect(error, samples).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).message).toMatch(/^Invalid query: samples: /);
    }
    expect(parseCompareQuery({ samples: String(MAX_COMPARE_SAMPLES) }).samples).toBe(MAX_COMPARE_SAMPLES);
  });
});

describe("compareApiQuerySchema (the API)", () => {
  it("needs both runs", () => {
    expect(parseInput(compareApiQuerySchema, { a: "x", b: "y" }, "query")).toEqual({ a: "x", b: "y", samples: undefined });
    expect(() => parseInput(compareApiQuerySchema, { a: "x" }, "query")).toThrow("Invalid query: b: required: the second run's id");
    expect(() => parseInput(compareApiQuerySchema, { a: " ", b: "y" }, "query")).toThrow("Invalid query: a: required: the first run's id");
  });

  it("shares the page's rule for samples", () => {
    expect(parseInput(compareApiQuerySchema, { a: "x", b: "y", samples: "10" }, "query").samples).toBe(10);
    expect(() => parseInput(compareApiQuerySchema, { a: "x", b: "y", samples: "10001" }, "query")).toThrow("samples: must be at most 10,000");
  });
});
