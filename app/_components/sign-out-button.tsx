"use client";

import { signOut } from "next-auth/react";
import { useState } from "react";

/** Signs out through next-auth, then returns to the home page. */
export function SignOutButton() {
  const [pending, setPending] = useState(false);
  return (
    <button
      type="button"
      disabled={pending}
      onClick={() => {
        setPending(true);
        void signOut({ callbackUrl: "/" });
      }}
      className="rounded-md border border-zinc-300 px-3 py-1.5 text-zinc-700 hover:bg-zinc-100 disabled:opacity-60"
    >
      Sign out
    </button>
  );
}
