"use client";

import { useActionState } from "react";
import { secondaryButton } from "@/app/_components/ui";
import { setParticipantTeamAction, type ParticipantTeamState } from "./actions";

/**
 * The change control of one participant on the manage page: a choice among the user's
 * teams, or clearing the record (their next run records its team again), and a save button.
 * The outcome shows beside it.
 *
 * @param taskId the task
 * @param userId the participant
 * @param userName for the labels
 * @param current the team recorded now
 * @param teams the user's teams (the only possible choices: the service checks membership again)
 */
export function ParticipantTeamForm({
  taskId,
  userId,
  userName,
  current,
  teams,
}: {
  taskId: string;
  userId: string;
  userName: string;
  current: string;
  teams: { id: string; name: string }[];
}) {
  const [state, action, pending] = useActionState<ParticipantTeamState, FormData>(setParticipantTeamAction, { status: "idle" });
  const selectId = `participant-team-${userId}`;
  return (
    <form action={action} className="flex flex-wrap items-center gap-2" data-testid="participant-team-form">
      <input type="hidden" name="taskId" value={taskId} />
      <input type="hidden" name="userId" value={userId} />
      <label htmlFor={selectId} className="sr-only">
        Team of {userName} in this task
      </label>
      <select id={selectId} name="teamId" defaultValue={current} className="rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm">
        {teams.map((t) => (
          <option key={t.id} value={t.id}>
            {t.name}
          </option>
        ))}
        <option value="">No team recorded (the next run records one)</option>
      </select>
      <button type="submit" disabled={pending} className={`${secondaryButton} whitespace-nowrap`}>
        {pending ? "Saving…" : "Change team"}
      </button>
      <span role="status" className="text-xs" data-testid="participant-team-result">
        {state.status === "saved" && (
          <span className="text-emerald-800">{state.teamName === null ? "Record cleared." : `Now submits for ${state.teamName}.`}</span>
        )}
        {state.status === "error" && <span className="text-red-700">{state.message}</span>}
      </span>
    </form>
  );
}
