import Link from "next/link";
import { getCurrentUser } from "../../lib/session";
import { SignOutButton } from "./sign-out-button";

/** The top bar: site name, navigation, and who is signed in (with sign-in / sign-out). */
export async function SiteHeader() {
  const user = await getCurrentUser();
  return (
    <header className="border-b border-zinc-200 bg-white">
      {/* On a phone the links wrap onto a second line rather than push the page sideways. */}
      <nav aria-label="Main" className="mx-auto flex min-h-14 w-full max-w-5xl flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3 sm:gap-x-6 sm:px-6">
        <Link href="/" className="text-lg font-semibold tracking-tight text-zinc-900 no-underline">
          Corefboard
        </Link>
        <Link href="/tasks" className="text-sm text-zinc-600 hover:text-zinc-900">
          Tasks
        </Link>
        <Link href="/metrics" className="text-sm text-zinc-600 hover:text-zinc-900">
          Metrics
        </Link>
        {user && (
          <Link href="/teams" className="text-sm text-zinc-600 hover:text-zinc-900">
            Teams
          </Link>
        )}
        {user?.role === "ADMIN" && (
          <Link href="/tasks/new" className="text-sm text-zinc-600 hover:text-zinc-900">
            New task
          </Link>
        )}
        {user && (
          <Link href="/account" className="text-sm text-zinc-600 hover:text-zinc-900">
            Account
          </Link>
        )}
        <div className="ml-auto flex items-center gap-3 text-sm">
          {user ? (
            <>
              <span className="hidden text-zinc-600 sm:inline" data-testid="signed-in-as">
                Signed in as <span className="font-medium text-zinc-900">{user.name}</span>
              </span>
              <SignOutButton />
            </>
          ) : (
            <>
              <Link href="/signin" className="text-zinc-700 hover:text-zinc-900">
                Sign in
              </Link>
              <Link href="/signup" className="rounded-md bg-zinc-900 px-3 py-1.5 font-medium text-white no-underline hover:bg-zinc-700">
                Sign up
              </Link>
            </>
          )}
        </div>
      </nav>
    </header>
  );
}
