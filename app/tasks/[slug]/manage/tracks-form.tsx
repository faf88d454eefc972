"use client";

import { useActionState } from "react";
import { trackFormValues, type TrackFormValues } from "@/lib/validations/track-form";
import { Field, Notice, primaryButton, secondaryButton } from "@/app/_components/ui";
import { addTrackAction, trackAction, type AddTrackState, type TrackState } from "./actions";

/** A track as the manage page lists it (`ManagedTrack` of `lib/tasks/tracks.ts`). */
export interface ManagedTrackProps {
  id: string;
  name: string;
  description: string;
  dailyLimit: number | null;
  totalLimit: number | null;
  /** runs declared in the track (a track with runs cannot be deleted) */
  runs: number;
}

const EMPTY: TrackFormValues = { name: "", description: "", dailyLimit: "", totalLimit: "" };

/** The fields of a track: name, description, and the optional limits of its own. */
function TrackFields({ idPrefix, values, errors }: { idPrefix: string; values: TrackFormValues; errors: Record<string, string> }) {
  return (
    <div className="grid gap-3 sm:grid-cols-[minmax(0,14rem)_minmax(0,1fr)_8rem_8rem]">
      <Field id={`${idPrefix}-name`} label="Name" name="name" required maxLength={60} defaultValue={values.name} error={errors.name} />
      <Field id={`${idPrefix}-description`} label="Description" name="description" maxLength={2000} defaultValue={values.description} error={errors.description} />
      <Field
        id={`${idPrefix}-daily`}
        label="Runs per day"
        name="dailyLimit"
        type="number"
        min={1}
        inputMode="numeric"
        defaultValue={values.dailyLimit}
        error={errors.dailyLimit}
      />
      <Field
        id={`${idPrefix}-total`}
        label="Runs in total"
        name="totalLimit"
        type="number"
        min={1}
        inputMode="numeric"
        defaultValue={values.totalLimit}
        error={errors.totalLimit}
      />
    </div>
  );
}

/** One track: its fields with Save, its place in the order (up, down), and Delete. */
function TrackRow({ track, first, last }: { track: ManagedTrackProps; first: boolean; last: boolean }) {
  const [state, action, pending] = useActionState<TrackState, FormData>(trackAction, { attempt: 0, values: trackFormValues(track), status: "idle" });
  return (
    <li className="rounded-md border border-zinc-200 p-4" data-testid="manage-track">
      <form key={state.attempt} action={action} className="space-y-3" noValidate aria-label={`Track ${track.name}`}>
        <input type="hidden" name="trackId" value={track.id} />
        {state.status === "error" && <Notice kind="error">{state.message}</Notice>}
        {state.status === "saved" && <Notice kind="success">{state.message}</Notice>}
        <TrackFields idPrefix={`track-${track.id}`} values={state.values} errors={state.status === "error" ? state.fieldErrors : {}} />
        <div className="flex flex-wrap items-center gap-2">
          <button type="submit" name="intent" value="save" disabled={pending} className={primaryButton}>
            {pending ? "Saving…" : "Save track"}
          </button>
          <button type="submit" name="intent" value="up" disabled={pending || first} className={secondaryButton} aria-label={`Move ${track.name} up`}>
            Move up
          </button>
          <button type="submit" name="intent" value="down" disabled={pending || last} className={secondaryButton} aria-label={`Move ${track.name} down`}>
            Move down
          </button>
          <button type="submit" name="intent" value="delete" disabled={pending} className={secondaryButton} aria-label={`Delete ${track.name}`}>
            Delete
          </button>
          <span className="text-xs text-zinc-500" data-testid="track-runs">
            {track.runs === 0 ? "no runs yet" : `${track.runs} run${track.runs === 1 ? "" : "s"}: cannot be deleted`}
          </span>
        </div>
      </form>
    </li>
  );
}

/** The form that adds a track at the end of the phase's order. */
function AddTrackForm({ phaseId }: { phaseId: string }) {
  const [state, action, pending] = useActionState<AddTrackState, FormData>(addTrackAction, { attempt: 0, status: "idle" });
  const values = state.status === "error" ? state.values : EMPTY;
  return (
    <form key={state.attempt} action={action} className="space-y-3" noValidate aria-label="Add a track">
      <h3 className="text-sm font-semibold text-zinc-900">Add a track</h3>
      <input type="hidden" name="phaseId" value={phaseId} />
      {state.status === "error" && <Notice kind="error">{state.message}</Notice>}
      {state.status === "added" && <Notice kind="success">Track &ldquo;{state.name}&rdquo; added.</Notice>}
      <TrackFields idPrefix={`new-track-${phaseId}`} values={values} errors={state.status === "error" ? state.fieldErrors : {}} />
      <button type="submit" disabled={pending} className={secondaryButton}>
        {pending ? "Adding…" : "Add track"}
      </button>
    </form>
  );
}

/**
 * A phase's tracks on the manage page: each track's form (edit, reorder, delete), then a form
 * to add one. Limits left empty mean the phase's limits, shared with the other such tracks.
 *
 * @param phaseId the phase
 * @param tracks its tracks in order, with their run counts
 */
export function PhaseTracksForm({ phaseId, tracks }: { phaseId: string; tracks: ManagedTrackProps[] }) {
  return (
    <div className="space-y-6">
      {tracks.length === 0 ? (
        <p className="text-sm text-zinc-600" data-testid="no-tracks">
          This phase has no tracks: every run is ranked on one board.
        </p>
      ) : (
        <ol className="space-y-3" aria-label="Tracks">
          {tracks.map((t, i) => (
            <TrackRow key={t.id} track={t} first={i === 0} last={i === tracks.length - 1} />
          ))}
        </ol>
      )}
      <AddTrackForm phaseId={phaseId} />
    </div>
  );
}
