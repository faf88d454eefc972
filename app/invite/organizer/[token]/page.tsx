import type { Metadata } from "next";
import Link from "@/app/_components/link";
import { isDomainError } from "@/lib/errors";
import { previewOrganizerInvitation, type OrganizerInvitationPreview } from "@/lib/tasks";
import { getCurrentUser } from "@/lib/auth/session";
import { Notice, UtcTime, primaryButton } from "@/app/_components/ui";
import { acceptOrganizerInvitationAction } from "./actions";

export const metadata: Metadata = { title: "Organizer invitation", robots: { index: false, follow: false } };

const GONE: Record<Exclude<OrganizerInvitationPreview["status"], "pending">, string> = {
  accepted: "This invitation was already accepted; it works once.",
  revoked: "This invitation was revoked by the task's organizers.",
  expired: "This invitation has expired. Ask the organizer to invite you again.",
};

/**
 * The page a co-organizer invitation opens (`/invite/organizer/<token>`): the task and who
 * invited; signed-out visitors are asked to sign in (or sign up) with the invited address and
 * come back; a signed-in user with that address gets an Accept button, anyone else is told
 * which (masked) address the invitation was sent to. Opening the page accepts nothing.
 */
export default async function OrganizerInvitationPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const here = `/invite/organizer/${encodeURIComponent(token)}`;
  const user = await getCurrentUser();
  const viewer = user && { userId: user.id, role: user.role };
  let preview: OrganizerInvitationPreview | null = null;
  let problem: string | null = null;
  try {
    preview = await previewOrganizerInvitation(viewer, token);
  } catch (error) {
    if (!isDomainError(error)) throw error;
    problem = error.message;
  }
  return (
    <div className="mx-auto max-w-lg space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight">Organizer invitation</h1>
      <div className="space-y-4 rounded-lg border border-zinc-200 bg-white p-6 shadow-sm" aria-live="polite">
        {problem !== null || !preview ? (
          <Notice kind="error">{problem}</Notice>
        ) : (
          <>
            <p className="text-sm text-zinc-800">
              {preview.invitedBy ? <>{preview.invitedBy.name} invites you</> : <>You are invited</>} to co-organize the task{" "}
              <strong data-testid="invitation-task">{preview.task.title}</strong>. Organizers can edit the task and its phases, upload gold
              keys and see every run.
            </p>
            {preview.status !== "pending" ? (
              <Notice kind="error">{GONE[preview.status]}</Notice>
            ) : !user ? (
              <p className="text-sm">
                The invitation was sent to {preview.maskedEmail}.{" "}
                <Link href={`/signin?callbackUrl=${encodeURIComponent(here)}`} className="font-medium text-zinc-900 underline">
                  Sign in
                </Link>{" "}
                or{" "}
                <Link href={`/signup?callbackUrl=${encodeURIComponent(here)}`} className="font-medium text-zinc-900 underline">
                  create an account
                </Link>{" "}
                with that address to accept; you will come back here.
              </p>
            ) : !preview.forViewer ? (
              <Notice kind="error">
                This invitation was sent to {preview.maskedEmail}, but you are signed in as {user.email}. Sign out and sign in with that
                address to accept it.
              </Notice>
            ) : (
              <form action={acceptOrganizerInvitationAction} className="space-y-2">
                <input type="hidden" name="token" value={token} />
                <p className="text-xs text-zinc-500">
                  The invitation works once, until <UtcTime date={preview.expiresAt} />.
                </p>
                <button type="submit" className={primaryButton}>
                  Accept invitation
                </button>
              </form>
            )}
          </>
        )}
      </div>
    </div>
  );
}
