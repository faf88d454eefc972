"use client";

import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { isPending, RunStatusLabel, type RunStatus } from "./run-status-label";

/** How often the status is polled while the run is queued or being scored. */
const POLL_MS = 1500;

const STATUSES: readonly string[] = ["QUEUED", "SCORING", "SCORED", "FAILED"];

/**
 * The submission's status, kept live without a reload: while QUEUED or SCORING it polls
 * `GET /api/v1/submissions/{id}` every 1.5 s and shows each new status; once the status is
 * SCORED or FAILED it refreshes the server component (`router.refresh()`), which then renders
 * the scores or the error. The status is announced politely to screen readers.
 *
 * @param id the submission id
 * @param initialStatus the status the server rendered
 */
export function RunStatusBadge({ id, initialStatus }: { id: string; initialStatus: RunStatus }) {
  const router = useRouter();
  const [polled, setPolled] = useState<{ from: RunStatus; status: RunStatus } | null>(null);
  // A newer server render (after refresh) wins over an older polled value.
  const status = polled && polled.from === initialStatus ? polled.status : initialStatus;

  useEffect(() => {
    if (!isPending(initialStatus)) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      let next: RunStatus | null = null;
      try {
        const response = await fetch(`/api/v1/submissions/${encodeURIComponent(id)}`, { headers: { Accept: "application/json" }, cache: "no-store" });
        if (response.ok) {
          const body = (await response.json()) as { status?: unknown };
          if (typeof body.status === "string" && STATUSES.includes(body.status)) next = body.status as RunStatus;
        } else {
          // The status API is unavailable: let the server component re-render instead.
          router.refresh();
        }
      } catch {
        // Network hiccup: try again at the next tick.
      }
      if (stopped) return;
      if (next) {
        setPolled({ from: initialStatus, status: next });
        if (!isPending(next)) {
          router.refresh();
          return;
        }
      }
      timer = setTimeout(poll, POLL_MS);
    };
    timer = setTimeout(poll, POLL_MS);
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    };
  }, [id, initialStatus, router]);

  return (
    <span role="status" aria-live="polite" aria-label={`Status: ${status}`} className="inline-flex items-center gap-2">
      <RunStatusLabel status={status} testId="run-status" />
      {isPending(status) && <span className="text-xs text-zinc-600">updating automatically…</span>}
    </span>
  );
}
