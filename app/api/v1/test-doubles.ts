/**
 * The test doubles that app/api/v1/test-doubles.setup.ts mocks `next/cache`, `next/navigation`,
 * the mail and password modules and argon2 with: one instance each per worker. The setup file
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

/** Resolves once per key: a double built from the real module, the same object for every file of the worker. */
const built = new Map<string, Promise<unknown>>();
function once<T>(key: string, build: () => Promise<T>): Promise<T> {
  if (!built.has(key)) built.set(key, build());
  return built.get(key) as Promise<T>;
}

/** `lib/accounts/mail.ts` as it is (it logs each mail, and appends it to `MAIL_OUTBOX_FILE` when set), with `sendMail` watched. */
export function mailDouble(importOriginal: () => Promise<typeof import("@/lib/accounts/mail")>) {
  return once("mail", async () => {
    const actual = await importOriginal();
    return { ...actual, sendMail: vi.fn(actual.sendMail) };
  });
}

/** `lib/accounts/password.ts` as it is, with `hashPassword` watched (one hash per sign-up, known address or not). */
export function passwordDouble(importOriginal: () => Promise<typeof import("@/lib/accounts/password")>) {
  return once("password", async () => {
    const actual = await importOriginal();
    return { ...actual, hashPassword: vi.fn(actual.hashPassword) };
  });
}

/** `@node-rs/argon2` with its checks counted (`argon2Calls` of lib/accounts/test-argon2.ts). */
export function argon2Double(importOriginal: <T>() => Promise<T>) {
  return once("argon2", async () => (await import("@/lib/accounts/test-argon2")).countingArgon2(importOriginal));
}
