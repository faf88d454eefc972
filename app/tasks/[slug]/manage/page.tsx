import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { listDatasetsForOrganizers } from "../../../../lib/services/datasets";
import { listGoldVersions } from "../../../../lib/services/gold";
import { listSubmissionsForPhase } from "../../../../lib/services/submissions";
import { getTaskAnalysisSettings, type TaskAnalysisSettings } from "../../../../lib/services/task-analysis";
import { evaluationChoices, evaluationFormValues } from "../../../../lib/services/task-evaluation";
import { listTaskParticipants, MAX_PARTICIPANTS, type TaskParticipantView } from "../../../../lib/services/teams";
import { listTracksForOrganizers } from "../../../../lib/services/tracks";
import type { PhaseView } from "../../../../lib/services/tasks";
import { uploadLimitBytes } from "../../../../lib/services/uploads";
import { getUserById } from "../../../../lib/services/users";
import type { Viewer } from "../../../../lib/session";
import { TaskPhaseBadge, phaseState } from "../../../_components/task-phase-badge";
import { phaseValuesFromPhase } from "../../../_components/task-phase-form-data";
import { Card, Table, UtcTime } from "../../../_components/ui";
import { loadTaskForPage } from "../load-task";
import type { AnalysisSettingsValues } from "./actions";
import { AddOrganizerForm } from "./add-organizer-form";
import { AnalysisSettingsForm } from "./analysis-settings-form";
import { EvaluationSettingsForm } from "./evaluation-settings-form";
import { GoldUploadForm } from "./gold-upload-form";
import { GoldVersionsTable } from "./gold-versions-table";
import { ParticipantTeamForm } from "./participant-team-form";
import { PhaseSettingsForm } from "./phase-settings-form";
import { PhaseSubmissionsTable } from "./phase-submissions-table";
import { PhaseDatasetsForm } from "./datasets-form";
import { PhaseTracksForm } from "./tracks-form";

type Params = { params: Promise<{ slug: string }> };

/** Title: "Manage <task>" (organizers only reach the page; others get the 404 title). */
export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const { task } = await loadTaskForPage((await params).slug);
  return { title: task.isOrganizer ? `Manage ${task.title}` : "Not found" };
}

/** Names of the users who uploaded gold keys, by id. */
async function uploaderNames(ids: string[]): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  for (const id of new Set(ids)) {
    const user = await getUserById(id);
    if (user) names.set(id, user.name);
  }
  return names;
}

