"use client";

import { signOut } from "next-auth/react";
import { useTransition } from "react";
import { secondaryButton } from "../_components/ui";
import { signOutEverywhereAction } from "./actions";

/**
 * "Sign out everywhere": ends every session of the account on the server (its session
 * version moves on) and revokes every API token of the account, then clears this browser's
 * cookie and goes to the sign-in page.
 */
export function SignOutEverywhereButton() {
  const [pending, startTransition] = useTransition();
  return (
    <button
      type="button"
      disabled={pending}
      className={secondaryButton}
      onClick={() =>
        startTransition(async () => {
          await signOutEverywhereAction();
          await signOut({ callbackUrl: "/signin" });
        })
      }
    >
      {pending ? "Signing out…" : "Sign out everywhere"}
    </button>
  );
}
