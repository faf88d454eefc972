"use server";

import { revalidatePath } from "next/cache";
import { createApiToken, revokeApiToken } from "../../lib/auth/api-tokens";
import { getCurrentUser } from "../../lib/session";
import { UserInputError } from "../../lib/services/users";

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
