import { describe, expect, it } from "vitest";
import { oneAtATime } from "./upkeep";

describe("oneAtATime", () => {
  it("gives a call during a pass that pass, and starts a new one once it has ended", async () => {
    let passes = 0;
    let release!: () => void;
    const task = oneAtATime(() => {
      passes++;
      return new Promise<void>((resolve) => (release = resolve));
    });
    expect(task.current()).toBeUndefined();
    const first = task.run();
    expect(task.run()).toBe(first);
    expect(task.current()).toBe(first);
    expect(passes).toBe(1);
    release();
    await first;
    expect(task.current()).toBeUndefined();
    const second = task.run();
    expect(second).not.toBe(first);
    expect(passes).toBe(2);
    release();
    await second;
  });
});
