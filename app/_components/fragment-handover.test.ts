import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { handedOverFragment, handOverFragment, PIN_MS } from "./fragment-handover";

describe("handOverFragment / handedOverFragment", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(1_000_000);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("gives the handed-over text back under its id, to any number of reads, and null for an unknown id", () => {
    handOverFragment("t-a", "<table>a</table>");
    expect(handedOverFragment("t-a")).toBe("<table>a</table>");
    expect(handedOverFragment("t-a")).toBe("<table>a</table>");
    expect(handedOverFragment("t-unknown")).toBeNull();
  });

  it("lets a fragment go once PIN_MS has passed since its latest handover", () => {
    handOverFragment("t-old", "<table>old</table>");
    vi.setSystemTime(1_000_000 + PIN_MS / 2);
    handOverFragment("t-old", "<table>old</table>"); // handed over again: kept from then
    // Just past PIN_MS after the first handover: kept, as handed over again since.
    vi.setSystemTime(1_000_000 + PIN_MS + 1);
    expect(handedOverFragment("t-old")).toBe("<table>old</table>");
    vi.setSystemTime(1_000_000 + PIN_MS / 2 + PIN_MS + 1);
    expect(handedOverFragment("t-old")).toBeNull();
  });

  it("keeps at most 64, the oldest handovers going first, whatever their age", () => {
    for (let i = 0; i < 70; i++) handOverFragment(`t-${i}`, `html ${i}`);
    expect(handedOverFragment("t-5")).toBeNull();
    expect(handedOverFragment("t-6")).toBe("html 6");
    expect(handedOverFragment("t-69")).toBe("html 69");
  });

  it("is one store for every copy of the module: it lives on globalThis", () => {
    handOverFragment("t-shared", "shared");
    const store = (globalThis as unknown as Record<symbol, { get(id: string): string | undefined }>)[Symbol.for("corefboard.fragmentHandover")];
    expect(store?.get("t-shared")).toBe("shared");
  });
});
