"use client";

import { useActionState } from "react";
import type { OrganizerInvitationView } from "@/lib/tasks";
import { Card, Field, InlineForm, Notice, Table, UtcTime, secondaryButton } from "@/app/_components/ui";
import {
  inviteOrganizerAction,
  revokeOrganizerInvitationAction,
  type InviteOrganizerState,
  type RevokeOrganizerInvitationState,
} from "./organizer-actions";

/** Props of {@link OrganizersCard}. */
export interface OrganizersCardProps {
  taskId: string;
  /** the task's organizers (`TaskView.organizers`) */
  organizers: readonly { id: string; name: string }[];
  /** its pending invitations: `await listOrganizerInvitations(viewer, task.id)` (lib/tasks/organizer-invitations.ts) */
  invitations: readonly OrganizerInvitationView[];
}

/**
 * The console's Organizers card: the task's organizers, its pending co-organizer invitations
 * (address, who invited, expiry, a revoke button) and an "Invite by email" form. The services
 * enforce who may invite and revoke; the manage pages are shown to organizers only.
 */
export function OrganizersCard({ taskId, organizers, invitations }: OrganizersCardProps) {
  return (
    <Card
      title="Organizers"
      description="Organizers can change the task and its phases, upload gold keys and see every run; they are not site admins. Invite a co-organizer by email: the link we mail works once, for 7 days, for whoever signs in with that address."
    >
      <ul className="mb-4 space-y-1 text-sm" data-testid="organizer-list">
        {organizers.map((o) => (
          <li key={o.id}>{o.name}</li>
        ))}
      </ul>
      {invitations.length > 0 && (
        <div className="mb-4">
          <Table label="Pending organizer invitations" testId="organizer-invitations" columns={["Email", "Invited by", "Expires", { label: "Actions", srOnly: true }]}>
            {invitations.map((inv) => (
              <tr key={inv.id} data-testid="organizer-invitation-row">
                <td className="py-2 pr-4 font-medium">{inv.email}</td>
                <td className="py-2 pr-4">{inv.invitedBy?.name ?? "—"}</td>
                <td className="py-2 pr-4 text-zinc-600">
                  {inv.expired ? (
                    <span>
                      expired <UtcTime date={inv.expiresAt} />
                    </span>
                  ) : (
                    <UtcTime date={inv.expiresAt} />
                  )}
                </td>
                <td className="py-2 text-right">
                  <RevokeButton taskId={taskId} invitationId={inv.id} email={inv.email} />
                </td>
              </tr>
            ))}
          </Table>
        </div>
      )}
      <InviteForm taskId={taskId} />
    </Card>
  );
}

/** The "Invite by email" form; after an invitation it shows the link once, to pass on by hand if needed. */
function InviteForm({ taskId }: { taskId: string }) {
  const [state, action, pending] = useActionState<InviteOrganizerState, FormData>(inviteOrganizerAction, { status: "idle", attempt: 0 });
  return (
    <InlineForm
      key={state.attempt}
      action={action}
      submit="Invite by email"
      pendingText="Inviting…"
      pending={pending}
      fieldClassName="sm:w-80"
      notice={
        <div aria-live="polite">
          {state.status === "invited" && (
            <Notice kind="success">
              <p>
                {state.mailed ? `We mailed an invitation to ${state.email}` : `The invitation to ${state.email} is made, but the mail could not be sent`}
                {state.replaced ? " (it replaces the earlier one, whose link no longer works)" : ""}. You can also pass on this link; it works
                only for that address:
              </p>
              <input
                readOnly
                value={state.url}
                aria-label={`Invitation link for ${state.email}`}
                data-testid="organizer-invitation-link"
                onFocus={(e) => e.currentTarget.select()}
                className="mt-2 w-full rounded-md border border-emerald-300 bg-white px-2 py-1 font-mono text-xs text-zinc-900"
              />
            </Notice>
          )}
        </div>
      }
    >
      <input type="hidden" name="taskId" value={taskId} />
      <Field
        label="Co-organizer's email address"
        name="email"
        type="email"
        required
        autoComplete="off"
        defaultValue={state.status === "error" ? state.value : ""}
        error={state.status === "error" ? state.message : undefined}
        hint="They can sign up with it if they have no account yet."
      />
    </InlineForm>
  );
}

/** A pending invitation's revoke button, with a failure announced beside it. */
function RevokeButton({ taskId, invitationId, email }: { taskId: string; invitationId: string; email: string }) {
  const [state, action, pending] = useActionState<RevokeOrganizerInvitationState, FormData>(revokeOrganizerInvitationAction, { status: "idle" });
  return (
    <form action={action} className="inline-flex flex-col items-end gap-1">
      <input type="hidden" name="taskId" value={taskId} />
      <input type="hidden" name="invitationId" value={invitationId} />
      <button type="submit" disabled={pending} className={secondaryButton} aria-label={`Revoke the invitation of ${email}`}>
        {pending ? "Revoking…" : "Revoke"}
      </button>
      <span aria-live="polite" className="text-xs text-red-700">
        {state.status === "error" ? state.message : ""}
      </span>
    </form>
  );
}
