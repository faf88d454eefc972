import Link from "./link";
import { canCreateTask, isSiteAdmin } from "@/lib/permissions";
import type { UserRole } from "@/lib/db";
import { getCurrentUser } from "@/lib/auth/session";
import { SignOutButton, SiteMenu } from "./sign-out-button";

/** One navigation link: where it goes and its text. */
interface NavLink {
  href: string;
  label: string;
}

/**
 * The main navigation for this user: everyone sees Tasks and Metrics; signed-in users Teams and
 * Account; site admins and organizers (site role) New task; site admins Users (/admin/users,
 * where they grant roles).
 */
function navLinks(user: { role: UserRole } | null): NavLink[] {
  return [
    { href: "/tasks", label: "Tasks" },
    { href: "/metrics", label: "Metrics" },
    ...(user ? [{ href: "/teams", label: "Teams" }] : []),
    ...(canCreateTask(user) ? [{ href: "/tasks/new", label: "New task" }] : []),
    ...(isSiteAdmin(user) ? [{ href: "/admin/users", label: "Users" }] : []),
    ...(user ? [{ href: "/account", label: "Account" }] : []),
  ];
}

/**
 * The top bar: site name, navigation, and who is signed in (with sign-in / sign-out).
 *
 * From 640 px (`sm`) up it is one row, as before. Below, the links and the account controls
 * fold into a "Menu" disclosure (`SiteMenu`: a `<details>` that works without JavaScript,
 * whose button carries `aria-expanded` and `aria-controls`), so nothing (not "Sign out")
 * is pushed off a 390 px screen. The phone menu lists the same links, then who is signed in
 * and "Sign out" (or "Sign in" and "Sign up").
 */
export async function SiteHeader() {
  const user = await getCurrentUser();
  const links = navLinks(user);
  return (
    <header className="relative border-b border-zinc-200 bg-white">
      <nav aria-label="Main" className="mx-auto flex min-h-14 w-full max-w-5xl items-center gap-x-4 px-4 py-3 sm:gap-x-6 sm:px-6">
        <Link href="/" className="text-lg font-semibold tracking-tight text-zinc-900 no-underline">
          Corefboard
        </Link>

        {/* 640 px and wider: the row. */}
        <div className="hidden min-w-0 flex-1 flex-wrap items-center gap-x-6 gap-y-2 sm:flex">
          {links.map((link) => (
            <Link key={link.href} href={link.href} className="text-sm text-zinc-600 hover:text-zinc-900">
              {link.label}
            </Link>
          ))}
          <div className="ml-auto flex items-center gap-3 text-sm">
            <AccountControls user={user} inMenu={false} />
          </div>
        </div>

        {/* Narrower than 640 px: the menu. */}
        <SiteMenu id="site-menu-panel" className="ml-auto sm:hidden">
          <ul className="divide-y divide-zinc-100 text-base">
            {links.map((link) => (
              <li key={link.href}>
                <Link href={link.href} className="block py-2.5 text-zinc-800 hover:text-zinc-950">
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
          <div className="mt-3 flex flex-wrap items-center gap-3 border-t border-zinc-200 pt-3 text-sm">
            <AccountControls user={user} inMenu />
          </div>
        </SiteMenu>
      </nav>
    </header>
  );
}

/**
 * Who is signed in and "Sign out", or "Sign in" and "Sign up": in the header's row (640 px and
 * wider; test id `signed-in-as`) or in the phone menu (`menu-signed-in-as`).
 */
function AccountControls({ user, inMenu }: { user: { name: string } | null; inMenu: boolean }) {
  if (user) {
    return (
      <>
        <span className={inMenu ? "min-w-0 break-words text-zinc-700" : "text-zinc-600"} data-testid={inMenu ? "menu-signed-in-as" : "signed-in-as"}>
          Signed in as <span className="font-medium text-zinc-900">{user.name}</span>
        </span>
        <SignOutButton />
      </>
    );
  }
  return (
    <>
      <Link href="/signin" className={inMenu ? "rounded-md border border-zinc-300 px-3 py-1.5 text-zinc-800 hover:bg-zinc-100" : "text-zinc-700 hover:text-zinc-900"}>
        Sign in
      </Link>
      <Link href="/signup" className="rounded-md bg-zinc-900 px-3 py-1.5 font-medium text-white no-underline hover:bg-zinc-700">
        Sign up
      </Link>
    </>
  );
}