/** One phase: datasets, gold key upload and versions, settings, tracks, submissions. */
async function PhaseSection({ phase, viewer, now, maxBytes, needsHeads }: { phase: PhaseView; viewer: Viewer; now: Date; maxBytes: number; needsHeads: boolean }) {
  const [versions, submissions, tracks, datasets] = await Promise.all([
    listGoldVersions(viewer, phase.id),
    listSubmissionsForPhase(viewer, phase.id),
    listTracksForOrganizers(viewer, phase.id),
    listDatasetsForOrganizers(viewer, phase.id),
  ]);
  const several = datasets.length > 1;
  const uploaders = await uploaderNames(versions.map((v) => v.uploadedById));
  return (
    <section id={`phase-${phase.id}`} aria-label={`Phase ${phase.name}`} className="space-y-4 scroll-mt-6" data-testid="manage-phase">
      <div className="flex items-center gap-3">
        <h2 className="text-xl font-semibold tracking-tight">Phase: {phase.name}</h2>
        <TaskPhaseBadge state={phaseState(phase, now)} />
      </div>
      <Card
        title={`Datasets (${datasets.length})`}
        description="Each dataset has its own gold key. With several datasets, a run is one archive (.zip or .tar.gz) holding each dataset's file under its expected file name; the leaderboard ranks the macro-average over the datasets with a gold key, a dataset a run leaves out counting 0. A dataset that runs have files for cannot be deleted."
      >
        <PhaseDatasetsForm phaseId={phase.id} datasets={datasets} needsHeads={needsHeads} />
      </Card>
      <Card
        title={several ? "Gold keys" : "Gold key"}
        description={
          several
            ? "Upload one dataset's gold key, or an archive with a file per dataset. A new version becomes its dataset's active key and re-queues every submission of this phase; only the datasets whose gold key changed are scored again."
            : "Uploading a new version makes it the active key and re-queues every submission of this phase for scoring."
        }
      >
        <GoldUploadForm phaseId={phase.id} maxBytes={maxBytes} needsHeads={needsHeads} datasets={datasets.map((d) => ({ id: d.id, name: d.name, fileName: d.fileName }))} />
        <div className="mt-6">
          <h3 className="mb-2 text-sm font-semibold text-zinc-900">Versions</h3>
          <GoldVersionsTable versions={versions} uploaders={uploaders} showDataset={several} />
        </div>
      </Card>
      <Card title="Settings">
        <PhaseSettingsForm phaseId={phase.id} initial={phaseValuesFromPhase(phase)} />
      </Card>
      <Card
        title={`Tracks (${tracks.length})`}
        description="Tracks (e.g. LLM and unconstrained) are ranked separately, each on its own board with the baselines as reference rows. Once a phase has tracks, every run must declare one. Runs count against the phase's limits, shared by all tracks, unless a track has limits of its own: then only its runs count, against those. A track with runs cannot be deleted."
      >
        <PhaseTracksForm phaseId={phase.id} tracks={tracks} />
      </Card>
      <Card title={`Submissions (${submissions.length})`}>
        <PhaseSubmissionsTable submissions={submissions} withTracks={tracks.length > 0 || submissions.some((s) => s.track !== null)} />
      </Card>
    </section>
  );
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

/** The analysis-settings form's first values (as `updateTaskAnalysisAction` builds them after a save). */
function analysisValues(settings: TaskAnalysisSettings): AnalysisSettingsValues {
  return {
    englishLexicon: settings.englishLexicon,
    lexiconText: settings.lexiconText,
    categories: settings.categories,
    excludedCategories: settings.excludedCategories,
    mappedClusterF: settings.mappedClusterF,
    englishText: settings.englishLexicon ? settings.lexiconText : null,
  };
}

/**
 * Managing a task (its organizers and site admins only; 404 for everyone else): per phase
 * the datasets (add, edit, delete), the gold keys (upload per dataset or as an archive,
 * versions), settings, tracks (add, edit, reorder, delete) and submissions; the task's evaluation profile;
 * the task's analysis settings;
 * the participants with the team each submits for (and a control to change it); and the
 * task's organizers.
 */
export default async function ManageTaskPage({ params }: Params) {
  const { viewer, task, now } = await loadTaskForPage((await params).slug);
  if (!viewer || !task.isOrganizer) notFound();
  const maxBytes = uploadLimitBytes();
  const [analysis, participants] = await Promise.all([getTaskAnalysisSettings(viewer, task.id), listTaskParticipants(viewer, task.id)]);
  return (
    <div className="space-y-10">
      <header className="space-y-1">
        <p className="text-sm text-zinc-500">
          <Link href={`/tasks/${encodeURIComponent(task.slug)}`} className="underline hover:text-zinc-900">
            {task.title}
          </Link>{" "}
          / manage
        </p>
        <h1 className="text-2xl font-semibold tracking-tight">Manage {task.title}</h1>
        <p className="text-sm">
          <Link href={`/tasks/${encodeURIComponent(task.slug)}/manage/audit`} className="underline hover:text-zinc-900">
            Audit log
          </Link>
        </p>
      </header>

      {task.phases.map((phase) => (
        <PhaseSection key={phase.id} phase={phase} viewer={viewer} now={now} maxBytes={maxBytes} needsHeads={task.evaluation.needsHeads} />
      ))}

      <Card
        title="Evaluation"
        description="How every run of this task is scored: the evaluation profile's primary setting ranks the leaderboards, and its secondary variants are computed beside it. Each run records the profile it was scored with."
      >
        <EvaluationSettingsForm taskId={task.id} initial={evaluationFormValues(task.evaluation)} choices={evaluationChoices()} />
      </Card>

      <Card
        title="Analysis"
        description="What the analysis pages show for every run of this task: the pronoun standard disclosure (its pronoun list and referential exclusions) and the optional mapped cluster F metric. Whether participants may see the error analysis of their runs is decided per phase, in the phase's settings."
      >
        <AnalysisSettingsForm taskId={task.id} initial={analysisValues(analysis)} />
      </Card>

      <Card
        title={`Participants (${participants.length})`}
        description="Each participant submits for one team in this task: the team of their first run (baselines aside). Only organizers can change it; the participant must be a member of the new team. Changes are recorded in the audit log."
      >
        <ParticipantsTable taskId={task.id} participants={participants} />
      </Card>

      <Card title="Organizers" description="Organizers can change phases, upload gold keys and see every submission. Site admins can do so for every task.">
        <ul className="mb-4 space-y-1 text-sm" data-testid="organizer-list">
          {task.organizers.map((o) => (
            <li key={o.id}>{o.name}</li>
          ))}
        </ul>
        <AddOrganizerForm taskId={task.id} />
      </Card>
    </div>
  );
}
