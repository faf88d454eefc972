/**
 * Shared by the console's tab pages: the metadata title and the organizer check every tab
 * repeats (the layout checks too, but a page may render before it in a streamed response).
 */
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import type { SignedInViewer } from "@/lib/permissions";
import type { TaskView } from "@/lib/tasks";
import { loadTaskForPage } from "../load-task";

/** A console tab's params. */
export type ManageParams = { params: Promise<{ slug: string }> };

/**
 * The title of a console tab: "<tab> · Manage <task>" for organizers, "Not found" for everyone else.
 */
export async function manageMetadata(params: ManageParams["params"], tab: string): Promise<Metadata> {
  const { task } = await loadTaskForPage((await params).slug);
  return { title: task.isOrganizer ? `${tab} · Manage ${task.title}` : "Not found" };
}

/**
 * The signed-in organizer and the task for a console tab; calls `notFound()` for anyone else.
 */
export async function loadManagedTask(params: ManageParams["params"]): Promise<{ viewer: SignedInViewer; task: TaskView; now: Date }> {
  const { viewer, task, now } = await loadTaskForPage((await params).slug);
  if (!viewer || !task.isOrganizer) notFound();
  return { viewer, task, now };
}
