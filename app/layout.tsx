import type { Metadata } from "next";
import type { ReactNode } from "react";
import { SiteHeader } from "./_components/site-header";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Corefboard", template: "%s · Corefboard" },
  description: "Leaderboards for coreference-resolution shared tasks, scored with a reference-exact CoNLL scorer.",
};

/** The page frame: header with navigation and the signed-in user, then the page. */
export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen font-sans">
        <SiteHeader />
        <main className="mx-auto w-full max-w-5xl px-4 py-8 sm:px-6">{children}</main>
      </body>
    </html>
  );
}
