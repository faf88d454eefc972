"use server";

import { redirect } from "next/navigation";
import { ValidationError, type FieldError } from "@/lib/errors";
import { createTask } from "@/lib/tasks";
import { createTaskSchema, evaluationInputFromValues, evaluationValuesFromForm, MAX_PHASES, type EvaluationFormValues } from "@/lib/validations/task";
import { parseInput } from "@/lib/validations/parse";
import { runAction, type ActionFailure } from "../../_components/task-action-result";
import { phaseInputFromValues, phaseValuesFromForm, type PhaseFormValues } from "../../_components/task-phase-form-data";

/** The new-task form's values as typed. */
export interface NewTaskValues {
  slug: string;
  title: string;
  description: string;
  dataLicense: string;
  dataSource: string;
  primaryMetric: string;
  /** the evaluation profile and, for custom, its settings */
  evaluation: EvaluationFormValues;
  phases: PhaseFormValues[];
}

/** State of the new-task form: idle, or the last failure with the values to show again. */
export type NewTaskState =
  | { status: "idle" }
  | ({ status: "error"; values: NewTaskValues; attempt: number } & ActionFailure);

function text(formData: FormData, name: string): string {
  const value = formData.get(name);
  return typeof value === "string" ? value : "";
}

/** Reads the form: task fields, then `phases.0.*`, `phases.1.*`, … while present. */
function valuesFromForm(formData: FormData): NewTaskValues {
  const phases: PhaseFormValues[] = [];
  for (let i = 0; i < MAX_PHASES && formData.has(`phases.${i}.name`); i += 1) phases.push(phaseValuesFromForm(formData, `phases.${i}.`));
  return {
    slug: text(formData, "slug").trim(),
    title: text(formData, "title").trim(),
    description: text(formData, "description"),
    dataLicense: text(formData, "dataLicense").trim(),
    dataSource: text(formData, "dataSource").trim(),
    primaryMetric: text(formData, "primaryMetric"),
    evaluation: evaluationValuesFromForm(formData),
    phases,
  };
}

/**
 * Creates a task from the new-task form as a draft (site admins only; `createTask` checks
 * again), then redirects to its manage page, whose status card says it is a draft. Opening and closing times are read in each phase's display
 * zone; the evaluation profile's custom settings are sent only with the custom profile.
 *
 * @returns on failure, the message, field errors (paths such as `phases.1.closesAt`) and the
 *   values to show again
 */
export async function createTaskAction(previous: NewTaskState, formData: FormData): Promise<NewTaskState> {
  const values = valuesFromForm(formData);
  const attempt = previous.status === "error" ? previous.attempt + 1 : 1;
  const converted = values.phases.map((p, i) => phaseInputFromValues(p, `phases.${i}.`));
  const earlier: FieldError[] = converted.flatMap((c) => c.errors);
  const input = {
    slug: values.slug,
    title: values.title,
    description: values.description,
    dataLicense: values.dataLicense,
    dataSource: values.dataSource,
    primaryMetric: values.primaryMetric,
    ...evaluationInputFromValues(values.evaluation),
    phases: converted.map((c) => c.input),
  };
  return runAction<NewTaskState>(
    "creating a task",
    async (viewer) => {
      // Times or limits that could not be read: report them with every other problem, create nothing.
      if (earlier.length > 0) {
        parseInput(createTaskSchema, input, "task");
        throw new ValidationError("Please correct the marked fields.");
      }
      const { slug } = await createTask(viewer, input);
      redirect(`/tasks/${encodeURIComponent(slug)}/manage`);
    },
    (failure) => ({ status: "error", values, attempt, ...failure }),
    earlier,
  );
}
