import type { ReactNode } from "react";
import { notFound } from "next/navigation";
import { Breadcrumbs } from "@/app/_components/ui";
import { loadTaskForPage } from "../load-task";
import { ManageTabs } from "./manage-tabs";

/**
 * The organizer's console of a task (its organizers and site admins only; 404 for everyone
 * else): the way back to the task and the tabs; each tab is a page below /manage.
 */
export default async function ManageLayout({ children, params }: { children: ReactNode; params: Promise<{ slug: string }> }) {
  const { viewer, task } = await loadTaskForPage((await params).slug);
  if (!viewer || !task.isOrganizer) notFound();
  return (
    <div className="space-y-6">
      <div className="space-y-3">
        <Breadcrumbs links={[{ href: `/tasks/${encodeURIComponent(task.slug)}`, label: task.title }]} />
        <ManageTabs slug={task.slug} />
      </div>
      {children}
    </div>
  );
}
