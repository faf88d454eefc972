"use client";
/**
 * The overview tab's status card: the task's state (Draft, Published, Archived), the
 * publishing checklist (each check ✓ or ✗ with why), and the buttons that move it on:
 * Publish (enabled only when every check passes; the server checks again), Archive and
 * Unarchive. `taskLifecycleAction` does the work.
 */
import { useActionState } from "react";
import type { PublishCheck, TaskStatus } from "@/lib/tasks";
import { Notice, primaryButton, secondaryButton, UtcTime } from "@/app/_components/ui";
import { taskLifecycleAction, type TaskLifecycleState } from "./actions";

/** Labels and explanations of the states. */
const STATUS_TEXT: Record<TaskStatus, { label: string; explain: string; badge: string }> = {
  DRAFT: { label: "Draft", explain: "Only the organizers see this task. Publish it when every check below passes.", badge: "bg-amber-100 text-amber-900" },
  PUBLISHED: { label: "Published", explain: "Everyone can see this task; each phase's leaderboard settings still apply.", badge: "bg-emerald-100 text-emerald-900" },
  ARCHIVED: { label: "Archived", explain: "Everyone can still see this task, but it is read-only: no runs, no gold uploads, no edits.", badge: "bg-zinc-200 text-zinc-800" },
};

/**
 * The status card's content.
 *
 * @param checks the publishing checklist (`publishChecks`); shown while the task is a draft,
 *   a failing check with its `fix` linking to the console tab where it is fixed
 * @param notes the checklist's non-blocking notes (e.g. the gold suggests the CRAC profile), shown below it
 */
export function TaskStatusCard({
  taskId,
  status,
  publishedAt,
  archivedAt,
  checks,
  notes,
  slug,
}: {
  taskId: string;
  /** the task's slug, for the links to the tab where a failing check is fixed */
  slug: string;
  status: TaskStatus;
  publishedAt: Date | null;
  archivedAt: Date | null;
  checks: PublishCheck[];
  notes: string[];
}) {
  const [state, action, pending] = useActionState<TaskLifecycleState, FormData>(taskLifecycleAction, { status: "idle" });
  const text = STATUS_TEXT[status];
  const ready = checks.every((c) => c.ok);
  return (
    <div className="space-y-4" data-testid="task-status">
      <p className="flex flex-wrap items-center gap-2 text-sm">
        <span className={`rounded px-2 py-0.5 text-xs font-semibold ${text.badge}`} data-testid="task-status-label">
          {text.label}
        </span>
        <span className="text-zinc-700">{text.explain}</span>
      </p>
      {publishedAt && status !== "DRAFT" && (
        <p className="text-sm text-zinc-600">
          Published <UtcTime date={publishedAt} />
          {archivedAt && (
            <>
              {" "}
              · archived <UtcTime date={archivedAt} />
            </>
          )}
        </p>
      )}
      {status === "DRAFT" && (
        <ul className="space-y-2 text-sm" aria-label="Publishing checklist" data-testid="publish-checklist">
          {checks.map((check) => (
            <li key={check.id} className="flex gap-2" data-testid={`publish-check-${check.id}`} data-ok={check.ok ? "true" : "false"}>
              <span aria-hidden="true" className={check.ok ? "text-emerald-700" : "text-red-700"}>
                {check.ok ? "✓" : "✗"}
              </span>
              <span>
                <span className="font-medium text-zinc-900">{check.label}</span>
                <span className="sr-only">{check.ok ? " (passes)" : " (fails)"}</span>: <span className="text-zinc-700">{check.detail}</span>
                {!check.ok && check.fix && (
                  <>
                    {" "}
                    <a href={`/tasks/${encodeURIComponent(slug)}/manage/${check.fix.tab}`} className="font-medium underline" data-testid={`publish-fix-${check.id}`}>
                      {check.fix.label}
                    </a>
                  </>
                )}
              </span>
            </li>
          ))}
        </ul>
      )}
      {notes.length > 0 && (
        <ul className="space-y-1 text-sm text-zinc-700" aria-label="Notes" data-testid="publish-notes">
          {notes.map((note) => (
            <li key={note} className="flex gap-2">
              <span aria-hidden="true" className="text-sky-700">
                ℹ
              </span>
              <span>{note}</span>
            </li>
          ))}
        </ul>
      )}
      <div aria-live="polite">
        {state.status === "error" && <Notice kind="error">{state.message}</Notice>}
        {state.status === "done" && <Notice kind="success">{state.message}</Notice>}
      </div>
      <form action={action} className="flex flex-wrap gap-3" aria-label="Task status">
        <input type="hidden" name="taskId" value={taskId} />
        {status === "DRAFT" && (
          <button type="submit" name="intent" value="publish" disabled={pending || !ready} className={primaryButton} aria-describedby={ready ? undefined : "publish-blocked"}>
            {pending ? "Working…" : "Publish task"}
          </button>
        )}
        {status === "DRAFT" && !ready && (
          <p id="publish-blocked" className="self-center text-sm text-zinc-600">
            Publishing needs every check to pass.
          </p>
        )}
        {status === "PUBLISHED" && (
          <button type="submit" name="intent" value="archive" disabled={pending} className={secondaryButton}>
            {pending ? "Working…" : "Archive task"}
          </button>
        )}
        {status === "ARCHIVED" && (
          <button type="submit" name="intent" value="unarchive" disabled={pending} className={secondaryButton}>
            {pending ? "Working…" : "Unarchive task"}
          </button>
        )}
      </form>
    </div>
  );
}
