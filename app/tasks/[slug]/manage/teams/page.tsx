import type { Metadata } from "next";
import { listTaskParticipants, MAX_PARTICIPANTS, type TaskParticipantView } from "../../../../../lib/services/teams";
import { Card, Table, UtcTime } from "../../../../_components/ui";
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

/** The console's teams tab: the participants and the team each submits for. */
export default async function ManageTeamsPage({ params }: ManageParams) {
  const { viewer, task } = await loadManagedTask(params);
  const participants = await listTaskParticipants(viewer, task.id);
  return (
    <div className="space-y-8">
      <h1 className="text-2xl font-semibold tracking-tight">Teams</h1>
      <Card
        title={`Participants (${participants.length})`}
        description="Each participant submits for one team in this task: the team of their first run (baselines aside). Only organizers can change it; the participant must be a member of the new team. Changes are recorded in the audit log."
      >
        <ParticipantsTable taskId={task.id} participants={participants} />
      </Card>
    </div>
  );
}
