import type { Metadata } from "next";
import Link from "../../_components/link";
import { metricF1Name } from "../../_components/metric-name";
import { TaskLinkifiedText, TaskMarkdown } from "../../_components/task-markdown";
import { secondaryButton } from "../../_components/ui";
import { getTaskStanding } from "@/lib/runs";
import { alsoScoredText } from "@/lib/tasks";
import { loadTaskForPage } from "./load-task";
import { PhaseResultsLink } from "./phase-results-link";
import { TaskPhaseCard } from "./task-phase-card";
import { ParticipantFileLinks } from "./participant-files";
import { TaskRules } from "./task-rules";
import { TaskStatusBanner } from "./task-status-banner";
import { YourStanding } from "./your-standing";

type Params = { params: Promise<{ slug: string }> };

/** The page title is the task's title. */
export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const { task } = await loadTaskForPage((await params).slug);
  return { title: task.title };
}

/**
 * A task: title, organizers, the viewer's team's standing, data licence and source,
 * description, scoring (the ranking metric, the evaluation profile's label and its secondary
 * variants), and its phases with windows, limits, final results and the links the viewer may use. 404 for an unknown slug. Never
 * shows gold content; gold metadata only to organizers.
 */
export default async function TaskPage({ params }: Params) {
  const { viewer, task, now } = await loadTaskForPage((await params).slug);
  const alsoScored = alsoScoredText(task.evaluation.variants);
  const standing = await getTaskStanding(viewer, task.id, now);
  return (
    <article className="space-y-8">
      <header className="space-y-2">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <h1 className="text-3xl font-semibold tracking-tight" data-testid="task-title">
            {task.title}
          </h1>
          {task.isOrganizer && (
            <Link href={`/tasks/${encodeURIComponent(task.slug)}/manage`} className={secondaryButton}>
              Manage task
            </Link>
          )}
        </div>
        <p className="text-sm text-zinc-600" data-testid="task-organizers">
          {task.organizers.length > 0 ? <>Organized by {task.organizers.map((o) => o.name).join(", ")}</> : "No organizers listed"}
        </p>
      </header>

      <TaskStatusBanner slug={task.slug} status={task.status} isOrganizer={task.isOrganizer} archivedAt={task.archivedAt} />

      <YourStanding standing={standing} />

      <section aria-labelledby="data-heading" className="rounded-lg border border-amber-200 bg-amber-50 p-5">
        <h2 id="data-heading" className="text-sm font-semibold uppercase tracking-wide text-amber-900">
          Data
        </h2>
        <dl className="mt-2 grid gap-x-4 gap-y-2 text-sm sm:grid-cols-[6rem_1fr]">
          <dt className="font-medium text-amber-900">Licence</dt>
          <dd className="text-zinc-900" data-testid="task-data-license">
            {task.dataLicense ? <TaskLinkifiedText text={task.dataLicense} /> : "not stated by the organizers"}
          </dd>
          <dt className="font-medium text-amber-900">Source</dt>
          <dd className="text-zinc-900" data-testid="task-data-source">
            {task.dataSource ? <TaskLinkifiedText text={task.dataSource} /> : "not stated by the organizers"}
          </dd>
        </dl>
      </section>

      {task.description.trim() && (
        <section aria-label="Description" data-testid="task-description">
          <TaskMarkdown source={task.description} idPrefix="description-" />
        </section>
      )}

      <TaskRules rules={task.rules} />

      <section aria-labelledby="scoring-heading" className="space-y-1 text-sm">
        <h2 id="scoring-heading" className="text-xl font-semibold tracking-tight">
          Scoring
        </h2>
        <p className="text-zinc-700">
          Ranked by <span className="font-medium text-zinc-900">{metricF1Name(task.primaryMetric)}</span>. Evaluation profile:{" "}
          <span className="font-medium text-zinc-900" data-testid="task-evaluation-profile">
            {task.evaluation.label}
          </span>
          .
        </p>
        {alsoScored && (
          <p className="text-zinc-700" data-testid="task-evaluation-variants">
            Every run is {alsoScored}.
          </p>
        )}
      </section>

      <section aria-labelledby="phases-heading" className="space-y-4">
        <h2 id="phases-heading" className="text-xl font-semibold tracking-tight">
          Phases
        </h2>
        {task.phases.length === 0 ? (
          <p className="text-sm text-zinc-600">This task has no phases yet.</p>
        ) : (
          <ul className="space-y-4">
            {task.phases.map((phase) => (
              <TaskPhaseCard
                key={phase.id}
                phase={phase}
                slug={task.slug}
                now={now}
                signedIn={viewer !== null}
                isOrganizer={task.isOrganizer}
                results={<PhaseResultsLink phaseId={phase.id} viewer={viewer} />}
              />
            ))}
          </ul>
        )}
        {task.phases.map((phase) => (
          <ParticipantFileLinks key={phase.id} phaseId={phase.id} phaseName={phase.name} viewer={viewer} />
        ))}
      </section>
    </article>
  );
}
