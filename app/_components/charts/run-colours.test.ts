import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { Symbols } from "recharts";
import { describe, expect, it } from "vitest";
import { contrastRatio, REFERENCE_COLOUR, REFERENCE_HEX, REFERENCE_HEX_DARK, RUN_PALETTE, RUN_PALETTE_DARK, RUN_SHAPES, runStyle, runStyles, SERIES_COLOUR, SWATCH_PATHS, SWATCH_SIZE } from "./run-colours";

describe("the markers' paths", () => {
  it("are what recharts' Symbols draws for each shape at the swatch size, to the hundredth of a pixel", () => {
    // Every number rounded to 2 decimals (-0 written 0); the commands and their order unchanged.
    const rounded = (d: string) => d.replace(/-?\d+(?:\.\d+)?(?:e[-+]?\d+)?/g, (n) => String(Math.round(Number(n) * 100) / 100 || 0));
    for (const shape of RUN_SHAPES) {
      const drawn = renderToStaticMarkup(createElement(Symbols, { cx: 0, cy: 0, type: shape, size: SWATCH_SIZE }));
      expect(rounded(/ d="([^"]+)"/.exec(drawn)![1]!), shape).toBe(SWATCH_PATHS[shape]);
    }
  });
});

describe("contrastRatio", () => {
  it("gives WCAG's ratios for known pairs", () => {
    expect(contrastRatio("#000000", "#ffffff")).toBeCloseTo(21, 6);
    expect(contrastRatio("#ffffff", "#ffffff")).toBe(1);
    // #767676 is the lightest grey with 4.5:1 on white; #777777 just misses it.
    expect(contrastRatio("#767676", "#FFFFFF")).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio("#777777", "#ffffff")).toBeLessThan(4.5);
    // Symmetric.
    expect(contrastRatio("#ffffff", "#0072B2")).toBe(contrastRatio("#0072B2", "#ffffff"));
  });

  it("refuses what is not #rrggbb", () => {
    expect(() => contrastRatio("red", "#ffffff")).toThrow(RangeError);
  });
});

describe("the run palette", () => {
  it("has 8 different colours, each with at least 3:1 contrast on white (WCAG 1.4.11)", () => {
    expect(new Set(RUN_PALETTE.map((c) => c.toLowerCase())).size).toBe(RUN_PALETTE.length);
    expect(RUN_PALETTE.length).toBe(8);
    for (const colour of [...RUN_PALETTE, REFERENCE_HEX]) expect(contrastRatio(colour, "#ffffff"), colour).toBeGreaterThanOrEqual(3);
  });

  it("has a dark-mode colour for each position, 8 different ones, none the light palette's stand-ins for the Okabe–Ito colours too light on white", () => {
    // Their contrast against the dark surface: app/theme-contrast.test.ts (which resolves the surface from app/globals.css).
    expect(RUN_PALETTE_DARK.length).toBe(RUN_PALETTE.length);
    expect(new Set(RUN_PALETTE_DARK.map((c) => c.toLowerCase())).size).toBe(RUN_PALETTE_DARK.length);
    for (const colour of [...RUN_PALETTE_DARK, REFERENCE_HEX_DARK]) expect(colour).toMatch(/^#[0-9a-f]{6}$/i);
    expect(RUN_PALETTE_DARK.map((c) => c.toLowerCase())).toEqual(expect.arrayContaining(["#e69f00", "#56b4e9", "#f0e442"]));
  });

  it("gives series and reference lines CSS variables, the same in every chart", () => {
    expect(SERIES_COLOUR).toBe("var(--run-colour-0)");
    expect(REFERENCE_COLOUR).toBe("var(--run-colour-reference)");
  });

  it("leaves out the Okabe–Ito colours that are too light on white", () => {
    for (const light of ["#E69F00", "#56B4E9", "#F0E442"]) {
      expect(contrastRatio(light, "#ffffff")).toBeLessThan(3);
      expect(RUN_PALETTE.map((c) => c.toLowerCase())).not.toContain(light.toLowerCase());
    }
  });
});

describe("runStyle", () => {
  it("cycles colours by 8 and shapes by 7, so the first 56 runs all look different", () => {
    expect(runStyle(0)).toEqual({ position: 0, colour: "var(--run-colour-0)", shape: RUN_SHAPES[0] });
    expect(runStyle(9)).toEqual({ position: 9, colour: "var(--run-colour-1)", shape: RUN_SHAPES[2] });
    expect(runStyle(15).colour).toBe("var(--run-colour-7)");
    const looks = new Set(Array.from({ length: 56 }, (_, i) => `${runStyle(i).colour}/${runStyle(i).shape}`));
    expect(looks.size).toBe(56);
    expect(`${runStyle(56).colour}/${runStyle(56).shape}`).toBe(`${runStyle(0).colour}/${runStyle(0).shape}`);
  });

  it("refuses negative and fractional positions", () => {
    expect(() => runStyle(-1)).toThrow(RangeError);
    expect(() => runStyle(1.5)).toThrow(RangeError);
  });
});

describe("runStyles", () => {
  it("gives each run the style of its board position, looked up by id", () => {
    const ids = ["run-c", "run-a", "run-b"];
    const styles = runStyles(ids);
    expect([...styles.keys()]).toEqual(ids);
    ids.forEach((id, i) => expect(styles.get(id)).toEqual(runStyle(i)));
  });

  it("is the same for every chart of a page: a chart that leaves runs out still finds each run's colour", () => {
    const ids = Array.from({ length: 50 }, (_, i) => `run-${i}`);
    const bars = runStyles(ids);
    const scatter = runStyles(ids);
    // The scatter draws only some runs, in another order: each keeps the bar chart's colour.
    for (const id of ["run-7", "run-3", "run-42"]) expect(scatter.get(id)).toEqual(bars.get(id));
    expect(bars.get("run-3")!.colour).not.toBe(bars.get("run-7")!.colour);
  });

  it("keeps a repeated id at its first position and does not skip a colour for it", () => {
    const styles = runStyles(["x", "y", "x", "z"]);
    expect(styles.size).toBe(3);
    expect(styles.get("x")!.position).toBe(0);
    expect(styles.get("z")).toEqual(runStyle(2));
  });
});
