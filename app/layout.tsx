import type { Metadata } from "next";
import { connection } from "next/server";
import type { ReactNode } from "react";
import { SiteHeader } from "./_components/site-header";
import "./globals.css";

/** The id of the page's `<main>`, the target of the skip link. */
const MAIN_ID = "main";

export const metadata: Metadata = {
  title: { default: "Corefboard", template: "%s · Corefboard" },
  description: "Leaderboards for coreference-resolution shared tasks, scored with a reference-exact CoNLL scorer.",
};

/**
 * The page frame: header with navigation and the signed-in user, then the page.
 *
 * The first thing to Tab to is "Skip to main content" (WCAG 2.4.1, bypass blocks; above the
 * top of the window until it has the focus, then over the header's top left corner with a
 * focus ring), a link to the page's one `<main id="main">`, which takes the focus
 * (`tabIndex={-1}`), so the next Tab goes on from the page's content, not from the header.
 * Pages render inside that `<main>` and have none of their own.
 *
 * Every page is rendered per request (`connection()`), never prerendered at build time: the
 * Content-Security-Policy carries a fresh nonce per request (`proxy.ts`), and Next can put
 * it on its `<script>` tags only while rendering that request. A prerendered page's scripts
 * would have no nonce, and the browser would refuse to run them.
 */
export default async function RootLayout({ children }: { children: ReactNode }) {
  await connection();
  return (
    <html lang="en">
      <body className="min-h-screen font-sans">
        <a
          href={`#${MAIN_ID}`}
          className="fixed left-4 top-3 z-50 -translate-y-[200%] rounded-md bg-white px-4 py-2 text-sm font-medium text-zinc-900 shadow-md focus:translate-y-0 focus:outline-none focus:ring-2 focus:ring-zinc-900"
        >
          Skip to main content
        </a>
        <SiteHeader />
        <main id={MAIN_ID} tabIndex={-1} className="mx-auto w-full max-w-5xl px-4 py-8 focus:outline-none sm:px-6">
          {children}
        </main>
      </body>
    </html>
  );
}
