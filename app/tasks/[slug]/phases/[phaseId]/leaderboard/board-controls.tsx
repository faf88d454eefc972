/**
 * The controls above the leaderboard, in one compact bar: the track switch, the dataset board
 * chooser (a GET form: the macro-averaged board or one dataset's), the "Rank by" GET form
 * (metric; setting for tasks with variants; dataset on multi-dataset phases), the runs toggle
 * (one per team / all runs), the column set switch of a macro-averaged board ("Per dataset" /
 * "All metrics"), the recall-and-precision and 95 % interval toggles, and the JSON, CSV,
 * LaTeX and Markdown exports. Every link and field comes from the view model
 * (`leaderboardView(…).controls`). Plain links and GET forms: it works without JavaScript (the
 * selects submit their form at once with it). Server-safe.
 */
import Form from "next/form";
import Link from "@/app/_components/link";
import type { BoardChoice, BoardControlsView } from "@/lib/view-models/leaderboard-view";
import { BoardMetricSelect } from "@/app/_components/board-metric-select";
import { BoardSwitch } from "@/app/_components/board-switch";

/** A small button or link of the bar (a compact `secondaryButton`). */
const SMALL_BUTTON =
  "inline-flex items-center rounded-md border border-zinc-300 bg-white px-2.5 py-1 text-sm font-medium text-zinc-800 shadow-sm hover:bg-zinc-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-zinc-500";

/** A field's label over it. */
const LABEL = "block text-xs font-medium text-zinc-800";

/** The controls bar. */
export function BoardControls({ controls }: { controls: BoardControlsView }) {
  const { rankForm, datasetForm } = controls;
  return (
    <div className="flex flex-wrap items-end gap-x-4 gap-y-2 rounded-lg border border-zinc-200 bg-white px-3 py-2 shadow-sm" data-testid="board-controls">
      {controls.tracks && <BoardSwitch label="Track" testId="track-switch" choices={controls.tracks} />}
      {datasetForm && (
        <Form action={datasetForm.action} className="flex items-end gap-1" aria-label="Dataset board" data-testid="dataset-switch">
          <div className="space-y-0.5">
            <label htmlFor="board-dataset" className={LABEL}>
              Board
            </label>
            <BoardMetricSelect key={datasetForm.value} id="board-dataset" name="dataset" value={datasetForm.value} metrics={datasetForm.options} />
          </div>
          {datasetForm.hidden.map((f) => (
            <input key={f.name} type="hidden" name={f.name} value={f.value} />
          ))}
          <noscript>
            <button type="submit" className={SMALL_BUTTON}>
              Show
            </button>
          </noscript>
        </Form>
      )}
      <Form action={rankForm.action} className="flex flex-wrap items-end gap-1" aria-label={rankForm.ariaLabel}>
        <div className="space-y-0.5">
          <label htmlFor="board-metric" className={LABEL}>
            Rank by
          </label>
          <BoardMetricSelect key={rankForm.metric} value={rankForm.metric} metrics={rankForm.metrics} />
        </div>
        {rankForm.variant && (
          <div className="space-y-0.5">
            <label htmlFor="board-variant" className={LABEL}>
              Setting
            </label>
            <BoardMetricSelect key={rankForm.variant.value} id="board-variant" name="variant" value={rankForm.variant.value} metrics={rankForm.variant.options} />
          </div>
        )}
        {rankForm.rankDataset && (
          <div className="space-y-0.5">
            <label htmlFor="board-rank-dataset" className={LABEL}>
              Over
            </label>
            <BoardMetricSelect
              key={rankForm.rankDataset.value}
              id="board-rank-dataset"
              name="rankDataset"
              value={rankForm.rankDataset.value}
              metrics={rankForm.rankDataset.options}
            />
          </div>
        )}
        {rankForm.hidden.map((f) => (
          <input key={f.name} type="hidden" name={f.name} value={f.value} />
        ))}
        <button type="submit" className={SMALL_BUTTON}>
          Apply
        </button>
      </Form>

      <Segmented label="Runs shown" choices={controls.runs} />
      {controls.columns && <Segmented label="Columns shown" choices={controls.columns} testId="columns-switch" />}

      {controls.rp && (
        <Link href={controls.rp.href} className={SMALL_BUTTON} data-testid="toggle-rp">
          {controls.rp.label}
        </Link>
      )}
      {controls.ci && (
        <Link href={controls.ci.href} className={SMALL_BUTTON} data-testid="toggle-ci">
          {controls.ci.label}
        </Link>
      )}

      <p className="flex flex-wrap gap-x-3 py-1 text-sm sm:ml-auto" data-testid="board-exports">
        <span className="text-zinc-700">Export:</span>
        <a href={controls.json} className="underline">
          JSON
        </a>
        <a href={controls.csv} className="underline">
          CSV
        </a>
        <a href={controls.latex} className="underline" data-testid="export-latex">
          LaTeX
        </a>
        <a href={controls.markdown} className="underline" data-testid="export-markdown">
          Markdown
        </a>
      </p>
    </div>
  );
}

/** Two or more links of which one is current, drawn as one segmented control. */
function Segmented({ label, choices, testId }: { label: string; choices: readonly BoardChoice[]; testId?: string }) {
  return (
    <nav aria-label={label} className="flex flex-wrap rounded-md border border-zinc-300 text-sm" data-testid={testId}>
      {choices.map((c) => (
        <Link
          key={c.key}
          href={c.href}
          aria-current={c.current ? "page" : undefined}
          className={`px-2.5 py-1 first:rounded-l-md last:rounded-r-md ${c.current ? "bg-zinc-900 font-medium text-white" : "text-zinc-700 hover:bg-zinc-100"}`}
        >
          {c.label}
        </Link>
      ))}
    </nav>
  );
}
