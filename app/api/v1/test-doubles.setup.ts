/**
 * The test doubles of the `site-app` Vitest project (vitest.config.ts): the test files that run
 * the app's server code outside Next (route handlers, server actions, pages, and the account
 * services that mail and hash passwords), and say so with the line
 * `// Vitest project: site-app` (`APP_DOUBLES_MARKER` there). Each of those files once declared
 * its own subset of these mocks and got fresh modules (the `site-isolated` project); with one
 * set for all of them they share module instances in a worker, and Prisma, next-auth, Next's
 * server and the scorer are imported once per worker instead of once per file. Each double
 * behaves as the narrower ones it replaces did where those were defined:
 *
 * - `lib/queue.ts`: its test double (`lib/__mocks__/queue.ts`: `enqueueScoring` and
 *   `enqueueSignificance` `vi.fn`s doing nothing; no pg-boss in these tests);
 * - `next/headers`: `nextHeadersDouble` of ./test-helpers.ts (the cookies of the request being
 *   handled, and headers without `X-Forwarded-For`);
 * - `next/cache`: `revalidatePath`, `revalidateTag`, `updateTag` and `refresh` are `vi.fn`s (no
 *   page cache outside Next);
 * - `next/navigation`: the real module, with a `useRouter()` whose methods do nothing (client
 *   components ask for the app router, which only Next mounts);
 * - `lib/accounts/mail.ts`, `lib/accounts/password.ts` and `@node-rs/argon2`: the real modules,
 *   with `sendMail` and `hashPassword` watched (`vi.fn`s calling them) and argon2's checks
 *   counted (lib/accounts/test-argon2.ts): what the account services' tests assert on.
 *
 * The `vi.fn`s are made once per worker (./test-doubles.ts, lib/__mocks__/queue.ts):
 * this file runs again before each test file, and a module an earlier file imported keeps the
 * doubles it was given. The project clears their calls before each test (`clearMocks`) and
 * undoes `vi.stubEnv` after each (`unstubEnvs`); a file must change no other shared state.
 */
import { vi } from "vitest";

vi.mock("@/lib/queue");
vi.mock("next/headers", async () => (await import("./test-helpers")).nextHeadersDouble);
vi.mock("next/cache", async () => (await import("./test-doubles")).nextCacheDouble);
vi.mock("@/lib/accounts/mail", async (importOriginal) => (await import("./test-doubles")).mailDouble(importOriginal));
vi.mock("@/lib/accounts/password", async (importOriginal) => (await import("./test-doubles")).passwordDouble(importOriginal));
vi.mock("@node-rs/argon2", async (importOriginal) => (await import("./test-doubles")).argon2Double(importOriginal));
vi.mock("next/navigation", async (original) => {
  const { routerDouble } = await import("./test-doubles");
  return { ...(await original<typeof import("next/navigation")>()), useRouter: () => routerDouble };
});
