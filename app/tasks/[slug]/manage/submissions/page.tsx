import type { Metadata } from "next";
import Link from "@/app/_components/link";
import { ValidationError } from "@/lib/errors";
import { CONSOLE_RUN_STATUSES, listConsoleRuns, parseConsoleRunsQuery, type ConsoleRunsPage, type ConsoleRunsQueryInput } from "@/lib/runs";
import { listTracksForOrganizers } from "@/lib/tasks";
import { Card, Field, Notice, primaryButton, secondaryButton, SelectField } from "@/app/_components/ui";
import { ConsoleRescoreAll } from "../console-rescore-all";
import { loadManagedTask, manageMetadata, type ManageParams } from "../manage-page";
import { PhaseSubmissionsTable } from "../phase-submissions-table";

type Params = ManageParams & { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** Title: "Submissions · Manage <task>". */
export async function generateMetadata({ params }: ManageParams): Promise<Metadata> {
  return manageMetadata(params, "Submissions");
}

/** The first value of a search parameter (null when absent). */
function first(value: string | string[] | undefined): string | null {
  return (Array.isArray(value) ? value[0] : value) ?? null;
}

/** This tab's URL for a phase and query values (empty ones left out). */
function tabHref(slug: string, phaseId: string, query: ConsoleRunsQueryInput = {}): string {
  const search = new URLSearchParams({ phase: phaseId });
  for (const [key, value] of Object.entries(query)) if (value) search.set(key, value);
  return `/tasks/${encodeURIComponent(slug)}/manage/submissions?${search.toString()}`;
}

/**
 * The console's submissions tab: the runs of one phase (a picker when the task has several,
 * `?phase=<id>`), filtered by status, team and UTC dates, 50 per page, each with its controls;
 * the phase's archive download and "Re-score all runs".
 */
export default async function ManageSubmissionsPage({ params, searchParams }: Params) {
  const { viewer, task } = await loadManagedTask(params);
  const sp = await searchParams;
  const asked = first(sp.phase);
  const phase = task.phases.find((p) => p.id === asked) ?? task.phases[0];
  const query: ConsoleRunsQueryInput = { status: first(sp.status), team: first(sp.team), from: first(sp.from), to: first(sp.to) };

  let page: ConsoleRunsPage | null = null;
  let problem: string | null = null;
  let fieldErrors: Record<string, string> = {};
  if (phase) {
    try {
      page = await listConsoleRuns(viewer, phase.id, parseConsoleRunsQuery({ ...query, page: first(sp.page) }));
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      problem = error.message;
      fieldErrors = Object.fromEntries(error.fieldErrors.map((e) => [e.path, e.message]));
    }
  }
  const withTracks = phase ? (await listTracksForOrganizers(viewer, phase.id)).length > 0 || (page?.runs.some((r) => r.track !== null) ?? false) : false;
  const allRuns = page ? Object.values(page.byStatus).reduce((a, b) => a + b, 0) : 0;

  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight">Submissions</h1>
      {!phase && <p className="text-sm text-zinc-600">This task has no phase yet.</p>}
      {asked && phase && asked !== phase.id && <Notice kind="info">No such phase in this task; showing phase {phase.name}.</Notice>}

      {task.phases.length > 1 && phase && (
        <nav aria-label="Phases" className="flex flex-wrap gap-2">
          {task.phases.map((p) => (
            <Link key={p.id} href={tabHref(task.slug, p.id)} aria-current={p.id === phase.id ? "page" : undefined} className={p.id === phase.id ? primaryButton : secondaryButton}>
              {p.name}
            </Link>
          ))}
        </nav>
      )}

      {phase && (
        <Card
          title={`Phase ${phase.name}: runs`}
          description={
            page
              ? `${allRuns} run${allRuns === 1 ? "" : "s"}: ${CONSOLE_RUN_STATUSES.map((s) => `${page.byStatus[s]} ${s.toLowerCase()}`).join(", ")}. Times are in UTC.`
              : undefined
          }
        >
          <div className="space-y-4">
            <form method="get" role="search" aria-label="Filter the runs" className="grid gap-3 sm:grid-cols-2 lg:grid-cols-5 lg:items-end">
              <input type="hidden" name="phase" value={phase.id} />
              <SelectField label="Status" name="status" defaultValue={query.status?.toUpperCase() ?? ""} options={[["", "Any status"], ...CONSOLE_RUN_STATUSES.map((s) => [s, s.toLowerCase()] as const)]} error={fieldErrors.status} />
              <Field label="Team" name="team" defaultValue={query.team ?? ""} placeholder="name or id" error={fieldErrors.team} />
              <Field label="From (UTC)" name="from" type="date" defaultValue={query.from ?? ""} error={fieldErrors.from} />
              <Field label="To (UTC, inclusive)" name="to" type="date" defaultValue={query.to ?? ""} error={fieldErrors.to} />
              <div className="flex gap-2">
                <button type="submit" className={primaryButton}>
                  Filter
                </button>
                <Link href={tabHref(task.slug, phase.id)} className={secondaryButton}>
                  Clear
                </Link>
              </div>
            </form>

            {problem && <Notice kind="error">{problem}</Notice>}

            <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
              <a href={`/api/v1/phases/${phase.id}/runs/archive`} download className={secondaryButton} data-testid="runs-archive-link">
                Download all runs (.tar.gz)
              </a>
              <ConsoleRescoreAll phaseId={phase.id} phaseName={phase.name} runs={allRuns} />
            </div>

            {page && (
              <>
                <p className="text-sm text-zinc-600" aria-live="polite">
                  {page.total} matching run{page.total === 1 ? "" : "s"}
                  {page.total > 0 ? `, page ${page.page} of ${page.pages}` : ""}.
                </p>
                <PhaseSubmissionsTable runs={page.runs} primaryMetric={page.primaryMetric} withTracks={withTracks} caption={`Runs of phase ${phase.name}, newest first, page ${page.page} of ${page.pages}`} />
                {page.pages > 1 && (
                  <nav aria-label="Pages of runs" className="flex gap-3">
                    {page.page > 1 && (
                      <Link href={tabHref(task.slug, phase.id, { ...query, page: String(page.page - 1) })} className={secondaryButton} rel="prev">
                        Newer
                      </Link>
                    )}
                    {page.page < page.pages && (
                      <Link href={tabHref(task.slug, phase.id, { ...query, page: String(page.page + 1) })} className={secondaryButton} rel="next">
                        Older
                      </Link>
                    )}
                  </nav>
                )}
              </>
            )}
          </div>
        </Card>
      )}
    </div>
  );
}
