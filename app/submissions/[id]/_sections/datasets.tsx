/** The submission page's datasets (a phase with several). */
import type { SubmissionView } from "@/lib/runs";
import { RunDatasetTable, RunMissingDatasets } from "@/app/_components/run-datasets";
import { Card } from "@/app/_components/ui";

/** The "Datasets" card: which datasets the run left out, then each dataset's file, gold version and CoNLL F1. */
export function DatasetsCard({ s }: { s: SubmissionView }) {
  return (
    <Card
      title="Datasets"
      description="The run's scores above are the macro-average over the phase's datasets that have a gold key; a dataset the run left out counts as 0."
    >
      <div className="space-y-3">
        <RunMissingDatasets datasets={s.datasets} />
        <RunDatasetTable datasets={s.datasets} />
      </div>
    </Card>
  );
}
