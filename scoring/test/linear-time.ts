/** A test helper for the readers' hostile-input tests: "this stays linear", judged without a clock's absolute reading. */
import { expect } from "vitest";

/** CPU time (user + system, ms) this process spent in `run`: what it ran itself, whatever else the machine was doing. */
function cpuMs(run: () => unknown): number {
  const before = process.cpuUsage();
  run();
  const spent = process.cpuUsage(before);
  return (spent.user + spent.system) / 1000;
}

/**
 * Expects the work `prepare(n)` sets up to take time linear in `n`: the CPU time of the
 * returned function at `n` against at `n / 8` must grow less than 24 times (linear: 8, less
 * with fixed costs; quadratic: 64). Each size's time is the least of at least 3 runs, and of as
 * many more as fit in 100 ms at that size (up to 50), so that a short run's reading is not one
 * garbage collection's; inputs are prepared outside the measurement.
 *
 * CPU time rather than the wall clock: the scoring tests run at the idle CPU priority beside
 * the resilience suite (scripts/test-all.mjs), where a run may wait for seconds without doing
 * anything; and a ratio measured in the same process rather than a bound in milliseconds, which
 * would depend on the machine. `n / 8` must still be large enough for a quadratic term to show:
 * each caller states the size at which the quadratic version it guards against was slow.
 *
 * @param prepare builds the input for size `n` and returns the work to time (it may check the result)
 * @param n the larger size; `n / 8` (rounded) is the smaller
 */
export function expectLinearTime(prepare: (n: number) => () => unknown, n: number): void {
  const sizes = [Math.round(n / 8), n];
  const [small, large] = sizes.map((size) => {
    let least = Infinity;
    let spent = 0;
    for (let i = 0; i < 50 && (i < 3 || spent < 100); i++) {
      const ms = cpuMs(prepare(size));
      least = Math.min(least, ms);
      spent += ms;
    }
    return least;
  }) as [number, number];
  expect(large / Math.max(small, 0.001), `CPU time at ${sizes[0]}: ${small.toFixed(2)} ms, at ${sizes[1]}: ${large.toFixed(2)} ms`).toBeLessThan(24);
}
