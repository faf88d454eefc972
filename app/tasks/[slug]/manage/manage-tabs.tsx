"use client";
/**
 * The organizer's console tabs (overview, phases, final results, gold, submissions, teams, audit): links, the
 * current one marked with `aria-current="page"`. Scrolls sideways on narrow screens.
 */
import Link from "@/app/_components/link";
import { usePathname } from "next/navigation";

/** The console's tabs: the path under /tasks/{slug}/manage ("" = overview) and the label. */
export const MANAGE_TABS = [
  { path: "", label: "Overview" },
  { path: "/phases", label: "Phases" },
  { path: "/results", label: "Final results" },
  { path: "/gold", label: "Gold" },
  { path: "/submissions", label: "Submissions" },
  { path: "/teams", label: "Teams" },
  { path: "/audit", label: "Audit" },
] as const;

/** The tab bar of a task's console. */
export function ManageTabs({ slug }: { slug: string }) {
  const pathname = usePathname();
  const base = `/tasks/${encodeURIComponent(slug)}/manage`;
  return (
    <nav aria-label="Console" className="-mx-1 relative overflow-x-auto border-b border-zinc-200">
      <ul className="flex min-w-max gap-1 px-1">
        {MANAGE_TABS.map((tab) => {
          const href = base + tab.path;
          const current = tab.path === "" ? pathname === href : pathname === href || pathname.startsWith(`${href}/`);
          return (
            <li key={tab.label}>
              <Link
                href={href}
                aria-current={current ? "page" : undefined}
                className={`inline-block border-b-2 px-3 py-2 text-sm font-medium ${current ? "border-zinc-900 text-zinc-900" : "border-transparent text-zinc-600 hover:border-zinc-300 hover:text-zinc-900"}`}
              >
                {tab.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
