/**
 * The datasets of a phase on the run pages (issue 10): what a run must hold (the submit page),
 * and a run's datasets with their files, gold versions and CoNLL F1 (the run page). A phase
 * with several datasets takes an archive (`.zip`, `.tar.gz`, `.tgz`) with one file per
 * dataset, named by the dataset's expected file name; a dataset the run leaves out counts 0 in
 * the macro-average. Tables scroll inside their own keyboard-reachable regions. Server-safe
 * (no client state).
 */
import type { SubmissionDatasetView } from "@/lib/runs";
import { conllTitle } from "./board-numbers";
import { Notice, ScoreValue, Table } from "./ui";

/** A dataset as the submit page lists it. */
export interface ExpectedDataset {
  name: string;
  /** e.g. "en"; "" when not given */
  language: string;
  /** the file name the run's archive must hold it under */
  fileName: string;
  format: "conll2012" | "conllu";
}

/** "CoNLL-2012" or "CorefUD CoNLL-U". */
function formatLabel(format: ExpectedDataset["format"]): string {
  return format === "conllu" ? "CorefUD CoNLL-U" : "CoNLL-2012";
}

/**
 * What to upload: for one dataset, one file (any name), or an archive holding the dataset's
 * file; for several, an archive with the list of expected file names (dataset, language,
 * file name, format), and that a dataset left out counts 0.
 *
 * @param datasets the phase's datasets in order (at least one)
 */
export function SubmitDatasets({ datasets }: { datasets: readonly ExpectedDataset[] }) {
  if (datasets.length <= 1) {
    const only = datasets[0];
    return (
      <p className="mb-4 text-sm text-zinc-700" data-testid="submit-what">
        Upload one file with your system&apos;s output for every document of the gold key
        {only ? ` (${formatLabel(only.format)})` : ""}. An archive (.zip, .tar.gz) holding it as{" "}
        {only ? <span className="font-mono text-xs">{only.fileName}</span> : "the expected file"} is accepted too.
      </p>
    );
  }
  return (
    <div className="mb-4 space-y-2 text-sm text-zinc-700" data-testid="submit-datasets">
      <p>
        This phase has {datasets.length} datasets. Upload one archive (.zip or .tar.gz) with one file per dataset, named as below (at the top of
        the archive or in one folder). A dataset you leave out counts as 0 in the macro-average that ranks the runs.
      </p>
      <Table label="The files the archive holds, one per dataset" testId="expected-files" columns={["Dataset", "Language", "File name", "Format"]}>
        {datasets.map((d) => (
          <tr key={d.name} data-testid="expected-file">
            <td className="py-1.5 pr-4 font-medium">{d.name}</td>
            <td className="py-1.5 pr-4">{d.language || <span className="text-zinc-600">—</span>}</td>
            <td className="py-1.5 pr-4 font-mono text-xs">{d.fileName}</td>
            <td className="py-1.5">{formatLabel(d.format)}</td>
          </tr>
        ))}
      </Table>
    </div>
  );
}

/**
 * A run's datasets: dataset (and language), the run's file, the gold version it was scored
 * against, and its CoNLL F1, or "missing — counts as 0" for a dataset the run left out.
 *
 * @param datasets `SubmissionView.datasets` (several)
 */
export function RunDatasetTable({ datasets }: { datasets: readonly SubmissionDatasetView[] }) {
  return (
    <Table label="The run's datasets" testId="run-datasets" columns={["Dataset", "File", "Gold version", { label: "CoNLL F1 (%)", right: true }]}>
      {datasets.map((d) => (
        <tr key={d.id} data-testid="run-dataset" data-missing={d.missing ? "true" : "false"}>
          <th scope="row" className="py-2 pr-4 text-left font-medium">
            {d.name}
            {d.language && <span className="ml-1 text-xs font-normal text-zinc-600">({d.language})</span>}
          </th>
          <td className="break-all py-2 pr-4 font-mono text-xs">{d.fileName ?? <span className="font-sans text-zinc-600">none</span>}</td>
          <td className="py-2 pr-4">{d.goldVersion ?? <span className="text-zinc-600">—</span>}</td>
          <td className="py-2 text-right" data-testid="run-dataset-conll">
            {d.missing ? (
              <span className="text-amber-800">missing — counts as 0</span>
            ) : d.scores?.conll ? (
              <ScoreValue value={d.scores.conll.f1} title={conllTitle(d.scores.conll.f1)} />
            ) : (
              <span className="text-zinc-600">not scored yet</span>
            )}
          </td>
        </tr>
      ))}
    </Table>
  );
}

/**
 * The notice that a run left datasets out (nothing when it covers them all).
 *
 * @param datasets `SubmissionView.datasets`
 */
export function RunMissingDatasets({ datasets }: { datasets: readonly SubmissionDatasetView[] }) {
  const missing = datasets.filter((d) => d.missing);
  if (missing.length === 0) return null;
  return (
    <Notice kind="info">
      <span data-testid="missing-datasets">
        This run has no file for {missing.length === 1 ? "the dataset" : `${missing.length} datasets:`} {missing.map((d) => d.name).join(", ")};{" "}
        {missing.length === 1 ? "it counts" : "each counts"} as 0 in the macro-average.
      </span>
    </Notice>
  );
}
