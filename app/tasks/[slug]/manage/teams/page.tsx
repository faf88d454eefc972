import type { Metadata } from "next";
import Link from "@/app/_components/link";
import { listTaskTeamStats, type TaskTeamsPage } from "@/lib/runs";
import { listTaskParticipants, MAX_PARTICIPANTS, type TaskParticipantView } from "@/lib/teams";
import { Card, Notice, secondaryButton, Table, UtcTime } from "@/app/_components/ui";
import { loadManagedTask, manageMetadata, type ManageParams } from "../manage-page";
import { ParticipantTeamForm } from "../participant-team-form";

/** Title: "Teams · Manage <task>". */
export async function generateMetadata({ params }: ManageParams): Promise<Metadata> {
  return manageMetadata(params, "Teams");
}

/** The task's participants: user, recorded team, since when, and the control to change the team. */
function ParticipantsTable({ taskId, participants }: { taskId: string; participants: TaskParticipantView[] }) {
  if (participants.length === 0) return <p className="text-sm text-zinc-600">Nobody has submitted a run in this task yet.</p>;
  return (
    <>
      <Table caption="Participants and the team each submits for" testId="participants-table" columns={["Participant", "Team", "Since", { label: "Change", srOnly: true }]}>
        {participants.map((p) => (
          <tr key={p.user.id} data-testid="participant-row">
            <td className="py-2 pr-4 font-medium">{p.user.name}</td>
            <td className="py-2 pr-4" data-testid="participant-team">
              {p.team.name}
            </td>
            <td className="py-2 pr-4 text-zinc-600">
              <UtcTime date={p.since} />
            </td>
            <td className="py-2">
              <ParticipantTeamForm taskId={taskId} userId={p.user.id} userName={p.user.name} current={p.team.id} teams={p.teams} />
            </td>
          </tr>
        ))}
      </Table>
      {participants.length >= MAX_PARTICIPANTS && <p className="mt-2 text-xs text-zinc-500">Only the first {MAX_PARTICIPANTS.toLocaleString("en")} participants are listed.</p>}
    </>
  );
}

/** The task's teams with their members, runs and last run, one page, and links to the other pages. */
function TeamsTable({ slug, page }: { slug: string; page: TaskTeamsPage }) {
  if (page.total === 0) return <p className="text-sm text-zinc-600">No team has a run in this task yet.</p>;
  const href = (n: number) => `/tasks/${encodeURIComponent(slug)}/manage/teams?page=${n}`;
  return (
    <div className="space-y-3">
      <Table
        caption={`Teams of the task, latest run first, page ${page.page} of ${page.pages}`}
        testId="team-stats-table"
        columns={["Team", { label: "Members", right: true }, { label: "Runs in the task", right: true }, "Last run (UTC)", { label: "Runs", srOnly: true }]}
      >
        {page.teams.map((team) => (
          <tr key={team.id} data-testid="team-stats-row">
            <td className="py-2 pr-4 font-medium">{team.name}</td>
            <td className="py-2 pr-4 text-right tabular-nums">{team.members}</td>
            <td className="py-2 pr-4 text-right tabular-nums">
              {team.runs}
              {team.baselineRuns > 0 && <span className="block text-xs text-zinc-500">{team.baselineRuns} baseline{team.baselineRuns === 1 ? "" : "s"}</span>}
            </td>
            <td className="whitespace-nowrap py-2 pr-4 text-zinc-600">{team.lastRunAt ? <UtcTime date={team.lastRunAt} /> : "—"}</td>
            <td className="py-2">
              {team.runs > 0 && (
                <Link href={`/tasks/${encodeURIComponent(slug)}/manage/submissions?team=${team.id}`} className="whitespace-nowrap underline">
                  Runs<span className="sr-only"> of {team.name}</span>
                </Link>
              )}
            </td>
          </tr>
        ))}
      </Table>
      {page.pages > 1 && (
        <nav aria-label="Pages of teams" className="flex items-center gap-3 text-sm">
          {page.page > 1 && (
            <Link href={href(page.page - 1)} className={secondaryButton} rel="prev">
              Previous
            </Link>
          )}
          <span className="text-zinc-600">
            Page {page.page} of {page.pages}
          </span>
          {page.page < page.pages && (
            <Link href={href(page.page + 1)} className={secondaryButton} rel="next">
              Next
            </Link>
          )}
        </nav>
      )}
    </div>
  );
}

/** The console's teams tab: the task's teams with their counts (`?page=`), and the participants and the team each submits for. */
export default async function ManageTeamsPage({ params, searchParams }: ManageParams & { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { viewer, task } = await loadManagedTask(params);
  const raw = (await searchParams).page;
  const asked = Array.isArray(raw) ? raw[0] : raw;
  const pageNumber = asked && /^\d{1,6}$/.test(asked) && Number(asked) >= 1 ? Number(asked) : 1;
  const [participants, teams] = await Promise.all([listTaskParticipants(viewer, task.id), listTaskTeamStats(viewer, task.id, pageNumber)]);
  return (
    <div className="space-y-8">
      <h1 className="text-2xl font-semibold tracking-tight">Teams</h1>
      {asked !== undefined && String(pageNumber) !== asked && <Notice kind="info">No such page; showing the first.</Notice>}
      <Card title={`Teams (${teams.total})`} description="Every team with a run in this task (in any phase, baselines included) or recorded for a participant: its members, its runs and its latest run.">
        <TeamsTable slug={task.slug} page={teams} />
      </Card>
      <Card
        title={`Participants (${participants.length})`}
        description="Each participant submits for one team in this task: the team of their first run (baselines aside). Only organizers can change it; the participant must be a member of the new team. Changes are recorded in the audit log."
      >
        <ParticipantsTable taskId={task.id} participants={participants} />
      </Card>
    </div>
  );
}
