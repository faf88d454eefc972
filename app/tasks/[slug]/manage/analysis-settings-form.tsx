"use client";

import { useActionState, useState } from "react";
import type { FormatProblem } from "@/lib/errors";
import { CheckboxField, Notice, primaryButton } from "@/app/_components/ui";
import { updateTaskAnalysisAction, type AnalysisSettingsState, type AnalysisSettingsValues } from "./actions";

/**
 * The categories a pronoun list names, in first-use order, read leniently (the server reads
 * the list properly when it is saved): every `form: category, category` line, skipping
 * blank lines, `#` comments and `@` directives.
 */
function categoriesInText(text: string): string[] {
  const seen = new Set<string>();
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#") || line.startsWith("@")) continue;
    const colon = line.indexOf(":");
    if (colon < 0) continue;
    for (const category of line.slice(colon + 1).split(",")) {
      const c = category.trim();
      if (c !== "" && !/\s/.test(c)) seen.add(c);
    }
  }
  return [...seen];
}

/** The outcome of the last save: saved (with the re-queue count) or the error with its format problems. */
function Result({ state }: { state: AnalysisSettingsState }) {
  if (state.status === "idle") return null;
  if (state.status === "saved") {
    const n = state.requeued;
    return (
      <div data-testid="analysis-settings-result">
        <Notice kind="success">
          Analysis settings saved.{" "}
          {n === 0
            ? "No submission needed re-scoring."
            : `${n} submission${n === 1 ? " was" : "s were"} re-queued for scoring, so that their analyses use the new settings.`}
        </Notice>
      </div>
    );
  }
  const fieldMessages = Object.entries(state.fieldErrors).filter(([path]) => !path.startsWith("pronounLexicon") && !path.startsWith("pronounExclusions"));
  return (
    <div data-testid="analysis-settings-result">
      <Notice kind="error">
        <p className="font-medium">{state.formatErrors.length > 0 ? "The pronoun list could not be read; nothing was saved." : state.message}</p>
        {state.formatErrors.length > 0 && <FormatProblems problems={state.formatErrors} />}
        {fieldMessages.map(([path, message]) => (
          <p key={path} className="mt-1">
            {message}
          </p>
        ))}
      </Notice>
    </div>
  );
}

/** Problems of a pronoun list that does not parse: line, column, expected and found. */
function FormatProblems({ problems }: { problems: FormatProblem[] }) {
  return (
    <ul className="mt-2 space-y-2" data-testid="analysis-settings-format-errors">
      {problems.map((p, i) => (
        <li key={i} className="rounded border border-red-200 bg-white px-3 py-2">
          <p>
            Line {p.line}, column {p.column}: expected <span className="font-medium">{p.expected}</span>, found{" "}
            <span className="font-mono text-xs">{p.found}</span>
          </p>
        </li>
      ))}
    </ul>
  );
}

