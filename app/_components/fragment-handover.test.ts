import { describe, expect, it } from "vitest";
import { handedOverFragment, handOverFragment, PIN_MS } from "./fragment-handover";

describe("handOverFragment / handedOverFragment", () => {
  it("gives the handed-over text back under its id, to any number of reads, and null for an unknown id", () => {
    handOverFragment("t-a", "<table>a</table>", 1_000);
    expect(handedOverFragment("t-a")).toBe("<table>a</table>");
    expect(handedOverFragment("t-a")).toBe("<table>a</table>");
    expect(handedOverFragment("t-unknown")).toBeNull();
  });

  it("lets a fragment go once PIN_MS has passed since its latest handover", () => {
    handOverFragment("t-old", "<table>old</table>", 10_000);
    handOverFragment("t-old", "<table>old</table>", 10_000 + PIN_MS / 2); // handed over again: kept from then
    handOverFragment("t-other", "x", 10_000 + PIN_MS);
    expect(handedOverFragment("t-old")).toBe("<table>old</table>");
    handOverFragment("t-other", "x", 10_000 + PIN_MS / 2 + PIN_MS);
    expect(handedOverFragment("t-old")).toBeNull();
  });

  it("keeps at most 64, the oldest handovers going first, whatever their age", () => {
    const now = 1_000_000;
    for (let i = 0; i < 70; i++) handOverFragment(`t-${i}`, `html ${i}`, now);
    expect(handedOverFragment("t-5")).toBeNull();
    expect(handedOverFragment("t-6")).toBe("html 6");
    expect(handedOverFragment("t-69")).toBe("html 69");
  });

  it("is one store for every copy of the module: it lives on globalThis", () => {
    handOverFragment("t-shared", "shared", 2_000_000);
    const store = (globalThis as unknown as Record<symbol, Map<string, { html: string }>>)[Symbol.for("corefboard.fragmentHandover")];
    expect(store?.get("t-shared")?.html).toBe("shared");
  });
});
