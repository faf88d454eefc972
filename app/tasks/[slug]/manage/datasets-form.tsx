"use client";

import { useActionState } from "react";
import { DATASET_FILE_ENDINGS, DATASET_FORMAT_LABELS, datasetFormValues, type DatasetFormValues, type DatasetFormatName } from "@/lib/validations/dataset";
import { Field, Notice, SelectField, Table, primaryButton, secondaryButton } from "@/app/_components/ui";
import { addDatasetAction, datasetAction, type AddDatasetState, type DatasetState } from "./actions";

/** A dataset as the manage page lists it (`ManagedDataset` of `lib/tasks/datasets.ts`). */
export interface ManagedDatasetProps {
  id: string;
  name: string;
  language: string;
  fileName: string;
  format: DatasetFormatName;
  position: number;
  /** the active gold key's version and file name, or null */
  activeGold: { version: number; fileName: string } | null;
  /** gold key versions uploaded for it */
  goldVersions: number;
  /** runs with a file for it (such a dataset cannot be deleted) */
  runs: number;
}

const EMPTY: DatasetFormValues = { name: "", language: "", fileName: "", format: "", position: "" };

/** The format choices: both, or only conllu when the task's profile matches heads (plus a stored format, so that it shows). */
function formatOptions(needsHeads: boolean, current: string): [string, string][] {
  const formats = (Object.keys(DATASET_FORMAT_LABELS) as DatasetFormatName[]).filter((f) => !needsHeads || f === "conllu" || f === current);
  return formats.map((f) => [f, DATASET_FORMAT_LABELS[f]]);
}

/** The hint under the file name: the endings each format takes. */
const FILE_NAME_HINT = `The name of the dataset's file in a run's archive. ${(Object.keys(DATASET_FILE_ENDINGS) as DatasetFormatName[])
  .map((f) => `${f}: ${DATASET_FILE_ENDINGS[f].join(", ")}`)
  .join("; ")}.`;

/** The fields of a dataset: name, language, expected file name, format and position. */
function DatasetFields({ idPrefix, values, errors, needsHeads, isNew }: { idPrefix: string; values: DatasetFormValues; errors: Record<string, string>; needsHeads: boolean; isNew: boolean }) {
  const format = values.format || (needsHeads ? "conllu" : "conll2012");
  return (
    <div className="grid gap-3 sm:grid-cols-[minmax(0,10rem)_6rem_minmax(0,1fr)_minmax(0,13rem)_6rem]">
      <Field id={`${idPrefix}-name`} label="Name" name="name" required maxLength={64} defaultValue={values.name} error={errors.name} hint="e.g. en_gum" />
      <Field id={`${idPrefix}-language`} label="Language" name="language" maxLength={35} defaultValue={values.language} error={errors.language} hint="e.g. en" />
      <Field
        id={`${idPrefix}-file`}
        label="Expected file name"
        name="fileName"
        required
        maxLength={255}
        defaultValue={values.fileName}
        error={errors.fileName}
        hint={FILE_NAME_HINT}
      />
      <SelectField
        id={`${idPrefix}-format`}
        label="Format"
        name="format"
        options={formatOptions(needsHeads, values.format)}
        defaultValue={format}
        error={errors.format}
        hint={needsHeads ? "The evaluation profile matches heads: CorefUD CoNLL-U only." : undefined}
      />
      <Field
        id={`${idPrefix}-position`}
        label="Position"
        name="position"
        type="number"
        min={0}
        inputMode="numeric"
        defaultValue={values.position}
        error={errors.position}
        hint={isNew ? "empty: last" : undefined}
      />
    </div>
  );
}

/** The datasets at a glance: name, language, expected file name, format, active gold key and runs. */
function DatasetsTable({ datasets }: { datasets: ManagedDatasetProps[] }) {
  return (
    <Table label="Datasets" testId="datasets-table" columns={["Name", "Language", "Expected file name", "Format", "Active gold key", { label: "Runs", right: true }]}>
      {datasets.map((d) => (
        <tr key={d.id} data-testid="dataset-row">
          <td className="py-2 pr-4 font-medium">{d.name}</td>
          <td className="py-2 pr-4">{d.language || <span className="text-zinc-500">not given</span>}</td>
          <td className="py-2 pr-4 font-mono text-xs">{d.fileName}</td>
          <td className="py-2 pr-4">{DATASET_FORMAT_LABELS[d.format]}</td>
          <td className="py-2 pr-4" data-testid="dataset-gold">
            {d.activeGold ? (
              <>
                v{d.activeGold.version} <span className="text-xs text-zinc-500">({d.activeGold.fileName})</span>
              </>
            ) : (
              <span className="text-zinc-500">none yet: not in the average</span>
            )}
          </td>
          <td className="py-2 text-right tabular-nums">{d.runs}</td>
        </tr>
      ))}
    </Table>
  );
}

