"use client";

import { useActionState } from "react";
import { Notice, secondaryButton } from "../_components/ui";
import {
  createTeamInvitationAction,
  revokeTeamInvitationAction,
  type RevokeTeamInvitationState,
  type TeamInvitationState,
} from "./actions";
import { MAX_INVITATION_USES } from "@/lib/validations/team";

/**
 * "Create invitation link" for one team (owners): how many people may use it (1 unless the
 * owner says more), then makes the link and shows it once (like an API token), in a read-only
 * field to copy. The list of links is rendered by the page.
 */
export function CreateTeamInvitationForm({ teamId, teamName }: { teamId: string; teamName: string }) {
  const [state, action, pending] = useActionState<TeamInvitationState, FormData>(createTeamInvitationAction, { status: "idle" });
  return (
    <div className="space-y-2">
      <form action={action} className="flex flex-wrap items-end gap-3">
        <input type="hidden" name="teamId" value={teamId} />
        <label className="text-sm text-zinc-700">
          Can be used by up to{" "}
          <input
            type="number"
            name="maxUses"
            min={1}
            max={MAX_INVITATION_USES}
            defaultValue={1}
            required
            aria-label={`How many people can use the new invitation link for ${teamName}`}
            className="w-16 rounded-md border border-zinc-300 px-2 py-1 text-sm tabular-nums"
          />{" "}
          people
        </label>
        <button type="submit" disabled={pending} className={secondaryButton} aria-label={`Create an invitation link for ${teamName}`}>
          {pending ? "Creating…" : "Create invitation link"}
        </button>
      </form>
      <div aria-live="polite">
        {state.status === "created" && (
          <Notice kind="success">
            <p className="font-medium">Invitation link created. Copy it now: it will not be shown again. It lets {state.maxUses === 1 ? "one person" : `up to ${state.maxUses} people`} join, signed in, until {state.expiresAt.slice(0, 16).replace("T", " ")} UTC or until you revoke it.</p>
            <input
              readOnly
              value={state.url}
              aria-label={`New invitation link for ${teamName}`}
              data-testid="new-invitation-link"
              onFocus={(e) => e.currentTarget.select()}
              className="mt-2 w-full rounded-md border border-emerald-300 bg-white px-2 py-1 font-mono text-xs text-zinc-900"
            />
          </Notice>
        )}
        {state.status === "error" && <Notice kind="error">{state.message}</Notice>}
      </div>
    </div>
  );
}

/** The revoke button of one invitation link, with the outcome announced. */
export function RevokeTeamInvitationButton({ teamId, invitationId, label }: { teamId: string; invitationId: string; label: string }) {
  const [state, action, pending] = useActionState<RevokeTeamInvitationState, FormData>(revokeTeamInvitationAction, { status: "idle" });
  return (
    <form action={action} className="inline-flex flex-col items-end gap-1">
      <input type="hidden" name="teamId" value={teamId} />
      <input type="hidden" name="invitationId" value={invitationId} />
      <button type="submit" disabled={pending} className={secondaryButton} aria-label={label}>
        {pending ? "Revoking…" : "Revoke"}
      </button>
      <span aria-live="polite" className="text-xs text-red-700">
        {state.status === "error" ? state.message : ""}
      </span>
    </form>
  );
}
