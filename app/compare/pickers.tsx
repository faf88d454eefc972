/**
 * The compare page's pickers, GET forms to `/compare` (so every step has a shareable
 * address, and they work without JavaScript): a phase, then two of its runs; or, when one
 * run is given, the run to compare it with. The options come from `lib/view-models/compare-view.ts`.
 */
import Link from "../_components/link";
import type { ReactNode } from "react";
import type { ComparePage } from "@/lib/boards";
import { compareHref, comparableRunOptions, phaseOptions, phaseRunOptions, type PickerGroup, type PickerOption } from "@/lib/view-models/compare-view";
import { Notice, primaryButton } from "../_components/ui";

/** The select boxes' style: full width of their column, never wider (long run names are cut by the browser). */
const selectClass =
  "block w-full min-w-0 max-w-full rounded-md border border-zinc-400 bg-white px-3 py-2 text-sm text-zinc-900 shadow-sm focus:border-zinc-600 focus:outline-none focus:ring-2 focus:ring-zinc-300";

/** A labelled select box of options, or of groups of options. */
function Select({
  id,
  name,
  label,
  hint,
  options,
  groups,
  defaultValue,
  testId,
}: {
  id: string;
  name: string;
  label: string;
  hint?: string;
  options?: readonly PickerOption[];
  groups?: readonly PickerGroup[];
  defaultValue?: string;
  testId: string;
}) {
  return (
    <div className="min-w-0 space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-zinc-800">
        {label}
      </label>
      <select id={id} name={name} defaultValue={defaultValue} required className={selectClass} aria-describedby={hint ? `${id}-hint` : undefined} data-testid={testId}>
        {options?.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
        {groups?.map((g) => (
          <optgroup key={g.label} label={g.label}>
            {g.options.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </optgroup>
        ))}
      </select>
      {hint && (
        <p id={`${id}-hint`} className="text-xs text-zinc-600">
          {hint}
        </p>
      )}
    </div>
  );
}

/** The form's box. */
function PickerForm({ label, children }: { label: string; children: ReactNode }) {
  return (
    <form action="/compare" method="get" className="min-w-0 space-y-4 rounded-lg border border-zinc-200 bg-white p-4 shadow-sm sm:p-6" aria-label={label} data-testid="compare-form">
      {children}
    </form>
  );
}

/** The picker for a page that shows no comparison. */
export function ComparePicker({ page }: { page: Exclude<ComparePage, { kind: "comparison" }> }) {
  switch (page.kind) {
    case "phases":
      return <PhasePicker page={page} />;
    case "runs":
      return <RunsPicker page={page} />;
    case "second":
      return <SecondRunPicker page={page} />;
  }
}

/** Step 1: a phase whose runs the viewer may compare. */
function PhasePicker({ page }: { page: Extract<ComparePage, { kind: "phases" }> }) {
  if (page.phases.length === 0) {
    return (
      <div data-testid="compare-no-phases">
        <Notice kind="info">There are no two scored runs you may see in any phase yet, so there is nothing to compare.</Notice>
      </div>
    );
  }
  return (
    <PickerForm label="Choose a phase">
      <Select id="compare-phase" name="phase" label="Phase" hint="Runs can be compared within one phase, where they are scored on the same documents." groups={phaseOptions(page.phases)} testId="compare-phase-select" />
      <button type="submit" className={primaryButton}>
        Choose runs
      </button>
    </PickerForm>
  );
}

/** Step 2: two runs of the chosen phase, best first. */
function RunsPicker({ page }: { page: Extract<ComparePage, { kind: "runs" }> }) {
  const { phase } = page;
  const options = phaseRunOptions(phase);
  return (
    <section className="space-y-3" aria-labelledby="compare-runs-heading">
      <h2 id="compare-runs-heading" className="text-base font-semibold text-zinc-900 break-words">
        {phase.task.title}: {phase.phase.name}
      </h2>
      <p className="text-sm text-zinc-700">
        <Link href={compareHref()} className="underline">
          Choose another phase
        </Link>
      </p>
      {options.length < 2 ? (
        <div data-testid="compare-too-few-runs">
          <Notice kind="info">This phase has fewer than two scored runs you may see, so there is nothing to compare yet.</Notice>
        </div>
      ) : (
        <PickerForm label="Choose two runs">
          <div className="grid min-w-0 gap-4 sm:grid-cols-2">
            <Select id="compare-a" name="a" label="Run A" hint="Differences are A − B." options={options} defaultValue={options[0].value} testId="compare-run-a-select" />
            <Select id="compare-b" name="b" label="Run B" options={options} defaultValue={options[1].value} testId="compare-run-b-select" />
          </div>
          {phase.truncated && (
            <p className="text-xs text-zinc-600">
              The {phase.runs.length.toLocaleString("en")} best runs are listed. To compare another, open its page and use &ldquo;Compare with another run&rdquo;.
            </p>
          )}
          <button type="submit" className={primaryButton}>
            Compare
          </button>
        </PickerForm>
      )}
    </section>
  );
}

/** One run given: the run to compare it with. */
function SecondRunPicker({ page }: { page: Extract<ComparePage, { kind: "second" }> }) {
  const { first } = page;
  const options = comparableRunOptions(page.comparable);
  return (
    <PickerForm label="Choose the run to compare with">
      <input type="hidden" name="a" value={first.id} />
      <p className="text-sm text-zinc-800 break-words" data-testid="compare-first-run">
        <span className="font-semibold">Run A:</span>{" "}
        <Link href={`/submissions/${encodeURIComponent(first.id)}`} className="underline">
          {first.systemName}
        </Link>{" "}
        by {first.team} ({first.phase.name})
      </p>
      <Select id="compare-b" name="b" label="Run B" hint="Scored runs of the same phase you may see, newest first. Differences are A − B." options={options} testId="compare-run-b-select" />
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <button type="submit" className={primaryButton}>
          Compare
        </button>
        <Link href={compareHref({ phase: first.phase.id })} className="text-sm underline">
          Pick both runs from the phase instead
        </Link>
      </div>
    </PickerForm>
  );
}
