/**
 * Loading a task for the pages under /tasks/[slug], once per request (metadata and page
 * share the result).
 */
import { cache } from "react";
import { notFound } from "next/navigation";
import { NotFoundError } from "../../../lib/errors";
import { getTaskForViewer, type TaskView } from "../../../lib/services/tasks";
import { getViewer, type Viewer } from "../../../lib/session";

/**
 * The viewer and the task with this slug as they see it; calls `notFound()` for an unknown slug.
 */
export const loadTaskForPage = cache(async (slug: string): Promise<{ viewer: Viewer | null; task: TaskView; now: Date }> => {
  const viewer = await getViewer();
  const now = new Date();
  try {
    return { viewer, task: await getTaskForViewer(slug, viewer, now), now };
  } catch (error) {
    if (error instanceof NotFoundError) notFound();
    throw error;
  }
});
