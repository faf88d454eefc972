"use server";

import { revalidatePath } from "next/cache";
import { deriveBlindInput, parseBlindOptions } from "@/lib/runs";
import { runAction } from "@/app/_components/task-action-result";

/** State of a dataset's "Derive blind input" form. */
export type BlindInputState = { status: "idle" } | { status: "saved"; message: string } | { status: "error"; message: string };

function formString(formData: FormData, name: string): string {
  const value = formData.get(name);
  return typeof value === "string" ? value.trim() : "";
}

/**
 * Derives a dataset's blind test input from its active gold key (issue 24 §3), as the signed-in
 * organizer: fields `phaseId`, `datasetId`, and for CorefUD `emptyNodes` ("keep" or "drop") and
 * `dropEntityDeclaration` (a checkbox). The service (`deriveBlindInput`) checks that the viewer
 * organizes the task; a refusal stores nothing and is shown in the form.
 */
export async function deriveBlindInputAction(_previous: BlindInputState, formData: FormData): Promise<BlindInputState> {
  return runAction<BlindInputState>(
    "derive blind input",
    async (viewer) => {
      const options = parseBlindOptions({ emptyNodes: formString(formData, "emptyNodes") || undefined, dropEntityDeclaration: formString(formData, "dropEntityDeclaration") });
      const meta = await deriveBlindInput(viewer, formString(formData, "phaseId"), formString(formData, "datasetId"), options);
      revalidatePath("/tasks/[slug]", "page");
      revalidatePath("/tasks/[slug]/manage", "layout");
      return { status: "saved", message: `Blind input ${meta.fileName} derived (${meta.size} bytes, sha256 ${meta.sha256.slice(0, 12)}…).` };
    },
    (failure) => ({ status: "error", message: failure.message }),
  );
}
