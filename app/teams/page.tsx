import type { Metadata } from "next";
import { redirect } from "next/navigation";
import Link from "../_components/link";
import { listTeamInvitations, type TeamInvitationView, getJoinCode, listTaskTeamsOf, listTeamsOf, membersOfMyTeams, type TeamMemberView, type TeamSummary, listTeamRunActions, type TeamRunActionView } from "@/lib/teams";
import { getCurrentUser } from "@/lib/auth/session";
import { TeamJoinCode } from "../_components/team-join-code";
import { Card, Table, UtcTime } from "../_components/ui";
import { CreateTeamForm, JoinTeamForm } from "./team-forms";
import { CreateTeamInvitationForm, RevokeTeamInvitationButton } from "./team-invitations";
import { TeamMemberButton } from "./team-members";

export const metadata: Metadata = { title: "Teams" };

const STATUS_TEXT: Record<TeamInvitationView["status"], string> = { active: "active", expired: "expired", revoked: "revoked", used: "used up" };

/**
 * A team's invitation links: when made and by whom, expiry, uses of the allowed uses, status;
 * for owners, the form to make one and a revoke button for working ones.
 */
function TeamInvitations({ team, invitations }: { team: TeamSummary; invitations: TeamInvitationView[] }) {
  const owner = team.role === "OWNER";
  return (
    <div className="space-y-2">
      <p className="text-xs text-zinc-500">
        Invitation links — whoever opens one, signed in, joins this team. A link lets in as many people as its owner chose (one unless said
        otherwise) and works for 14 days, until revoked; it is shown only once. Only owners make and revoke links.
      </p>
      {owner && <CreateTeamInvitationForm teamId={team.id} teamName={team.name} />}
      {invitations.length > 0 && (
        <Table label={`Invitation links of ${team.name}`} testId="team-invitations" columns={["Created", "By", "Expires", "Uses", "Status", { label: "Actions", srOnly: true }]}>
          {invitations.map((inv) => (
            <tr key={inv.id} data-testid="team-invitation-row">
              <td className="py-2 pr-4 text-zinc-600">
                <UtcTime date={inv.createdAt} />
              </td>
              <td className="py-2 pr-4">{inv.createdBy?.name ?? "—"}</td>
              <td className="py-2 pr-4 text-zinc-600">
                <UtcTime date={inv.expiresAt} />
              </td>
              <td className="py-2 pr-4 tabular-nums">
                {inv.uses} of {inv.maxUses}
              </td>
              <td className="py-2 pr-4">{STATUS_TEXT[inv.status]}</td>
              <td className="py-2 text-right">
                {owner && inv.status === "active" && (
                  <RevokeTeamInvitationButton teamId={team.id} invitationId={inv.id} label={`Revoke the invitation link created ${inv.createdAt.toISOString().slice(0, 16).replace("T", " ")} UTC`} />
                )}
              </td>
            </tr>
          ))}
        </Table>
      )}
    </div>
  );
}

/**
 * A team's members, owners first, with the viewer's buttons: Leave on their own row; for an
 * owner, Make owner (on members) and Remove (on everyone else).
 */
function TeamMembers({ team, members, viewerId }: { team: TeamSummary; members: TeamMemberView[]; viewerId: string }) {
  const owner = team.role === "OWNER";
  return (
    <Table label={`Members of ${team.name}`} testId="team-members" columns={["Member", "Role", { label: "Actions", srOnly: true }]}>
      {members.map((m) => (
        <tr key={m.userId} data-testid="team-member-row">
          <td className="py-2 pr-4">
            {m.name}
            {m.userId === viewerId && <span className="text-zinc-500"> (you)</span>}
          </td>
          <td className="py-2 pr-4">{m.role === "OWNER" ? "owner" : "member"}</td>
          <td className="space-x-2 py-2 text-right">
            {m.userId === viewerId ? (
              <TeamMemberButton step="leave" teamId={team.id} teamName={team.name} userId={m.userId} memberName={m.name} />
            ) : (
              owner && (
                <>
                  {m.role === "MEMBER" && <TeamMemberButton step="owner" teamId={team.id} teamName={team.name} userId={m.userId} memberName={m.name} />}
                  <TeamMemberButton step="remove" teamId={team.id} teamName={team.name} userId={m.userId} memberName={m.name} />
                </>
              )
            )}
          </td>
        </tr>
      ))}
    </Table>
  );
}

const RUN_ACTION_TEXT: Record<TeamRunActionView["kind"], string> = { withdraw: "withdrew", final_select: "chose as a final run", final_unselect: "removed from the final runs" };

