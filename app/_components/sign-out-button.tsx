"use client";

/**
 * The header's client pieces: the "Sign out" button, and the phone menu's disclosure
 * ({@link SiteMenu}), which keeps its button's `aria-expanded` in step and closes on Escape and
 * after a navigation. Both are rendered by `site-header.tsx` (a server component).
 */
import { signOut } from "next-auth/react";
import { usePathname } from "next/navigation";
import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from "react";

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

/**
 * The header's menu on a phone: a `<details>` whose `<summary>` is the "Menu" button, so it
 * opens and closes with a click, Enter or Space even before (or without) JavaScript. Once
 * hydrated, the button's `aria-expanded` follows the state, Escape closes the menu and
 * returns the focus to the button, and a navigation (a link in the menu) closes it.
 *
 * @param id the id of the menu's panel (the button's `aria-controls`)
 * @param className classes of the `<details>` (e.g. `sm:hidden`: the menu exists below 640 px only)
 * @param children the panel's content: the links and the account controls
 */
export function SiteMenu({ id, className, children }: { id: string; className?: string; children: ReactNode }) {
  const details = useRef<HTMLDetailsElement>(null);
  const summary = useRef<HTMLElement>(null);
  const [open, setOpen] = useState(false);
  const pathname = usePathname();

  // A link in the menu leads to another page: close the menu there.
  useEffect(() => {
    if (details.current?.open) details.current.open = false;
  }, [pathname]);

  function keyDown(event: KeyboardEvent<HTMLDetailsElement>) {
    if (event.key !== "Escape" || !details.current?.open) return;
    details.current.open = false;
    summary.current?.focus();
  }

  return (
    <details ref={details} className={`group ${className ?? ""}`} onToggle={(e) => setOpen(e.currentTarget.open)} onKeyDown={keyDown} data-testid="site-menu">
      <summary
        ref={summary}
        aria-expanded={open}
        aria-controls={id}
        className="flex cursor-pointer list-none items-center gap-2 rounded-md border border-zinc-300 px-3 py-1.5 text-sm font-medium text-zinc-800 hover:bg-zinc-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-zinc-400 [&::-webkit-details-marker]:hidden"
      >
        {/* Three bars, or a cross while open; the word "Menu" names the button either way. */}
        <span aria-hidden="true" className="text-base leading-none group-open:hidden">
          ☰
        </span>
        <span aria-hidden="true" className="hidden text-base leading-none group-open:inline">
          ✕
        </span>
        Menu
      </summary>
      <div id={id} className="absolute inset-x-0 top-full z-20 border-b border-zinc-200 bg-white px-4 pb-4 pt-2 shadow-md">
        {children}
      </div>
    </details>
  );
}
