"use client";

import { useActionState } from "react";
import { CheckboxField, SelectField, secondaryButton } from "@/app/_components/ui";
import { deriveBlindInputAction, type BlindInputState } from "./blind-input-actions";

/** Props of {@link BlindInputForm}. */
export interface BlindInputFormProps {
  phaseId: string;
  dataset: { id: string; name: string; format: string };
  /** whether the dataset has an active gold key to derive from */
  hasGold: boolean;
  /** whether it already has a blind input (the button then says "again") */
  hasBlind: boolean;
}

/**
 * One dataset's "Derive blind input" form in the console's gold tab: for CorefUD, whether to
 * keep the empty nodes (zeros) and the `# global.Entity` declaration; the outcome (or the
 * refusal) is announced beside the button.
 */
export function BlindInputForm({ phaseId, dataset, hasGold, hasBlind }: BlindInputFormProps) {
  const [state, action, pending] = useActionState<BlindInputState, FormData>(deriveBlindInputAction, { status: "idle" });
  const corefud = dataset.format === "conllu";
  return (
    <form action={action} className="space-y-2" data-testid="blind-input-form">
      <input type="hidden" name="phaseId" value={phaseId} />
      <input type="hidden" name="datasetId" value={dataset.id} />
      {corefud && (
        <div className="grid gap-2 sm:grid-cols-2">
          <SelectField
            label="Empty nodes (zeros)"
            name="emptyNodes"
            id={`empty-nodes-${dataset.id}`}
            defaultValue="keep"
            options={[
              ["keep", "Keep them (their DEPS unchanged)"],
              ["drop", "Drop them (and the DEPS that point at them)"],
            ]}
          />
          <CheckboxField label="Drop the # global.Entity declaration" name="dropEntityDeclaration" id={`drop-declaration-${dataset.id}`} />
        </div>
      )}
      <div className="flex items-center gap-3">
        <button type="submit" disabled={pending || !hasGold} className={secondaryButton} aria-label={`Derive the blind input of ${dataset.name}`}>
          {pending ? "Deriving…" : hasBlind ? "Derive again from the gold key" : "Derive from the gold key"}
        </button>
        {!hasGold && <span className="text-xs text-zinc-600">Upload its gold key first.</span>}
        <span aria-live="polite" className={`text-xs ${state.status === "error" ? "text-red-700" : "text-emerald-800"}`}>
          {state.status === "idle" ? "" : state.message}
        </span>
      </div>
    </form>
  );
}