/** Who withdrew which of the team's runs and who chose or unchose its final runs, and when (newest first). */
function TeamRunActions({ team, actions }: { team: TeamSummary; actions: TeamRunActionView[] }) {
  if (actions.length === 0) return null;
  return (
    <Table label={`Withdrawals and final-run choices of ${team.name}`} testId="team-run-actions" columns={["When", "Who", "What", "Run"]}>
      {actions.map((a, i) => (
        <tr key={`${a.run.id}-${a.kind}-${i}`} data-testid="team-run-action-row">
          <td className="py-2 pr-4 text-zinc-600">
            <UtcTime date={a.at} />
          </td>
          <td className="py-2 pr-4">{a.actor?.name ?? "a deleted account"}</td>
          <td className="py-2 pr-4">{RUN_ACTION_TEXT[a.kind]}</td>
          <td className="py-2">
            <Link href={`/submissions/${a.run.id}`} className="underline">
              {a.run.systemName}
            </Link>{" "}
            <span className="text-zinc-500">
              ({a.run.task.title}, {a.run.phaseName})
            </span>
          </td>
        </tr>
      ))}
    </Table>
  );
}

/** One of the user's teams: name, their role, members, creation time, join code (owners), invitation links, and who withdrew or chose which runs. */
function TeamItem({
  team,
  members,
  joinCode,
  invitations,
  runActions,
  viewerId,
}: {
  team: TeamSummary;
  members: TeamMemberView[];
  joinCode: string | null;
  invitations: TeamInvitationView[];
  runActions: TeamRunActionView[];
  viewerId: string;
}) {
  return (
    <li className="space-y-3 py-4 first:pt-0 last:pb-0" data-testid="team-item" aria-label={`Team ${team.name}`}>
      <div className="flex flex-wrap items-baseline gap-x-3">
        <h3 className="text-base font-semibold text-zinc-900" data-testid="team-name">
          {team.name}
        </h3>
        <span className="text-xs text-zinc-500">
          you are {team.role === "OWNER" ? "an owner" : "a member"} · {team.memberCount} member{team.memberCount === 1 ? "" : "s"} · created{" "}
          <UtcTime date={team.createdAt} />
        </span>
      </div>
      <TeamMembers team={team} members={members} viewerId={viewerId} />
      {joinCode !== null && (
        <div className="space-y-1">
          <p className="text-xs text-zinc-500">Join code — anyone with it can join this team (only owners see it):</p>
          <TeamJoinCode code={joinCode} teamName={team.name} />
        </div>
      )}
      <TeamInvitations team={team} invitations={invitations} />
      <TeamRunActions team={team} actions={runActions} />
    </li>
  );
}

/**
 * The signed-in user's teams (members with Remove, Leave and Make owner; join codes and invitation links), the team they submit for in each
 * task, and forms to create a team or join one by code. Anonymous visitors are sent to sign in.
 */
export default async function TeamsPage() {
  const user = await getCurrentUser();
  if (!user) redirect("/signin?callbackUrl=%2Fteams");
  const [teams, members, taskTeams] = await Promise.all([listTeamsOf(user.id), membersOfMyTeams(user.id), listTaskTeamsOf(user.id)]);
  const viewer = { userId: user.id, role: user.role };
  const [codes, invitations, runActions] = await Promise.all([
    Promise.all(teams.map((t) => (t.role === "OWNER" ? getJoinCode(user.id, t.id) : null))),
    Promise.all(teams.map((t) => listTeamInvitations(viewer, t.id))),
    Promise.all(teams.map((t) => listTeamRunActions(viewer, t.id))),
  ]);
  return (
    <div className="space-y-8">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Teams</h1>
        <p className="mt-1 text-sm text-zinc-600">
          Runs are submitted for a team, and limits count per team. If you submit without a team, a personal team is made for you. In each
          task you submit for one team: the team of your first run there, in every phase; only the task&apos;s organizers can change it.
        </p>
      </div>

      <Card title="Your teams">
        {teams.length === 0 ? (
          <p className="text-sm text-zinc-600">You are not in a team yet. Create one, or join one with a code from a teammate.</p>
        ) : (
          <ul className="divide-y divide-zinc-100">
            {teams.map((team, i) => (
              <TeamItem key={team.id} team={team} members={members.get(team.id) ?? []} joinCode={codes[i]} invitations={invitations[i]} runActions={runActions[i]} viewerId={user.id} />
            ))}
          </ul>
        )}
      </Card>

      {taskTeams.length > 0 && (
        <Card title="Your team in each task" description="Fixed by your first run in the task; ask the task's organizers if it has to change.">
          <Table caption="The team you submit for in each task" testId="task-teams" columns={["Task", "Team", "Since"]}>
            {taskTeams.map((t) => (
              <tr key={t.task.id}>
                <td className="py-2 pr-4">
                  <Link href={`/tasks/${encodeURIComponent(t.task.slug)}`} className="font-medium underline">
                    {t.task.title}
                  </Link>
                </td>
                <td className="py-2 pr-4">{t.team.name}</td>
                <td className="py-2 text-zinc-600">
                  <UtcTime date={t.since} />
                </td>
              </tr>
            ))}
          </Table>
        </Card>
      )}

      <div className="grid gap-8 lg:grid-cols-2">
        <Card title="Create a team">
          <CreateTeamForm />
        </Card>
        <Card title="Join a team" description="Ask an owner of the team for its join code or an invitation link.">
          <JoinTeamForm />
        </Card>
      </div>
    </div>
  );
}
