import type { Metadata } from "next";
import Link from "@/app/_components/link";
import { isDomainError } from "@/lib/errors";
import { previewTeamInvitation, type TeamInvitationPreview } from "@/lib/teams";
import { getViewer } from "@/lib/auth/session";
import { Notice, UtcTime, primaryButton } from "@/app/_components/ui";
import { acceptTeamInvitationAction } from "./actions";

export const metadata: Metadata = { title: "Team invitation", robots: { index: false, follow: false } };

/** The preview of a link, or the message of why there is none (unknown link). */
async function load(token: string): Promise<{ preview: TeamInvitationPreview } | { problem: string }> {
  try {
    return { preview: await previewTeamInvitation(await getViewer(), token) };
  } catch (error) {
    if (isDomainError(error)) return { problem: error.message };
    throw error;
  }
}

/**
 * The page a team invitation link opens (`/invite/team/<token>`): the team, who invited, and
 * a Join button for a signed-in user; signed-out visitors are asked to sign in (or sign up)
 * and come back here. A revoked, expired or used-up link says so. Opening the page joins nothing.
 */
export default async function TeamInvitationPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const here = `/invite/team/${encodeURIComponent(token)}`;
  const viewer = await getViewer();
  const result = await load(token);
  return (
    <div className="mx-auto max-w-lg space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight">Team invitation</h1>
      <div className="space-y-4 rounded-lg border border-zinc-200 bg-white p-6 shadow-sm" aria-live="polite">
        {"problem" in result ? (
          <Notice kind="error">{result.problem}</Notice>
        ) : (
          <>
            <p className="text-sm text-zinc-800">
              {result.preview.invitedBy ? <>{result.preview.invitedBy.name} invites you</> : <>You are invited</>} to join the team{" "}
              <strong data-testid="invitation-team">{result.preview.team.name}</strong> ({result.preview.team.memberCount} member
              {result.preview.team.memberCount === 1 ? "" : "s"}).
            </p>
            {result.preview.status === "revoked" && <Notice kind="error">This team invitation link was revoked by the team. Ask a member for a new one.</Notice>}
            {result.preview.status === "expired" && <Notice kind="error">This team invitation link has expired. Ask a member of the team for a new one.</Notice>}
            {result.preview.status === "used" &&
              (result.preview.alreadyMember ? (
                <Notice kind="info">
                  You are already a member of this team.{" "}
                  <Link href="/teams" className="font-medium underline">
                    Your teams
                  </Link>
                </Notice>
              ) : (
                <Notice kind="error">This team invitation link has already been used as many times as it allows. Ask an owner of the team for a new one.</Notice>
              ))}
            {result.preview.status === "active" &&
              (!viewer ? (
                <p className="text-sm">
                  <Link href={`/signin?callbackUrl=${encodeURIComponent(here)}`} className="font-medium text-zinc-900 underline">
                    Sign in
                  </Link>{" "}
                  or{" "}
                  <Link href={`/signup?callbackUrl=${encodeURIComponent(here)}`} className="font-medium text-zinc-900 underline">
                    create an account
                  </Link>{" "}
                  to join; you will come back here.
                </p>
              ) : result.preview.alreadyMember ? (
                <Notice kind="info">
                  You are already a member of this team.{" "}
                  <Link href="/teams" className="font-medium underline">
                    Your teams
                  </Link>
                </Notice>
              ) : (
                <form action={acceptTeamInvitationAction} className="space-y-2">
                  <input type="hidden" name="token" value={token} />
                  <p className="text-xs text-zinc-500">
                    The link works until <UtcTime date={result.preview.expiresAt} />. Runs you submit for this team count against its limits.
                  </p>
                  <button type="submit" className={primaryButton}>
                    Join team
                  </button>
                </form>
              ))}
          </>
        )}
      </div>
    </div>
  );
}