/** One dataset's edit form (Save, Delete), folded under its name. */
function DatasetRow({ dataset, needsHeads, only }: { dataset: ManagedDatasetProps; needsHeads: boolean; only: boolean }) {
  const [state, action, pending] = useActionState<DatasetState, FormData>(datasetAction, { attempt: 0, values: datasetFormValues(dataset), status: "idle" });
  const blocked = only ? "the phase's only dataset: cannot be deleted" : dataset.runs > 0 ? `${dataset.runs} run${dataset.runs === 1 ? " has a file" : "s have files"} for it: cannot be deleted` : null;
  return (
    <li className="rounded-md border border-zinc-200" data-testid="manage-dataset">
      <details open={state.status === "error"}>
        <summary className="cursor-pointer px-4 py-2 text-sm font-medium text-zinc-900">Edit {dataset.name}</summary>
        <form key={state.attempt} action={action} className="space-y-3 px-4 pb-4" noValidate aria-label={`Dataset ${dataset.name}`}>
          <input type="hidden" name="datasetId" value={dataset.id} />
          {state.status === "error" && <Notice kind="error">{state.message}</Notice>}
          {state.status === "saved" && <Notice kind="success">{state.message}</Notice>}
          <DatasetFields idPrefix={`dataset-${dataset.id}`} values={state.values} errors={state.status === "error" ? state.fieldErrors : {}} needsHeads={needsHeads} isNew={false} />
          <div className="flex flex-wrap items-center gap-2">
            <button type="submit" name="intent" value="save" disabled={pending} className={primaryButton}>
              {pending ? "Saving…" : "Save dataset"}
            </button>
            <button type="submit" name="intent" value="delete" disabled={pending} className={secondaryButton} aria-label={`Delete ${dataset.name}`}>
              Delete
            </button>
            <span className="text-xs text-zinc-500">
              {blocked ?? (dataset.activeGold ? "deleting it deletes its gold key versions and re-queues the phase's runs" : "no runs have a file for it")}
            </span>
          </div>
        </form>
      </details>
    </li>
  );
}

/** The form that adds a dataset (after the last one unless a position is given). */
function AddDatasetForm({ phaseId, needsHeads }: { phaseId: string; needsHeads: boolean }) {
  const [state, action, pending] = useActionState<AddDatasetState, FormData>(addDatasetAction, { attempt: 0, status: "idle" });
  const values = state.status === "error" ? state.values : EMPTY;
  return (
    <form key={state.attempt} action={action} className="space-y-3" noValidate aria-label="Add a dataset">
      <h3 className="text-sm font-semibold text-zinc-900">Add a dataset</h3>
      <input type="hidden" name="phaseId" value={phaseId} />
      {state.status === "error" && <Notice kind="error">{state.message}</Notice>}
      {state.status === "added" && <Notice kind="success">Dataset &ldquo;{state.name}&rdquo; added. Upload its gold key below; until then it does not count in the average.</Notice>}
      <DatasetFields idPrefix={`new-dataset-${phaseId}`} values={values} errors={state.status === "error" ? state.fieldErrors : {}} needsHeads={needsHeads} isNew />
      <button type="submit" disabled={pending} className={secondaryButton}>
        {pending ? "Adding…" : "Add dataset"}
      </button>
    </form>
  );
}

/**
 * A phase's datasets on the manage page: a table of them, each dataset's edit form (fields,
 * delete), then a form to add one.
 *
 * @param phaseId the phase
 * @param datasets its datasets in order, with their active gold key and run counts
 * @param needsHeads the task's evaluation profile matches heads (only conllu datasets)
 */
export function PhaseDatasetsForm({ phaseId, datasets, needsHeads }: { phaseId: string; datasets: ManagedDatasetProps[]; needsHeads: boolean }) {
  return (
    <div className="space-y-6">
      <DatasetsTable datasets={datasets} />
      <ol className="space-y-2" aria-label="Edit datasets">
        {datasets.map((d) => (
          <DatasetRow key={d.id} dataset={d} needsHeads={needsHeads} only={datasets.length === 1} />
        ))}
      </ol>
      <AddDatasetForm phaseId={phaseId} needsHeads={needsHeads} />
    </div>
  );
}
