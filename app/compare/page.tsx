import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { NotFoundError, ValidationError } from "@/lib/errors";
import { listComparePhases, loadComparePage, type ComparePage, SIGNIFICANCE_LEVEL } from "@/lib/boards";
import { getViewer } from "@/lib/auth/session";
import { parseCompareQuery } from "@/lib/validations/compare-query";
import { comparePageTitle, compareView } from "@/lib/view-models/compare-view";
import { Notice } from "../_components/ui";
import { Comparison } from "./comparison";
import { ComparePicker } from "./pickers";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/**
 * What the page shows for a query string (given as JSON, the key of React's per-request
 * cache, so the metadata and the page share one bootstrap). A bad query gives the phase
 * picker with the reason; a run or phase the viewer may not see is a 404.
 */
const loadPage = cache(async (searchParams: string): Promise<ComparePage> => {
  const viewer = await getViewer();
  try {
    return await loadComparePage(viewer, parseCompareQuery(JSON.parse(searchParams) as Record<string, string | string[] | undefined>));
  } catch (error) {
    if (error instanceof NotFoundError) notFound();
    if (error instanceof ValidationError) return { kind: "phases", error: error.message, phases: await listComparePhases(viewer) };
    throw error;
  }
});

/** The title names the compared runs, or the phase whose runs are offered. */
export async function generateMetadata({ searchParams }: { searchParams: SearchParams }): Promise<Metadata> {
  return { title: comparePageTitle(await loadPage(JSON.stringify(await searchParams))) };
}

/**
 * `/compare?a=<run id>&b=<run id>`: two runs of one phase compared by the paired bootstrap
 * over documents on every metric (which run is better, A − B, its 95 % interval and two-sided
 * p-value), then per-document differences on the task's primary metric when the viewer may
 * see both runs' per-document scores. Without both runs it offers pickers
 * (`loadComparePage`): a phase, then two of its runs (`?phase=`), or the run to compare a
 * given one with (`?a=`). Runs the viewer may not see are a 404; runs that cannot be
 * compared (the same run, different phases, unscored, different gold versions) give the
 * reason above a picker.
 */
export default async function ComparePageView({ searchParams }: { searchParams: SearchParams }) {
  const page = await loadPage(JSON.stringify(await searchParams));
  if (page.kind === "comparison") return <Comparison view={compareView(page.comparison, SIGNIFICANCE_LEVEL)} comparison={page.comparison} />;
  return (
    <div className="min-w-0 space-y-6">
      <header className="space-y-1">
        <h1 className="text-2xl font-semibold tracking-tight">Compare runs</h1>
        <p className="text-sm text-zinc-700">
          Compare two scored runs of the same phase: the paired bootstrap over documents tells, metric by metric, whether one is significantly better.
        </p>
      </header>
      {page.error && (
        <div data-testid="compare-error">
          <Notice kind="error">{page.error}</Notice>
        </div>
      )}
      <ComparePicker page={page} />
    </div>
  );
}
