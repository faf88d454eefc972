import type { Metadata } from "next";
import { connection } from "next/server";
import type { ReactNode } from "react";
import { SiteHeader } from "./_components/site-header";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Corefboard", template: "%s · Corefboard" },
  description: "Leaderboards for coreference-resolution shared tasks, scored with a reference-exact CoNLL scorer.",
};

/**
 * The page frame: header with navigation and the signed-in user, then the page.
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
        <SiteHeader />
        <main className="mx-auto w-full max-w-5xl px-4 py-8 sm:px-6">{children}</main>
      </body>
    </html>
  );
}
