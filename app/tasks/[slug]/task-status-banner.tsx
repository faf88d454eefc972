/**
 * The notice at the top of a task's page about its state (issue 11 §1): for the organizers
 * of a draft, that only they see it (with a link to publish it); for everyone on an archived
 * task, that it is read-only. Nothing for a published task. Server-safe (no hooks).
 */
import Link from "../../_components/link";
import type { TaskStatus } from "@/lib/tasks";
import { Notice, UtcTime } from "../../_components/ui";

/**
 * The banner.
 *
 * @param status the task's state (`TaskView.status`)
 * @param isOrganizer the viewer organizes the task (only organizers ever see a draft)
 * @param archivedAt when it was archived (`TaskView.archivedAt`)
 */
export function TaskStatusBanner({ slug, status, isOrganizer, archivedAt }: { slug: string; status: TaskStatus; isOrganizer: boolean; archivedAt: Date | null }) {
  if (status === "DRAFT" && isOrganizer) {
    return (
      <div data-testid="task-status-banner">
        <Notice kind="info">
          <strong>Draft:</strong> only organizers see this task.{" "}
          <Link href={`/tasks/${encodeURIComponent(slug)}/manage`} className="font-medium underline">
            Publish it from its manage page
          </Link>{" "}
          when its gold keys, dates and description are ready.
        </Notice>
      </div>
    );
  }
  if (status === "ARCHIVED") {
    return (
      <div data-testid="task-status-banner">
        <Notice kind="info">
          <strong>Archived</strong>
          {archivedAt && (
            <>
              {" "}
              on <UtcTime date={archivedAt} />
            </>
          )}
          : this task is read-only. Its results stay online, but it takes no more runs.
        </Notice>
      </div>
    );
  }
  return null;
}
