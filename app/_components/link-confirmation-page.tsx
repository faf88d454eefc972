import Link from "./link";
import type { ReactNode } from "react";
import { Notice } from "./ui";

/**
 * The frame of a page that a mailed one-time link opens: its title, then the confirmation
 * form while the link works (`form`), else `invalidMessage` and a link to the account page.
 *
 * @param form the confirmation form, or null when the link does not work (unknown, used, expired)
 */
export function LinkConfirmationPage({ title, form, invalidMessage }: { title: string; form: ReactNode | null; invalidMessage: string }) {
  return (
    <div className="mx-auto max-w-lg">
      <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
      <div className="mt-6 rounded-lg border border-zinc-200 bg-white p-6 shadow-sm">
        {form ?? (
          <div className="space-y-4">
            <Notice kind="error">{invalidMessage}</Notice>
            <p className="text-sm">
              <Link href="/account" className="font-medium text-zinc-900 underline">
                Your account
              </Link>
            </p>
          </div>
        )}
      </div>
    </div>
  );
}
