import type { Metadata } from "next";
import { getTaskAnalysisSettings, type TaskAnalysisSettings, listOrganizerInvitations, publishChecks, evaluationChoices, evaluationFormValues, evaluationProfileSuggestion } from "@/lib/tasks";
import { Card } from "@/app/_components/ui";
import type { AnalysisSettingsValues } from "./actions";
import { AnalysisSettingsForm } from "./analysis-settings-form";
import { EvaluationSettingsForm } from "./evaluation-settings-form";
import { loadManagedTask, type ManageParams } from "./manage-page";
import { loadTaskForPage } from "../load-task";
import { TaskDetailsForm } from "./task-details-form";
import { taskDetailsValues } from "./task-details-values";
import { TaskStatusCard } from "./task-status-card";
import { OrganizersCard } from "./organizers-card";

/** Title: "Manage <task>" (organizers only reach the page; others get the 404 title). */
export async function generateMetadata({ params }: ManageParams): Promise<Metadata> {
  const { task } = await loadTaskForPage((await params).slug);
  return { title: task.isOrganizer ? `Manage ${task.title}` : "Not found" };
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
 * The console's overview tab (organizers and site admins only; 404 for everyone else): the
 * task's state with its publishing checklist and the Publish / Archive / Unarchive buttons,
 * its details (title, description, rules, licence, source), its evaluation profile, its
 * analysis settings and its organizers.
 */
export default async function ManageTaskPage({ params }: ManageParams) {
  const { viewer, task, now } = await loadManagedTask(params);
  const [analysis, checklist, invitations] = await Promise.all([
    getTaskAnalysisSettings(viewer, task.id),
    publishChecks(viewer, task.id, now),
    listOrganizerInvitations(viewer, task.id),
  ]);
  return (
    <div className="space-y-10">
      <h1 className="text-2xl font-semibold tracking-tight">Manage {task.title}</h1>

      <Card title="Status" description="A task is a draft until it is published, then public; an archived task stays public and becomes read-only.">
        <TaskStatusCard taskId={task.id} status={checklist.status} publishedAt={checklist.publishedAt} archivedAt={checklist.archivedAt} checks={checklist.checks} notes={checklist.notes} slug={task.slug} />
      </Card>

      <Card title="Task details" description="What the task page shows: the title, the description and the rules (markdown), the data licence and the data source.">
        <TaskDetailsForm taskId={task.id} initial={taskDetailsValues(task)} readOnly={task.status === "ARCHIVED"} />
      </Card>

      <Card
        title="Evaluation"
        description="How every run of this task is scored: the evaluation profile's primary setting ranks the leaderboards, and its secondary variants are computed beside it. Each run records the profile it was scored with."
      >
        <EvaluationSettingsForm taskId={task.id} initial={evaluationFormValues(task.evaluation)} choices={evaluationChoices()} suggestion={await evaluationProfileSuggestion(task.id)} />
      </Card>

      <Card
        title="Analysis"
        description="What the analysis pages show for every run of this task: the pronoun standard disclosure (its pronoun list and referential exclusions) and the optional mapped cluster F metric. Whether participants may see the error analysis of their runs is decided per phase, in the phase's settings."
      >
        <AnalysisSettingsForm taskId={task.id} initial={analysisValues(analysis)} />
      </Card>

      <OrganizersCard taskId={task.id} organizers={task.organizers} invitations={invitations} />
    </div>
  );
}
