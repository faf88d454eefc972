/**
 * The test doubles that app/api/v1/test-doubles.setup.ts mocks `next/cache`, `next/navigation`
 * and `lib/queue.ts`'s `enqueueSignificance` with: one instance each per worker. The setup file
 * runs again before every test file of the `site-app` project, whose files share module
 * instances: a module imported by an earlier file keeps the doubles it was given, so every file
 * must be given the same ones (this module, imported once per worker), or a file would assert
 * on a `vi.fn` that the code under test never calls.
 */
import { vi } from "vitest";

/** `next/cache`: no page cache outside Next. */
export const nextCacheDouble = { revalidatePath: vi.fn(), revalidateTag: vi.fn(), updateTag: vi.fn(), refresh: vi.fn() };

/** `useRouter()` of `next/navigation`: the app router only Next mounts, whose methods do nothing here. */
export const routerDouble = { refresh: () => {}, push: () => {}, replace: () => {}, back: () => {}, forward: () => {}, prefetch: () => {} };

/** `lib/queue.ts`'s `enqueueSignificance`: no pg-boss in these tests. */
export const enqueueSignificanceDouble = vi.fn(async () => {});
