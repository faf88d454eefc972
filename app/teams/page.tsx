import type { Metadata } from "next";
import { redirect } from "next/navigation";
import Link from "next/link";
import { getJoinCode, listTaskTeamsOf, listTeamsOf, membersOfMyTeams, type TeamMemberView, type TeamSummary } from "../../lib/services/teams";
import { getCurrentUser } from "../../lib/session";
import { TeamJoinCode } from "../_components/team-join-code";
import { Card, Table, UtcTime } from "../_components/ui";
import { CreateTeamForm, JoinTeamForm } from "./team-forms";

export const metadata: Metadata = { title: "Teams" };

/** One of the user's teams: name, their role, members, creation time and join code. */
function TeamItem({ team, members, joinCode }: { team: TeamSummary; members: TeamMemberView[]; joinCode: string }) {
  return (
    <li className="space-y-3 py-4 first:pt-0 last:pb-0" data-testid="team-item" aria-label={`Team ${team.name}`}>
      <div className="flex flex-wrap items-baseline gap-x-3">
        <h3 className="text-base font-semibold text-zinc-900" data-testid="team-name">
          {team.name}
        </h3>
        <span className="text-xs text-zinc-500">
          you are {team.role === "OWNER" ? "its owner" : "a member"} · created <UtcTime date={team.createdAt} />
        </span>
      </div>
      <div className="text-sm">
        <span className="text-zinc-500">
          {team.memberCount} member{team.memberCount === 1 ? "" : "s"}:{" "}
        </span>
        <span data-testid="team-members">
          {members.map((m, i) => (
            <span key={m.userId}>
              {i > 0 && ", "}
              {m.name}
              {m.role === "OWNER" && <span className="text-zinc-500"> (owner)</span>}
            </span>
          ))}
        </span>
      </div>
      <div className="space-y-1">
        <p className="text-xs text-zinc-500">Join code — anyone with it can join this team:</p>
        <TeamJoinCode code={joinCode} teamName={team.name} />
      </div>
    </li>
  );
}

/**
 * The signed-in user's teams (members and join codes), the team they submit for in each
 * task, and forms to create a team or join one by code. Anonymous visitors are sent to sign in.
 */
export default async function TeamsPage() {
  const user = await getCurrentUser();
  if (!user) redirect("/signin?callbackUrl=%2Fteams");
  const [teams, members, taskTeams] = await Promise.all([listTeamsOf(user.id), membersOfMyTeams(user.id), listTaskTeamsOf(user.id)]);
  const codes = await Promise.all(teams.map((t) => getJoinCode(user.id, t.id)));
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
              <TeamItem key={team.id} team={team} members={members.get(team.id) ?? []} joinCode={codes[i]} />
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
        <Card title="Join a team" description="Ask a member of the team for its join code.">
          <JoinTeamForm />
        </Card>
      </div>
    </div>
  );
}
