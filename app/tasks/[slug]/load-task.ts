/**
 * Loading a task for the pages under /tasks/[slug], once per request (metadata and page
 * share the result).
 */
import { cache } from "react";
import { notFound } from "next/navigation";
import { NotFoundError } from "@/lib/errors";
import { getTaskForViewer, type TaskView } from "@/lib/tasks";
import { SLUG_PATTERN } from "@/lib/validations/task";
import { getViewer, type Viewer } from "@/lib/auth/session";

/**
 * The viewer and the task with this slug as they see it; calls `notFound()` for an unknown slug.
 * A segment that is not slug-shaped (every slug matches `SLUG_PATTERN`) cannot be a task and
 * is not looked up: it might hold characters the database refuses in text (a NUL), which
 * would be a 500 instead of a 404.
 */
export const loadTaskForPage = cache(async (slug: string): Promise<{ viewer: Viewer | null; task: TaskView; now: Date }> => {
  if (!SLUG_PATTERN.test(slug)) notFound();
  const viewer = await getViewer();
  const now = new Date();
  try {
    return { viewer, task: await getTaskForViewer(slug, viewer, now), now };
  } catch (error) {
    if (error instanceof NotFoundError) notFound();
    throw error;
  }
});
