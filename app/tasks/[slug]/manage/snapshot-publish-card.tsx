"use client";
/**
 * The console's final results card for one phase (issue 11 §2): the phase's snapshots so far,
 * why publishing is not possible yet (when it is not), and the form that publishes the final
 * results as a new, immutable snapshot: a note (markdown) and a required confirmation. No zod
 * here: the server checks everything (`publishSnapshot`).
 *
 * Render it from a server page with the phase and `snapshotReadiness(viewer, phase.id, now)`:
 *
 *   <SnapshotPublishCard phase={{ id: phase.id, name: phase.name }} readiness={await snapshotReadiness(viewer, phase.id, now)} />
 */
import Link from "@/app/_components/link";
import { useActionState } from "react";
import type { SnapshotReadiness } from "@/lib/boards";
import { CheckboxField, Notice, TextAreaField, UtcTime, primaryButton } from "@/app/_components/ui";
import { publishSnapshotAction, type SnapshotPublishState } from "./snapshot-actions";

/** Longest note the form lets one type (the server checks the same limit, `SNAPSHOT_NOTE_MAX`). */
const NOTE_MAX = 10_000;

/**
 * The card.
 *
 * @param phase the phase's id and name
 * @param readiness from `snapshotReadiness`: whether publishing is possible, every reason it is
 *   not, the snapshots so far (newest first) and the link to the phase's results page
 */
export function SnapshotPublishCard({ phase, readiness }: { phase: { id: string; name: string }; readiness: SnapshotReadiness }) {
  const [state, action, pending] = useActionState<SnapshotPublishState, FormData>(publishSnapshotAction, { attempt: 0, note: "", status: "idle" });
  const errors = state.status === "error" ? state.fieldErrors : {};
  const headingId = `snapshots-${phase.id}`;
  return (
    <section aria-labelledby={headingId} className="space-y-4 rounded-lg border border-zinc-200 bg-white p-6 shadow-sm" data-testid="snapshot-publish-card">
      <div>
        <h2 id={headingId} className="text-base font-semibold text-zinc-900">
          Final results: {phase.name} phase
        </h2>
        <p className="mt-1 text-sm text-zinc-600">
          Publishing stores the final ranking as a snapshot with a permalink, the gold versions, the scorer version, and a CSV and JSON export with their
          checksums. It can never be changed: a correction (a new gold key, a re-score) is published as a new snapshot, which says what changed.
        </p>
      </div>

      {readiness.snapshots.length === 0 ? (
        <p className="text-sm text-zinc-600" data-testid="snapshot-none">
          No final results published yet.
        </p>
      ) : (
        <div className="space-y-1 text-sm">
          <ol className="space-y-1" aria-label={`Published snapshots of the ${phase.name} phase`} data-testid="snapshot-published">
            {readiness.snapshots.map((s) => (
              <li key={s.number}>
                <Link href={s.links.page} className="font-medium underline">
                  Snapshot #{s.number}
                </Link>
                , <UtcTime date={s.createdAt} />
                {s.changes[0] && <span className="text-zinc-600"> · {s.changes[0].text}</span>}
              </li>
            ))}
          </ol>
          <Link href={readiness.resultsHref} className="text-zinc-700 underline">
            The phase&apos;s results page
          </Link>
        </div>
      )}

      {!readiness.ready && (
        <div data-testid="snapshot-problems">
          <Notice kind="info">
            <p className="font-medium">The final results cannot be published yet:</p>
            <ul className="mt-1 list-disc space-y-0.5 pl-5">
              {readiness.problems.map((problem) => (
                <li key={problem}>{problem}</li>
              ))}
            </ul>
            <p className="mt-1">Reload this page once that is done.</p>
          </Notice>
        </div>
      )}

      <form key={state.attempt} action={action} className="space-y-3" noValidate aria-label={`Publish the final results of the ${phase.name} phase`}>
        <input type="hidden" name="phaseId" value={phase.id} />
        <TextAreaField
          id={`snapshot-note-${phase.id}`}
          label="Note (markdown, published with the results)"
          name="note"
          rows={3}
          maxLength={NOTE_MAX}
          defaultValue={state.note}
          hint="For example what the results are, or what a new snapshot corrects. Optional."
          error={errors.note}
        />
        <CheckboxField
          id={`snapshot-confirm-${phase.id}`}
          label="I understand: the published results can never be changed, only followed by a new snapshot."
          name="confirm"
          required
          error={errors.confirm}
        />
        <button type="submit" disabled={pending || !readiness.ready} className={primaryButton}>
          {pending ? "Publishing…" : "Publish final results"}
        </button>
      </form>

      <div aria-live="polite">
        {state.status === "published" && (
          <Notice kind="success">
            <Link href={state.href} className="font-medium underline" data-testid="snapshot-published-link">
              Snapshot #{state.number}
            </Link>{" "}
            is published. {state.changes.join(" ")}
          </Notice>
        )}
        {state.status === "error" && Object.keys(state.fieldErrors).length === 0 && <Notice kind="error">{state.message}</Notice>}
      </div>
    </section>
  );
}
