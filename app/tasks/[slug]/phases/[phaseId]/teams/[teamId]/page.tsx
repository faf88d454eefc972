import type { Metadata } from "next";
import Link from "@/app/_components/link";
import { notFound } from "next/navigation";
import { cache } from "react";
import { NotFoundError } from "@/lib/errors";
import { getTeamProgress, type ProgressPoint, type TeamProgress } from "@/lib/runs";
import { getViewer } from "@/lib/auth/session";
import { METRIC_LABELS } from "@/lib/validations/metrics";
import { formatInZone } from "@/lib/validations/time";
import { Percent } from "@/app/_components/board-numbers";
import { ProgressChart } from "@/app/_components/charts/progress-chart";
import { metricF1Name } from "@/app/_components/metric-name";
import { Table, UtcTime } from "@/app/_components/ui";

type Params = Promise<{ slug: string; phaseId: string; teamId: string }>;

/** The team's progress, or a 404 (unknown phase or team, or nothing the viewer may see); once per request (the title and the page share it). */
const load = cache(async (phaseId: string, teamId: string): Promise<TeamProgress> => {
  try {
    return await getTeamProgress(await getViewer(), phaseId, teamId);
  } catch (error) {
    if (error instanceof NotFoundError) notFound();
    throw error;
  }
});

/** Title: "Progress of <team> · <phase> phase · <task>". */
export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { phaseId, teamId } = await params;
  const { task, phase, team } = await load(phaseId, teamId);
  return { title: `Progress of ${team.name} · ${phase.name} phase · ${task.title}` };
}

/**
 * A team's progress in a phase: its scored runs over time on the task's primary metric (a
 * chart, with the numbers in a table under it), then the runs with links to their pages.
 * The team's members and the task's organizers see private runs too; others only public
 * runs, and only when they may see the phase's leaderboard (`getTeamProgress`). 404 for an
 * unknown phase or team, a phase of another task, or when the viewer may see nothing. The
 * leaderboard policy applies as on the board: before an after-close phase closes only the team
 * and the organizers see this page; hidden runs and runs after a freeze are points for the
 * organizers only, marked "hidden" / "after the freeze".
 */
export default async function TeamProgressPage({ params }: { params: Params }) {
  const { slug, phaseId, teamId } = await params;
  const progress = await load(phaseId, teamId);
  const { task, phase, metric, points } = progress;
  if (task.slug !== slug) notFound();

  const { phase: phaseHref } = progressHrefs(progress);
  const metricLabel = `${METRIC_LABELS[metric]} F1`;

  return (
    <div className="space-y-6">
      <ProgressHeader progress={progress} />

      <ProgressChart
        points={points.map((p) => ({
          id: p.id,
          label: p.isBaseline ? `${p.systemName} (baseline)` : p.systemName,
          at: p.submittedAt.toISOString(),
          value: p.value,
          href: `/submissions/${encodeURIComponent(p.id)}`,
        }))}
        metricLabel={metricLabel}
        timeZone={phase.displayTimeZone}
      />

      <section aria-labelledby="runs-heading" className="space-y-2">
        <h2 id="runs-heading" className="text-base font-semibold text-zinc-900">
          Runs
        </h2>
        {points.length === 0 ? (
          <p className="text-sm text-zinc-600" data-testid="progress-empty">
            No scored runs yet in this phase.{" "}
            {progress.viewerIsTeamMember && (
              <Link href={`${phaseHref}/submit`} className="underline">
                Submit a run
              </Link>
            )}
          </p>
        ) : (
          <ProgressRunTable progress={progress} metricLabel={metricLabel} />
        )}
        <p className="text-xs text-zinc-500">
          Percentages have 2 decimals; hover over a number to see its exact value. The chart shows times in the phase&apos;s time zone ({phase.displayTimeZone}).
        </p>
      </section>
    </div>
  );
}

/** The task's page and the phase's (`/tasks/<slug>`, `/tasks/<slug>/phases/<id>`). */
function progressHrefs({ task, phase }: TeamProgress): { task: string; phase: string } {
  const taskHref = `/tasks/${encodeURIComponent(task.slug)}`;
  return { task: taskHref, phase: `${taskHref}/phases/${encodeURIComponent(phase.id)}` };
}

