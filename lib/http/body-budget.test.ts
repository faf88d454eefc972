import { describe, expect, it } from "vitest";
import { BodyBudget, uploadBodyBudget, withBodyBudget } from "./body-budget";
import { ServiceBusyError } from "../errors";

describe("BodyBudget", () => {
  it("grants reservations up to the total, refuses past it with 503 and a retry hint, and takes released bytes back", () => {
    const budget = new BodyBudget(100, 7);
    const a = budget.reserve(60);
    const b = budget.reserve(40);
    expect(budget.reserved).toBe(100);
    let refused: unknown;
    try {
      budget.reserve(1);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(ServiceBusyError);
    expect((refused as ServiceBusyError).httpStatus).toBe(503);
    expect((refused as ServiceBusyError).details).toEqual({ retryAfterSeconds: 7 });
    a();
    a(); // a second release gives nothing back twice
    expect(budget.reserved).toBe(40);
    budget.reserve(60)();
    b();
    expect(budget.reserved).toBe(0);
  });

  it("grants one reservation larger than the budget when nothing else is held", () => {
    const budget = new BodyBudget(100);
    const release = budget.reserve(150);
    expect(() => budget.reserve(1)).toThrow(ServiceBusyError);
    release();
    expect(budget.reserved).toBe(0);
  });

  it("refuses a budget that is not positive", () => {
    expect(() => new BodyBudget(0)).toThrow(RangeError);
  });
});

describe("withBodyBudget", () => {
  it("releases the reservation when the work succeeds and when it throws", async () => {
    const budget = new BodyBudget(100);
    await expect(withBodyBudget(budget, 80, async () => budget.reserved)).resolves.toBe(80);
    expect(budget.reserved).toBe(0);
    await expect(
      withBodyBudget(budget, 80, async () => {
        throw new Error("client went away");
      }),
    ).rejects.toThrow("client went away");
    expect(budget.reserved).toBe(0);
  });

  it("does not run the work when the reservation does not fit", async () => {
    const budget = new BodyBudget(100);
    const held = budget.reserve(90);
    let ran = false;
    await expect(withBodyBudget(budget, 20, async () => (ran = true))).rejects.toBeInstanceOf(ServiceBusyError);
    expect(ran).toBe(false);
    held();
  });
});

describe("uploadBodyBudget", () => {
  it("is one shared budget of three bodies at the limit", () => {
    expect(uploadBodyBudget(10)).toBe(uploadBodyBudget(10));
    expect(uploadBodyBudget(10).totalBytes).toBe(30);
  });
});
