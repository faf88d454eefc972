"use server";

import { revalidatePath } from "next/cache";
import type { LinkConfirmationState } from "../_components/link-confirmation";
import { RateLimitedError, isDomainError } from "@/lib/errors";
import {
  INVALID_EMAIL_CHANGE_LINK,
  confirmEmailChange,
  createOwnApiToken,
  deleteAccount,
  requestEmailChange,
  revokeOwnApiToken,
  signOutEverywhere,
} from "@/lib/accounts";
import { getCurrentUser, getViewer } from "@/lib/auth/session";
import { UserInputError, changePassword } from "@/lib/accounts";

/**
 * State of the create-token form. `token` is the plaintext, present once after creation;
 * `errors` holds a message per field (`name`, `password`; `form` for the rest) and `name` the
 * name typed, to keep it in the field.
 */
export type CreateTokenState =
  | { status: "idle"; attempt: number }
  | { status: "created"; attempt: number; name: string; token: string }
  | { status: "error"; attempt: number; name: string; errors: Record<string, string> };

/**
 * Creates an API token for the signed-in user (form fields `name`, `password`: the current
 * password). `createOwnApiToken` enforces every rule, the password check included.
 *
 * @returns the plaintext token to show once, or the problem (a wrong password, a bad name, the
 *   sign-in lockout's "Try again at …")
 */
export async function createTokenAction(previous: CreateTokenState, formData: FormData): Promise<CreateTokenState> {
  const attempt = previous.attempt + 1;
  const name = String(formData.get("name") ?? "");
  const viewer = await getViewer();
  if (!viewer) return { status: "error", attempt, name, errors: { form: "Your session has ended. Please sign in again." } };
  try {
    const { token, info } = await createOwnApiToken(viewer, { name, password: String(formData.get("password") ?? "") });
    revalidatePath("/account");
    return { status: "created", attempt, name: info.name, token };
  } catch (error) {
    return { status: "error", attempt, name, errors: accountErrors(error, "creating an API token") };
  }
}

/**
 * Revokes one of the signed-in user's tokens (form field `tokenId`). Tokens of other users
 * are never touched (`revokeOwnApiToken` answers 404 for them; the form shows nothing).
 */
export async function revokeTokenAction(formData: FormData): Promise<void> {
  const viewer = await getViewer();
  if (!viewer) return;
  try {
    await revokeOwnApiToken(viewer, formData.get("tokenId"));
  } catch (error) {
    if (!isDomainError(error)) throw error;
    return;
  }
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
 * included (the button then clears this browser's cookie through next-auth's sign-out), and
 * revokes every API token of the account, in one transaction (`signOutEverywhere`).
 *
 * @returns true when it was done; false when nobody is signed in
 */
export async function signOutEverywhereAction(): Promise<boolean> {
  const viewer = await getViewer();
  if (!viewer) return false;
  try {
    await signOutEverywhere(viewer);
    return true;
  } catch (error) {
    if (!isDomainError(error)) throw error;
    return false;
  }
}

/** State of the email-change form: the address the link was mailed to, or the problems per field (`form` for the rest). */
export type ChangeEmailState =
  | { status: "idle"; attempt: number }
  | { status: "sent"; attempt: number; newEmail: string }
  | { status: "error"; attempt: number; value: string; errors: Record<string, string> };

/** The problems of a failed account action, per field (`form` for anything not about one field). */
function accountErrors(error: unknown, context: string): Record<string, string> {
  if (error instanceof UserInputError) return error.fields;
  if (isDomainError(error)) return { form: error.message };
  console.error(`${context} failed`, error);
  return { form: "Something went wrong on our side. Please try again." };
}

/**
 * Asks to change the signed-in user's email address (fields `newEmail`, `password`): mails a
 * confirmation link to the new address. `requestEmailChange` enforces every rule.
 *
 * @returns "sent" with the new address, or the problems per field
 */
export async function requestEmailChangeAction(previous: ChangeEmailState, formData: FormData): Promise<ChangeEmailState> {
  const attempt = previous.attempt + 1;
  const newEmail = String(formData.get("newEmail") ?? "");
  const viewer = await getViewer();
  if (!viewer) return { status: "error", attempt, value: newEmail, errors: { form: "Your session has ended. Please sign in again." } };
  try {
    const result = await requestEmailChange(viewer, newEmail, String(formData.get("password") ?? ""));
    return { status: "sent", attempt, newEmail: result.newEmail };
  } catch (error) {
    return { status: "error", attempt, value: newEmail, errors: accountErrors(error, "requesting an email change") };
  }
}

/** State of the confirm-email button: done (with the new address), or the problem. */
export type ConfirmEmailState = LinkConfirmationState;

/**
 * Confirms an email change (field `token`, from the mailed link). Needs no session; every
 * session of the account ends, so the page then asks to sign in with the new address.
 */
export async function confirmEmailChangeAction(_previous: ConfirmEmailState, formData: FormData): Promise<ConfirmEmailState> {
  try {
    const { email } = await confirmEmailChange(String(formData.get("token") ?? ""));
    return { status: "confirmed", email };
  } catch (error) {
    return { status: "error", message: accountErrors(error, "confirming an email change").form ?? INVALID_EMAIL_CHANGE_LINK };
  }
}

/** State of the delete-account form. */
export type DeleteAccountState = { status: "idle"; attempt: number } | { status: "deleted"; attempt: number } | { status: "error"; attempt: number; errors: Record<string, string> };

/**
 * Deletes the signed-in user's account (fields `password`, `confirm` = "on"). The checkbox is
 * checked here too; `deleteAccount` enforces the rest (password, only-organizer refusal). On
 * success every session has ended; the form then clears this browser's cookie.
 */
export async function deleteAccountAction(previous: DeleteAccountState, formData: FormData): Promise<DeleteAccountState> {
  const attempt = previous.attempt + 1;
  const viewer = await getViewer();
  if (!viewer) return { status: "error", attempt, errors: { form: "Your session has ended. Please sign in again." } };
  if (formData.get("confirm") !== "on") {
    return { status: "error", attempt, errors: { confirm: "Tick the box to confirm that you want to delete your account." } };
  }
  try {
    await deleteAccount(viewer, String(formData.get("password") ?? ""));
    return { status: "deleted", attempt };
  } catch (error) {
    return { status: "error", attempt, errors: accountErrors(error, "deleting an account") };
  }
}
