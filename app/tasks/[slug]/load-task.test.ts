/**
 * `loadTaskForPage` answers not-found for a segment that cannot be a slug, before asking the
 * database (which refuses a NUL in text: a 500 instead of a 404). No database runs here: a
 * lookup would fail the test with a connection error instead of Next's not-found signal.
 */
import { describe, expect, it } from "vitest";
import { loadTaskForPage } from "./load-task";

/** What `notFound()` throws: an error whose digest Next reads as a 404. */
async function notFoundDigest(slug: string): Promise<string | undefined> {
  try {
    await loadTaskForPage(slug);
  } catch (error) {
    return (error as { digest?: string }).digest;
  }
  return "(no error)";
}

describe("loadTaskForPage", () => {
  it.each(["a\u0000b", "\u0000", "Upper-Case", "two--hyphens", "-edge", "spa ce", "é", "a/b", ""])("answers not-found for %j without a lookup", async (slug) => {
    expect(await notFoundDigest(slug)).toMatch(/^NEXT_HTTP_ERROR_FALLBACK;404$/);
  });
});
