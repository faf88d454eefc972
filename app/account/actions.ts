"use server";

import { revalidatePath } from "next/cache";
import { createApiToken, revokeApiToken } from "../../lib/auth/api-tokens";
import { RateLimitedError } from "../../lib/errors";
import { getCurrentUser } from "../../lib/session";
import { UserInputError, changePassword, revokeSessions } from "../../lib/services/users";

/** State of the create-token form. `token` is the plaintext, present once after creation. */
export type CreateTokenState =
  | { status: "idle" }
  | { status: "created"; name: string; token: string }
  | { status: "error"; message: string };

/**
 * Creates an API token for the signed-in user (form field `name`).
 *
 * @returns the plaintext token to show once, or an error message
 */
export async function createTokenAction(_previous: CreateTokenState, formData: FormData): Promise<CreateTokenState> {
  const user = await getCurrentUser();
  if (!user) return { status: "error", message: "Your session has ended. Please sign in again." };
  const name = formData.get("name");
  try {
    const { token, info } = await createApiToken(user.id, typeof name === "string" ? name : "");
    revalidatePath("/account");
    return { status: "created", name: info.name, token };
  } catch (error) {
    if (error instanceof UserInputError) return { status: "error", message: error.message };
    console.error("creating an API token failed", error);
    return { status: "error", message: "Something went wrong on our side. Please try again." };
  }
}

/**
 * Revokes one of the signed-in user's tokens (form field `tokenId`). Tokens of other users
 * are never touched.
 */
export async function revokeTokenAction(formData: FormData): Promise<void> {
  const user = await getCurrentUser();
  if (!user) return;
  const tokenId = formData.get("tokenId");
  if (typeof tokenId !== "string") return;
  await revokeApiToken(user.id, tokenId);
  revalidatePath("/account");
}

/** Result of {@link changePasswordAction}: done, or a message per field (`form` for the rest). */
export type ChangePasswordResult = { ok: true } | { ok: false; errors: Record<string, string> };

/**
 * Changes the signed-in user's password (fields `currentPassword`, `newPassword`,
 * `confirmPassword`). Every session of the user ends, this one too: the form then signs this
 * browser in again with the new password.
 *
 * @returns `{ok: true}`, or the message for each bad field; `form` holds a rate-limit refusal
 *   ("… Try again at 14:05 (UTC).") or any other problem
 */
export async function changePasswordAction(formData: FormData): Promise<ChangePasswordResult> {
  const user = await getCurrentUser();
  if (!user) return { ok: false, errors: { form: "Your session has ended. Please sign in again." } };
  const field = (key: string) => {
    const value = formData.get(key);
    return typeof value === "string" ? value : "";
  };
  try {
    await changePassword(user.id, {
      currentPassword: field("currentPassword"),
      newPassword: field("newPassword"),
      confirmPassword: field("confirmPassword"),
    });
    return { ok: true };
  } catch (error) {
    if (error instanceof UserInputError) return { ok: false, errors: error.fields };
    if (error instanceof RateLimitedError) return { ok: false, errors: { form: error.message } };
    console.error("changing a password failed", error);
    return { ok: false, errors: { form: "Something went wrong on our side. Please try again." } };
  }
}

/**
 * "Sign out everywhere": ends every session of the signed-in user, on every device, this one
 * included (the button then clears this browser's cookie through next-auth's sign-out). API
 * tokens keep working.
 *
 * @returns true when the sessions were ended; false when nobody is signed in
 */
export async function signOutEverywhereAction(): Promise<boolean> {
  const user = await getCurrentUser();
  if (!user) return false;
  return revokeSessions(user.id);
}
