import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { listApiTokens, type ApiTokenInfo, soleOrganizedTasks, type SoleOrganizedTask, emailConfirmationState, SITE_ROLE_LABELS } from "@/lib/accounts";
import { getCurrentUser, type CurrentUser } from "@/lib/auth/session";
import Link from "../_components/link";
import { Card, Notice, Table, UtcTime, secondaryButton } from "../_components/ui";
import { revokeTokenAction } from "./actions";
import { ChangeEmailForm } from "./change-email-form";
import { ConfirmEmailNotice } from "./confirm-email-notice";
import { ChangePasswordForm } from "./change-password-form";
import { CreateTokenForm } from "./create-token-form";
import { DeleteAccountForm } from "./delete-account-form";
import { SignOutEverywhereButton } from "./sign-out-everywhere-button";

export const metadata: Metadata = { title: "Account" };

/** The signed-in user's profile, email address, password, sessions, API tokens and account deletion. */
export default async function AccountPage() {
  const user = await getCurrentUser();
  if (!user) redirect("/signin?callbackUrl=%2Faccount");
  const [tokens, soleTasks, confirmation] = await Promise.all([listApiTokens(user.id), soleOrganizedTasks(user.id), emailConfirmationState({ userId: user.id, role: user.role })]);
  return (
    <div className="space-y-8">
      <h1 className="text-2xl font-semibold tracking-tight">Account</h1>

      {!confirmation.confirmed && (
        <Card title="Confirm your e-mail address">
          <ConfirmEmailNotice email={confirmation.email} />
        </Card>
      )}

      <ProfileCard user={user} />

      <Card
        title="Email address"
        description="We mail a confirmation link to the new address, and a notice to the current one. The change happens when the link is confirmed, within one hour; then every session is signed out and you sign in with the new address."
      >
        <ChangeEmailForm />
      </Card>

      <Card
        title="Password"
        description="Changing your password signs you out on every other browser and device (this one stays signed in) and revokes all your API tokens: scripts need a new token afterwards."
      >
        <ChangePasswordForm email={user.email} />
      </Card>

      <SessionsCard />

      <ApiTokensCard tokens={tokens} />

      <DeleteAccountCard soleTasks={soleTasks} />
    </div>
  );
}

/** The user's name, email address and site role. */
function ProfileCard({ user }: { user: CurrentUser }) {
  return (
    <Card title="Profile">
      <dl className="grid grid-cols-[6rem_minmax(0,1fr)] gap-y-2 text-sm sm:grid-cols-[8rem_minmax(0,1fr)]">
        <dt className="text-zinc-500">Name</dt>
        <dd className="break-words" data-testid="profile-name">{user.name}</dd>
        <dt className="text-zinc-500">Email</dt>
        <dd className="break-all" data-testid="profile-email">{user.email}</dd>
        <dt className="text-zinc-500">Role</dt>
        <dd>{SITE_ROLE_LABELS[user.role]}</dd>
      </dl>
    </Card>
  );
}

/** What signing out does to the browser sessions, and "Sign out everywhere". */
function SessionsCard() {
  return (
    <Card
      title="Sessions"
      description={
        <>
          Your browser sessions share one version: signing out anywhere (the Sign out button at the top) ends all of them, on
          every browser and device, including any copy of the session cookie. Use <strong>Sign out everywhere</strong> from
          here when you signed in on a computer you no longer have at hand or think someone copied your session: it also
          revokes all your API tokens, since whoever had your session could have created one. A password change or reset
          revokes them too.
        </>
      }
    >
      <SignOutEverywhereButton />
    </Card>
  );
}

/** Creating an API token, and the user's tokens (revoked ones too) with a Revoke button for each active one. */
function ApiTokensCard({ tokens }: { tokens: ApiTokenInfo[] }) {
  return (
    <Card
      title="API tokens"
      description={
        <>
          Tokens let scripts act as you, e.g. to upload submissions: send{" "}
          <code className="rounded bg-zinc-100 px-1 font-mono text-xs">Authorization: Bearer &lt;token&gt;</code>. Creating one
          asks for your password. Revoke a token you no longer use; <strong>Sign out everywhere</strong>, changing your password
          and resetting it revoke all of them (signing out does not). Revoked tokens stay listed, so that you can see when each
          was last used.
        </>
      }
    >
      <CreateTokenForm />
      {tokens.length > 0 && (
        <div className="mt-6">
          <Table label="Your API tokens" columns={["Name", "Created", "Last used", "Status", { label: "Actions", srOnly: true }]}>
            {tokens.map((token) => (
              <ApiTokenRow key={token.id} token={token} />
            ))}
          </Table>
        </div>
      )}
    </Card>
  );
}

/** One token: name, created, last used, status (active, or revoked when), and Revoke while active. */
function ApiTokenRow({ token }: { token: ApiTokenInfo }) {
  return (
    <tr data-testid="token-row">
      <td className="py-2 pr-4 font-medium">{token.name}</td>
      <td className="py-2 pr-4 text-zinc-600">
        <UtcTime date={token.createdAt} />
      </td>
      <td className="py-2 pr-4 text-zinc-600">{token.lastUsedAt ? <UtcTime date={token.lastUsedAt} /> : "never"}</td>
      <td className="py-2 pr-4">
        {token.revokedAt ? (
          <span className="text-zinc-500">
            revoked <UtcTime date={token.revokedAt} />
          </span>
        ) : (
          <span className="text-emerald-700">active</span>
        )}
      </td>
      <td className="py-2 text-right">
        {!token.revokedAt && (
          <form action={revokeTokenAction}>
            <input type="hidden" name="tokenId" value={token.id} />
            <button type="submit" className={secondaryButton} aria-label={`Revoke ${token.name}`}>
              Revoke
            </button>
          </form>
        )}
      </td>
    </tr>
  );
}

/** What deleting the account does, the tasks the user is the only organizer of (to hand over first), and the deletion form. */
function DeleteAccountCard({ soleTasks }: { soleTasks: SoleOrganizedTask[] }) {
  return (
    <Card
      title="Delete account"
      description="Deleting your account signs you out everywhere and removes your name, email address, password, API tokens and team memberships for good. Runs you submitted stay with their teams, shown as submitted by “deleted user”. If you own a team with other members, its longest-standing member becomes its owner."
    >
      {soleTasks.length > 0 && (
        <div className="mb-4">
          <Notice kind="info">
            You are the only organizer of{" "}
            {soleTasks.map((t, i) => (
              <span key={t.id}>
                {i > 0 && ", "}
                <Link href={`/tasks/${encodeURIComponent(t.slug)}/manage`} className="font-medium underline">
                  {t.title}
                </Link>
              </span>
            ))}
            . Invite a co-organizer or archive {soleTasks.length === 1 ? "it" : "them"} before deleting your account.
          </Notice>
        </div>
      )}
      <DeleteAccountForm />
    </Card>
  );
}