/** The fields, with their own state (reset to the stored values after each save). */
function Fields({ taskId, state, pending }: { taskId: string; state: AnalysisSettingsState; pending: boolean }) {
  const values: AnalysisSettingsValues = state.values;
  const errors = state.status === "error" ? state.fieldErrors : {};
  const [english, setEnglish] = useState(values.englishLexicon);
  const [text, setText] = useState(values.lexiconText);
  const [excluded, setExcluded] = useState<string[]>(values.excludedCategories);
  const englishUnknown = english && values.englishText === null;
  const shownText = english && values.englishText !== null ? values.englishText : text;
  const categories = englishUnknown ? [] : shownText === values.lexiconText ? values.categories : categoriesInText(shownText);
  const lexiconError = errors.pronounLexicon;
  const exclusionError = Object.entries(errors).find(([path]) => path.startsWith("pronounExclusions"))?.[1];
  const toggle = (category: string, on: boolean) =>
    setExcluded((current) => (on ? [...current.filter((c) => c !== category), category] : current.filter((c) => c !== category)));

  return (
    <>
      <input type="hidden" name="taskId" value={taskId} />
      <fieldset className="space-y-2">
        <legend className="text-sm font-semibold text-zinc-900">Pronoun list</legend>
        <p className="text-xs text-zinc-600">
          The pronoun standard disclosure (Byron 2001) counts, for each pronoun form of this list found in the gold key, how many are
          referential and how many the run resolves correctly. One pronoun per line, as <code className="font-mono">form: category, category</code>;
          lines starting with <code className="font-mono">#</code> are comments, and an optional{" "}
          <code className="font-mono">@language CODE</code> line names the language.
        </p>
        <CheckboxField
          label="Use the shipped English lexicon"
          name="englishLexicon"
          id={`analysis-english-${taskId}`}
          checked={english}
          onChange={(e) => setEnglish(e.currentTarget.checked)}
        />
        <label htmlFor={`analysis-lexicon-${taskId}`} className="sr-only">
          Pronoun list
        </label>
        <textarea
          id={`analysis-lexicon-${taskId}`}
          name="pronounLexicon"
          rows={12}
          spellCheck={false}
          readOnly={english}
          value={shownText}
          onChange={(e) => setText(e.currentTarget.value)}
          aria-invalid={lexiconError ? true : undefined}
          aria-describedby={`analysis-lexicon-${taskId}-hint`}
          className="block w-full rounded-md border border-zinc-300 bg-white px-3 py-2 font-mono text-xs shadow-sm read-only:bg-zinc-50 read-only:text-zinc-500 focus:border-zinc-500 focus:outline-none focus:ring-2 focus:ring-zinc-200 aria-[invalid=true]:border-red-500"
        />
        <p id={`analysis-lexicon-${taskId}-hint`} className="text-xs text-zinc-500">
          {englishUnknown
            ? "The shipped English lexicon will be used; it is shown here after saving."
            : english
              ? "Untick “Use the shipped English lexicon” to edit the list, e.g. for another language."
              : "Changing the list re-queues every submission of the task for scoring."}
        </p>
        {lexiconError && <p className="text-sm text-red-700">{lexiconError}</p>}
      </fieldset>

      <fieldset className="space-y-2">
        <legend className="text-sm font-semibold text-zinc-900">Referential exclusions</legend>
        <p className="text-xs text-zinc-600">
          Byron&apos;s referential exclusions: pronouns of the ticked categories stay in the disclosure table but leave its evaluation set, for
          example first- and second-person pronouns, which in dialogue refer to the speaker and the hearer. Changing exclusions only changes
          how the table is shown; nothing is re-scored.
        </p>
        {englishUnknown ? (
          <p className="text-xs text-zinc-500">Save first; then choose among the English lexicon&apos;s categories.</p>
        ) : categories.length === 0 ? (
          <p className="text-xs text-zinc-500">The list names no categories.</p>
        ) : (
          <div className="grid gap-1 sm:grid-cols-3" data-testid="analysis-exclusions">
            {categories.map((category) => (
              <CheckboxField
                key={category}
                label={category}
                name="exclude"
                value={category}
                id={`analysis-exclude-${taskId}-${category}`}
                checked={excluded.includes(category)}
                onChange={(e) => toggle(category, e.currentTarget.checked)}
              />
            ))}
          </div>
        )}
        {exclusionError && <p className="text-sm text-red-700">{exclusionError}</p>}
      </fieldset>

      <fieldset className="space-y-2">
        <legend className="text-sm font-semibold text-zinc-900">Optional metric</legend>
        <CheckboxField
          label="Compute mapped cluster F (optional metric)"
          name="mappedClusterF"
          id={`analysis-mcf-${taskId}`}
          defaultChecked={values.mappedClusterF}
          hint="Adds the mapped cluster F score (“Mapped F”) to every run; switching it on or off re-queues every submission of the task for scoring."
        />
      </fieldset>

      <button type="submit" disabled={pending} className={primaryButton}>
        {pending ? "Saving…" : "Save analysis settings"}
      </button>
    </>
  );
}

/**
 * A task's analysis settings (organizers): the pronoun list of the standard disclosure, the
 * categories excluded from its evaluation set, and the optional mapped cluster F metric.
 */
export function AnalysisSettingsForm({ taskId, initial }: { taskId: string; initial: AnalysisSettingsValues }) {
  const [state, action, pending] = useActionState<AnalysisSettingsState, FormData>(updateTaskAnalysisAction, { attempt: 0, values: initial, status: "idle" });
  return (
    <div className="space-y-4">
      <Result state={state} />
      <form key={state.attempt} action={action} className="space-y-6" noValidate aria-label="Analysis settings" data-testid="analysis-settings-form">
        <Fields taskId={taskId} state={state} pending={pending} />
      </form>
    </div>
  );
}
