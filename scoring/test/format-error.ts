/** A test helper shared by the format readers' tests. */
import { expect } from "vitest";
import { FormatError } from "../types.js";

/**
 * Runs `run`, which must throw a `FormatError`, and returns that error for closer checks.
 * Fails the test when `run` throws anything else or returns normally.
 */
export function formatError(run: () => unknown): FormatError {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(FormatError);
    return err as FormatError;
  }
  throw new Error("expected a FormatError, nothing was thrown");
}
