import { describe, expect, it } from "vitest";
import { BAR_CHART_CHROME, BAR_ROW_HEIGHT, barChartHeight, labelColumn, percentAxis, percentNumber, percentProse, truncateLabel } from "./chart-layout";

describe("percentages", () => {
  it("writes 2 decimals, with the % sign only in prose", () => {
    expect(percentNumber(0.78123)).toBe("78.12");
    expect(percentNumber(1)).toBe("100.00");
    expect(percentProse(0.5)).toBe("50.00 %");
  });
});

describe("percentAxis", () => {
  it("zooms to the values with round ticks inside 0–100", () => {
    const axis = percentAxis([61.2, 64.9]);
    expect(axis.domain[0]).toBeLessThanOrEqual(61.2);
    expect(axis.domain[1]).toBeGreaterThanOrEqual(64.9);
    expect(axis.ticks[0]).toBe(axis.domain[0]);
    expect(axis.ticks.at(-1)).toBe(axis.domain[1]);
    expect(axis.ticks.length).toBeLessThanOrEqual(8);
    expect(percentAxis([99.5]).domain[1]).toBe(100);
    expect(percentAxis([]).ticks).toEqual([0, 20, 40, 60, 80, 100]);
  });
});

describe("the bar chart's layout", () => {
  it("grows by one row per run, so 50 labels never overlap", () => {
    expect(barChartHeight(50)).toBe(BAR_CHART_CHROME + 50 * BAR_ROW_HEIGHT);
    expect(barChartHeight(50) - barChartHeight(49)).toBe(BAR_ROW_HEIGHT);
    expect(BAR_ROW_HEIGHT).toBeGreaterThanOrEqual(12 + 8);
    expect(barChartHeight(0)).toBe(barChartHeight(1));
  });

  it("gives the labels 40 % of the width, 96 to 240 px, no more than the longest needs", () => {
    const long = ["A team with a very long name indeed · system-number-one"];
    expect(labelColumn(390, long).width).toBe(156);
    expect(labelColumn(0, long).width).toBe(96);
    expect(labelColumn(2000, long).width).toBe(240);
    expect(labelColumn(2000, ["ab"]).width).toBeLessThan(40);
    const { width, maxChars } = labelColumn(390, long);
    expect(maxChars * 6.6).toBeLessThanOrEqual(width - 12);
  });

  it("cuts long labels with an ellipsis and keeps short ones whole", () => {
    expect(truncateLabel("Team Alpha · sys", 40)).toBe("Team Alpha · sys");
    const cut = truncateLabel("Team Alpha · a-very-long-system-name", 12);
    expect(cut).toBe("Team Alpha…");
    expect(Array.from(cut).length).toBeLessThanOrEqual(12);
  });
});