/** Breadcrumbs (task › phase › Team progress), the title, and what the runs are valued by and which of them the viewer sees. */
function ProgressHeader({ progress }: { progress: TeamProgress }) {
  const { task, phase, team, metric } = progress;
  const { task: taskHref, phase: phaseHref } = progressHrefs(progress);
  const insider = progress.viewerIsTeamMember || progress.viewerIsOrganizer;
  return (
    <header className="space-y-1">
      <nav aria-label="Breadcrumb" className="text-sm text-zinc-600">
        <ol className="flex flex-wrap items-center gap-x-1.5">
          <li>
            <Link href={taskHref} className="hover:underline">
              {task.title}
            </Link>
          </li>
          <li aria-hidden="true">›</li>
          <li>
            <Link href={`${phaseHref}/leaderboard`} className="hover:underline">
              {phase.name} phase
            </Link>
          </li>
          <li aria-hidden="true">›</li>
          <li aria-current="page" className="text-zinc-900">
            Team progress
          </li>
        </ol>
      </nav>
      <h1 className="text-2xl font-semibold tracking-tight">
        Progress of <span data-testid="progress-team">{team.name}</span>
      </h1>
      <p className="text-sm text-zinc-700">
        Scored runs of the {phase.name} phase over time, valued by the task&apos;s primary metric,{" "}
        <span className="font-medium" data-testid="progress-metric">
          {metricF1Name(metric)}
        </span>
        .{" "}
        {insider
          ? "Private runs are included because you are a member of this team or an organizer of the task; others see only public runs."
          : "Only the team's public runs are shown."}{" "}
        {progress.viewerIsOrganizer
          ? "Runs hidden by the organizers and runs made after a leaderboard freeze are shown to you as an organizer, marked."
          : "Runs hidden by the organizers and runs made after a leaderboard freeze are not shown."}
      </p>
    </header>
  );
}

/** The scored runs, oldest first: number, system (linked, with its marks), submission time, and the metric's F1. */
function ProgressRunTable({ progress, metricLabel }: { progress: TeamProgress; metricLabel: string }) {
  const { phase, team, points } = progress;
  const bestValue = points.reduce((m, p) => Math.max(m, p.value), -Infinity);
  return (
    <div className="rounded-lg border border-zinc-200 bg-white px-4 shadow-sm">
      <Table
        caption={`Scored runs of ${team.name} in the ${phase.name} phase, oldest first`}
        testId="progress-runs"
        columns={[{ label: "#", right: true }, "System", "Submitted (UTC)", { label: metricLabel, right: true }]}
      >
        {points.map((p, i) => (
          <ProgressRunRow key={p.id} point={p} index={i} best={p.value === bestValue} zone={phase.displayTimeZone} metricLabel={metricLabel} />
        ))}
      </Table>
    </div>
  );
}

/** One run of the table: its marks are baseline, private, hidden, after the freeze and best; the time also in the phase's zone when that is not UTC. */
function ProgressRunRow({ point: p, index, best, zone, metricLabel }: { point: ProgressPoint; index: number; best: boolean; zone: string; metricLabel: string }) {
  return (
    <tr data-testid="progress-run" data-submission-id={p.id}>
      <td className="py-2 pr-4 text-right tabular-nums text-zinc-500">{index + 1}</td>
      <td className="py-2 pr-4">
        <Link href={`/submissions/${encodeURIComponent(p.id)}`} className="font-medium underline">
          {p.systemName}
        </Link>
        {p.isBaseline && <span className="ml-2 rounded bg-amber-100 px-1.5 py-0.5 text-xs font-medium text-amber-900">baseline</span>}
        {p.visibility === "PRIVATE" && <span className="ml-2 rounded bg-zinc-200 px-1.5 py-0.5 text-xs font-medium text-zinc-800">private</span>}
        {p.hidden && (
          <span className="ml-2 rounded bg-zinc-700 px-1.5 py-0.5 text-xs font-medium text-white" data-testid="progress-hidden">
            hidden
          </span>
        )}
        {p.afterFreeze && (
          <span className="ml-2 rounded bg-indigo-100 px-1.5 py-0.5 text-xs font-medium text-indigo-900" data-testid="progress-after-freeze">
            after the freeze
          </span>
        )}
        {best && <span className="ml-2 rounded bg-emerald-100 px-1.5 py-0.5 text-xs font-medium text-emerald-900">best</span>}
      </td>
      <td className="whitespace-nowrap py-2 pr-4 text-zinc-600">
        <UtcTime date={p.submittedAt} />
        {zone !== "UTC" && <span className="block text-xs text-zinc-500">{formatInZone(p.submittedAt, zone)}</span>}
      </td>
      <td className="py-2 text-right font-medium">
        <Percent value={p.value} title={`${metricLabel} = ${p.value}`} />
      </td>
    </tr>
  );
}
