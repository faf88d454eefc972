/**
 * A signed-in visitor of the sign-in or sign-up page goes straight on to the callbackUrl
 * (issue 23 F9): whatever the callbackUrl, the page answers a redirect (Next's `redirect()`,
 * a 307) to a same-site path that Node accepts in a Location header, never a 500 from an
 * invalid header. The pages are called as Next calls them, with a real session cookie; the
 * redirect is read from the error Next's `redirect()` throws (its digest carries the target).
 */
import { validateHeaderValue } from "node:http";
import { describe, expect, it, vi } from "vitest";

// Vitest project: site-app (its test doubles: app/api/v1/test-doubles.setup.ts).

import { useTestDatabase } from "@/lib/db/test-db";
import { makeUser } from "@/lib/tasks/test-fixtures";
import { sessionCookie, withCookies } from "../../api/v1/test-helpers";
import SignUpPage from "../signup/page";
import SignInPage from "./page";

const testDb = useTestDatabase();

/** The redirect a page answers: status and Location, from the error `redirect()` throws. */
async function redirectOf(page: typeof SignInPage, cookie: string, callbackUrl: string): Promise<{ status: number; location: string }> {
  const error = await withCookies(cookie, () => page({ searchParams: Promise.resolve({ callbackUrl }) })).then(
    () => null,
    (e: unknown) => e as { digest?: string },
  );
  const digest = error?.digest ?? "";
  const match = /^NEXT_REDIRECT;(?:replace|push);(.*);(\d{3});$/s.exec(digest);
  if (!match) throw new Error(`no redirect: ${String(error)}`);
  return { location: match[1]!, status: Number(match[2]) };
}

describe("sign-in and sign-up pages with a hostile callbackUrl, signed in", () => {
  it.each([
    ["/tasks?x=\u2028", "/"],
    ["/。evil", "/"],
    ["https://evil.example/", "/"],
    ["//evil.example", "/"],
    ["/\\evil.example", "/"],
    ["/／evil.example", "/"],
    ["/tasks/東京", "/tasks/%E6%9D%B1%E4%BA%AC"],
    ["/account?tab=tokens", "/account?tab=tokens"],
  ])("%j redirects (3xx) to %j, a valid Location", async (callbackUrl, expected) => {
    const user = await makeUser(testDb.prisma, "Signed In Visitor");
    const cookie = await sessionCookie(testDb.prisma, user.id);
    for (const [page, fallback] of [
      [SignInPage, "/"],
      [SignUpPage, "/account"],
    ] as const) {
      const { status, location } = await redirectOf(page, cookie, callbackUrl);
      expect(status).toBeGreaterThanOrEqual(300);
      expect(status).toBeLessThan(400);
      expect(location).toBe(expected === "/" ? fallback : expected);
      expect(() => validateHeaderValue("location", location)).not.toThrow();
    }
  });
});
