/**
 * The controls above the leaderboard: the track and dataset switches, the "Rank by" GET form
 * (metric; setting for tasks with variants; dataset on multi-dataset phases), the runs toggle
 * (one per team / all runs), the recall-and-precision and 95 % interval toggles, and the JSON
 * and CSV links. Every link and field comes from the view model (`leaderboardView(…).controls`).
 * Plain links and a GET form: it works without JavaScript. Server-safe.
 */
import Form from "next/form";
import Link from "../../../../../_components/link";
import type { BoardControlsView } from "../../../../../../lib/view-models/leaderboard-view";
import { BoardMetricSelect } from "../../../../../_components/board-metric-select";
import { BoardSwitch } from "../../../../../_components/board-switch";
import { secondaryButton } from "../../../../../_components/ui";

/** The controls bar. */
export function BoardControls({ controls }: { controls: BoardControlsView }) {
  const { rankForm } = controls;
  return (
    <div className="flex flex-wrap items-end gap-x-6 gap-y-3 rounded-lg border border-zinc-200 bg-white p-4 shadow-sm">
      {controls.tracks && <BoardSwitch label="Track" testId="track-switch" choices={controls.tracks} />}
      {controls.datasets && <BoardSwitch label="Dataset" testId="dataset-switch" choices={controls.datasets} />}
      <Form action={rankForm.action} className="flex flex-wrap items-end gap-2" aria-label={rankForm.ariaLabel}>
        <div className="space-y-1">
          <label htmlFor="board-metric" className="block text-sm font-medium text-zinc-800">
            Rank by
          </label>
          <BoardMetricSelect key={rankForm.metric} value={rankForm.metric} metrics={rankForm.metrics} />
        </div>
        {rankForm.variant && (
          <div className="space-y-1">
            <label htmlFor="board-variant" className="block text-sm font-medium text-zinc-800">
              Setting
            </label>
            <BoardMetricSelect key={rankForm.variant.value} id="board-variant" name="variant" value={rankForm.variant.value} metrics={rankForm.variant.options} />
          </div>
        )}
        {rankForm.rankDataset && (
          <div className="space-y-1">
            <label htmlFor="board-rank-dataset" className="block text-sm font-medium text-zinc-800">
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
        <button type="submit" className={secondaryButton}>
          Apply
        </button>
      </Form>

      <nav aria-label="Runs shown" className="flex flex-wrap rounded-md border border-zinc-300 text-sm">
        {controls.runs.map((c) => (
          <Link
            key={c.key}
            href={c.href}
            aria-current={c.current ? "page" : undefined}
            className={`px-3 py-1.5 first:rounded-l-md last:rounded-r-md ${c.current ? "bg-zinc-900 font-medium text-white" : "text-zinc-700 hover:bg-zinc-100"}`}
          >
            {c.label}
          </Link>
        ))}
      </nav>

      <Link href={controls.rp.href} className={secondaryButton} data-testid="toggle-rp">
        {controls.rp.label}
      </Link>
      {controls.ci && (
        <Link href={controls.ci.href} className={secondaryButton} data-testid="toggle-ci">
          {controls.ci.label}
        </Link>
      )}

      <p className="space-x-3 text-sm sm:ml-auto">
        <a href={controls.json} className="underline">
          JSON
        </a>
        <a href={controls.csv} className="underline">
          CSV
        </a>
      </p>
    </div>
  );
}
