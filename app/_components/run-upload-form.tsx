"use client";

import { useRouter } from "next/navigation";
import { useRef, useState, type ChangeEvent, type FormEvent } from "react";
import type { FormatProblem } from "@/lib/errors";
import type { Warning } from "@/scoring/types";
import { RunWarnings } from "./run-warnings";
import { CheckingWait, postFormWithProgress, UploadProgress } from "./upload-progress";
import { Field, Notice, primaryButton, secondaryButton, SelectField, TextAreaField } from "./ui";

/** The form field that confirms an upload despite document warnings (`ACKNOWLEDGE_WARNINGS_FIELD` of `lib/uploads/checks.ts`, which this client bundle does not import). */
const ACKNOWLEDGE_FIELD = "acknowledgeWarnings";

/** What the form shows after a failed upload. */
interface UploadFailure {
  message: string;
  problems: FormatProblem[];
  fieldErrors: Record<string, string>;
  /** the document check's warnings (a phase that refuses mismatching runs: 422) */
  warnings: Warning[];
  /** why a wrongly shaped upload was refused, in full (the API's `detail`; the message says what to upload) */
  detail: string | null;
  /** the phase's sample archive (the API's `sampleUrl`, a same-site path), linked under the message */
  sampleUrl: string | null;
}

/** The file input's `accept` for a phase with several datasets: the archive kinds `lib/uploads/archive.ts` reads. */
const ARCHIVE_ACCEPT = ".zip,.tar.gz,.tgz,application/zip,application/gzip,application/x-gzip";

/** How many format problems are listed before "and N more". */
const SHOWN_PROBLEMS = 5;

type UploadState =
  | { phase: "idle" }
  /**
   * `percent` null while the browser cannot tell how much is sent (no length); `sentAt` when
   * the last byte was sent (`Date.now()`), from then on the server checks the file
   */
  | { phase: "uploading"; percent: number | null; sentAt?: number }
  | { phase: "done"; id: string }
  | { phase: "failed"; failure: UploadFailure }
  /** 409: the document names do not match the gold key, or datasets are left out; nothing stored until the user confirms */
  | { phase: "confirm"; warnings: Warning[] };

/** The `warnings` of an API error body: well-formed entries only. */
function warningsFrom(error: Record<string, unknown> | undefined): Warning[] {
  if (!Array.isArray(error?.warnings)) return [];
  return (error.warnings as unknown[]).filter(
    (w): w is Warning => typeof w === "object" && w !== null && typeof (w as Warning).code === "string" && typeof (w as Warning).message === "string",
  );
}

/**
 * What the progress line says, one text for the bar's label, the bar's accessible name and
 * the submit button, so that they never disagree: "Uploading the file" while bytes are sent,
 * "Uploaded; checking the file" once the server has them all, "Uploaded; opening the run"
 * when the run is stored.
 */
function uploadStage(state: UploadState): string {
  if (state.phase === "done") return "Uploaded; opening the run";
  if (state.phase === "uploading" && state.percent === 100) return "Uploaded; checking the file";
  return "Uploading the file";
}

/** Reads an error answer of the API (`{error: {code, message, errors|formatErrors, fieldErrors, detail?, sampleUrl?}}`). */
function failureFrom(status: number, body: unknown): UploadFailure {
  const error = (body as { error?: Record<string, unknown> } | null)?.error;
  const message =
    typeof error?.message === "string"
      ? error.message
      : status === 0
        ? "The upload did not reach the server. Please check your connection and try again."
        : `The upload failed (HTTP ${status}). Please try again.`;
  const list = (Array.isArray(error?.errors) ? error.errors : Array.isArray(error?.formatErrors) ? error.formatErrors : []) as unknown[];
  const problems = list.filter((p): p is FormatProblem => typeof p === "object" && p !== null && "line" in p);
  const fieldErrors: Record<string, string> = {};
  if (Array.isArray(error?.fieldErrors)) {
    for (const f of error.fieldErrors as { path?: unknown; message?: unknown }[]) {
      if (typeof f.path === "string" && typeof f.message === "string") fieldErrors[f.path] = f.message;
    }
  }
  const detail = typeof error?.detail === "string" && error.detail !== message ? error.detail : null;
  const sampleUrl = typeof error?.sampleUrl === "string" && error.sampleUrl.startsWith("/api/") ? error.sampleUrl : null;
  return { message, problems, fieldErrors, warnings: warningsFrom(error), detail, sampleUrl };
}

/** The form's state after the API's answer: the run's id on 202, the warnings to confirm on a 409 `conflict` with warnings, else the failure. */
function stateFromAnswer(status: number, body: unknown): UploadState {
  const id = (body as { id?: unknown } | null)?.id;
  if (status === 202 && typeof id === "string") return { phase: "done", id };
  const error = (body as { error?: Record<string, unknown> } | null)?.error;
  const warnings = warningsFrom(error);
  if (status === 409 && error?.code === "conflict" && warnings.length > 0) return { phase: "confirm", warnings };
  return { phase: "failed", failure: failureFrom(status, body) };
}

/** What a field is given about the failure: see {@link fieldErrorProps}. */
type FieldErrorProps = { error?: string; "aria-invalid"?: true; "aria-describedby"?: string };

/**
 * A field's error text under the field, unless it is the failure's message (shown once, in the
 * error box): then the field is only marked invalid and described by the box (and its hint,
 * for the fields that have one: `hinted`).
 *
 * @param failure the failed upload, or null (no error for any field)
 * @param name the field's name, e.g. "file"
 * @param hinted the field has a hint (`field-<name>-hint`)
 */
function fieldErrorProps(failure: UploadFailure | null, name: string, hinted = false): FieldErrorProps {
  const text = failure?.fieldErrors[name];
  if (!text) return {};
  if (text !== failure.message) return { error: text };
  return { "aria-invalid": true, "aria-describedby": hinted ? `upload-error field-${name}-hint` : "upload-error" };
}

/**
 * The upload's state and its sending to `POST /api/v1/phases/{phaseId}/submissions`: progress,
 * then the answer ({@link stateFromAnswer}); on 202 the browser goes to the new run's page.
 * `send` does nothing while an upload is under way or done (`busy`).
 */
function useRunUpload(phaseId: string) {
  const router = useRouter();
  const [state, setState] = useState<UploadState>({ phase: "idle" });
  const busy = state.phase === "uploading" || state.phase === "done";

  function send(form: HTMLFormElement, acknowledge: boolean) {
    if (busy) return;
    const data = new FormData(form);
    if (acknowledge) data.set(ACKNOWLEDGE_FIELD, "true");
    postFormWithProgress(`/api/v1/phases/${encodeURIComponent(phaseId)}/submissions`, data, {
      // At 100 the body is sent; the server now reads and checks the file.
      progress: (percent) => setState({ phase: "uploading", percent, ...(percent === 100 ? { sentAt: Date.now() } : {}) }),
      answered: (status, body) => {
        const next = stateFromAnswer(status, body);
        setState(next);
        if (next.phase === "done") router.push(`/submissions/${encodeURIComponent(next.id)}`);
      },
      failed: () => setState({ phase: "failed", failure: failureFrom(0, null) }),
      aborted: () => setState({ phase: "idle" }),
    });
  }

  return { state, setState, busy, send };
}

/**
 * The submission form: file and metadata, uploaded with XMLHttpRequest to
 * `POST /api/v1/phases/{phaseId}/submissions` (the session cookie authenticates), so that
 * upload progress drives a progress bar (labelled with the stage the submit button shows
 * too, its percentage the bar's value text). Once every byte is sent, the server checks the
 * file inside the same request (the run, and its id, exist only once the file has passed), so
 * the form shows that wait (`CheckingWait`: an indeterminate bar with the seconds elapsed, and
 * that the page may be left). On 202 it goes to the new submission's page; on
 * 422 it lists the file's problems with file:line:column, expected and found (or the document
 * names that do not match the gold key, on a phase that refuses such runs); on other errors
 * it shows the message. Each error is shown once: in the error box, or under its field when
 * it is a field's own (`RunUploadFailure`).
 *
 * Document warnings (409 `conflict` with `warnings`: the run's document names do not match
 * the gold key's, or the archive leaves datasets out, on a phase that warns; nothing was
 * stored): the warnings are listed with a
 * "Submit anyway" button, which sends the same form again (the chosen file stays in its
 * input) with `acknowledgeWarnings=true`. Choosing another file clears the warnings.
 *
 * @param phaseId the phase to submit to
 * @param teams the user's teams when they must choose one (a required select); else null
 * @param tracks the phase's tracks in order (a required select of the run's track, sent as
 *   `track` = the track's id); none for a phase without tracks (no select)
 * @param datasetCount how many datasets the phase has (default 1): with several, the file
 *   input asks for an archive (.zip, .tar.gz, .tgz) and accepts only those; with one, a
 *   coreference file or an archive holding it
 * @param closedReason why nothing can be uploaded now (no runs left: until when): the form is
 *   shown with it and disabled (a disabled `<fieldset>`, so even before the script loads
 *   nothing can be sent); null when open
 */
export function RunUploadForm({
  phaseId,
  teams,
  tracks = [],
  datasetCount = 1,
  closedReason = null,
}: {
  phaseId: string;
  teams: { id: string; name: string }[] | null;
  tracks?: readonly { id: string; name: string }[];
  datasetCount?: number;
  /** why nothing can be uploaded now (e.g. no runs left until the daily reset): the form is shown disabled with it; null: open */
  closedReason?: string | null;
}) {
  const formRef = useRef<HTMLFormElement>(null);
  const { state, setState, busy, send } = useRunUpload(phaseId);
  const failure = state.phase === "failed" ? state.failure : null;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    send(event.currentTarget, false);
  }

  /** "Submit anyway": the same form again, confirming the document warnings. */
  function submitAnyway() {
    if (formRef.current && formRef.current.reportValidity()) send(formRef.current, true);
  }

  /** Another file makes the warnings about the previous one moot. */
  function changed(event: ChangeEvent<HTMLFormElement>) {
    if (state.phase === "confirm" && (event.target as { name?: string }).name === "file") setState({ phase: "idle" });
  }

  const stage = uploadStage(state);

  return (
    <form
      ref={formRef}
      onSubmit={submit}
      onChange={changed}
      className="space-y-4"
      aria-describedby={closedReason ? "upload-closed" : state.phase === "confirm" ? "upload-warnings" : undefined}
    >
      {closedReason && (
        <p id="upload-closed" className="rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900" data-testid="upload-closed">
          {closedReason}
        </p>
      )}
      <fieldset disabled={closedReason !== null} className="space-y-4">
        <RunUploadFields teams={teams} tracks={tracks} datasetCount={datasetCount} fieldError={(name, hinted) => fieldErrorProps(failure, name, hinted)} />

        <RunUploadStatus state={state} stage={stage} onSubmitAnyway={submitAnyway} />

        <button type="submit" className={state.phase === "confirm" ? secondaryButton : primaryButton} disabled={busy}>
          {busy ? `${stage}…` : "Upload and score"}
        </button>
      </fieldset>
    </form>
  );
}

/**
 * Where the upload stands, under the inputs: the progress bar while uploading and once done,
 * the wait while the server checks the file, the error box of a failed upload, or the
 * warnings to confirm.
 */
function RunUploadStatus({ state, stage, onSubmitAnyway }: { state: UploadState; stage: string; onSubmitAnyway: () => void }) {
  const percent = state.phase === "uploading" ? state.percent : state.phase === "done" ? 100 : null;
  return (
    <>
      {(state.phase === "uploading" || state.phase === "done") && <UploadProgress percent={percent} stage={stage} testIdPrefix="upload-" />}
      {state.phase === "uploading" && state.sentAt !== undefined && (
        <CheckingWait
          since={state.sentAt}
          testIdPrefix="upload-"
          leaveNote="The server reads the whole file before it stores the run (at most about 30 s per file). You may leave this page: the check goes on, a file that passes becomes a run of your team, and its scores appear on the run's page; warnings that need your confirmation are shown only here."
        />
      )}
      {state.phase === "failed" && <RunUploadFailure failure={state.failure} />}
      {state.phase === "confirm" && <RunUploadWarnings warnings={state.warnings} onSubmitAnyway={onSubmitAnyway} />}
    </>
  );
}

/**
 * The form's inputs: the team (when the user must choose one), the track (a phase with
 * tracks), the file (an archive only, for several datasets), the system's name, description,
 * paper and code URLs; each with its error as `fieldError` gives it.
 */
function RunUploadFields({
  teams,
  tracks,
  datasetCount,
  fieldError,
}: {
  teams: { id: string; name: string }[] | null;
  tracks: readonly { id: string; name: string }[];
  datasetCount: number;
  fieldError: (name: string, hinted?: boolean) => FieldErrorProps;
}) {
  const archiveOnly = datasetCount > 1;
  return (
    <>
      {teams && (
        <SelectField
          label="Team"
          name="team"
          required
          defaultValue=""
          placeholder="Choose the team this run is for"
          options={teams.map((t) => [t.id, t.name] as const)}
          {...fieldError("team")}
        />
      )}
      {tracks.length > 0 && (
        <SelectField
          label="Track"
          name="track"
          required
          defaultValue=""
          placeholder="Choose the track this run is in"
          options={tracks.map((t) => [t.id, t.name] as const)}
          hint="Each track is ranked on its own board (the tracks are described above)."
          {...fieldError("track", true)}
        />
      )}
      <Field
        label="System output file"
        name="file"
        type="file"
        required
        accept={archiveOnly ? ARCHIVE_ACCEPT : undefined}
        hint={
          archiveOnly
            ? `A .zip or .tar.gz (.tgz) with one file per dataset (${datasetCount} datasets, file names above); datasets left out count as 0.`
            : "CoNLL-2012 (.conll, .v4_gold_conll…), CorefUD CoNLL-U (.conllu) or JSON lines (.jsonl), or a .zip / .tar.gz (.tgz) holding the file."
        }
        {...fieldError("file", true)}
      />
      <Field label="System name" name="systemName" required maxLength={100} placeholder="e.g. span-bert-large" {...fieldError("systemName")} />
      <TextAreaField label="Description (optional)" name="description" rows={3} maxLength={5000} {...fieldError("description")} />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Paper URL (optional)" name="paperUrl" type="url" placeholder="https://…" {...fieldError("paperUrl")} />
        <Field label="Code URL (optional)" name="codeUrl" type="url" placeholder="https://…" {...fieldError("codeUrl")} />
      </div>
    </>
  );
}

/**
 * The warnings of a run on a phase that warns: what does not match (document names, datasets
 * the archive leaves out), that nothing was stored, and the choice between fixing the file
 * (choose another one and upload) and "Submit anyway".
 */
function RunUploadWarnings({ warnings, onSubmitAnyway }: { warnings: Warning[]; onSubmitAnyway: () => void }) {
  const leftOut = warnings.some((w) => w.code === "missing-dataset");
  const misnamed = warnings.some((w) => w.code !== "missing-dataset");
  const headline =
    leftOut && misnamed
      ? "This archive leaves datasets out, and its document names do not match the gold key."
      : leftOut
        ? "This archive has no file for some of the phase's datasets."
        : "The document names of this file do not match the gold key.";
  return (
    <div id="upload-warnings" data-testid="upload-warnings" role="alert" className="space-y-3 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950">
      <p className="font-medium">{headline}</p>
      <RunWarnings warnings={warnings} testId="document-warnings" />
      <p>
        Nothing was stored and no run was counted.{" "}
        {misnamed &&
          "Documents that are not in the gold key are ignored, and key documents missing from the file are scored as empty, which lowers the score. "}
        {leftOut && "A dataset without a file counts as 0 in the average. "}
        {misnamed && leftOut
          ? "Fix the names and add the missing files, or submit this archive as it is."
          : leftOut
            ? "Add the missing files and upload again, or submit this archive as it is."
            : "Fix the names and upload the corrected file, or submit this one as it is."}
      </p>
      <button type="button" className={primaryButton} onClick={onSubmitAnyway} data-testid="submit-anyway">
        Submit anyway
      </button>
    </div>
  );
}

/**
 * The error box of a failed upload, each thing said once: for a file that could not be read,
 * one line saying so, then each problem once (file:line:column, what was expected and what
 * was found: the API's message repeats exactly that, so it is not shown again) and a count;
 * otherwise the message (a field error with the same text is not repeated under the field),
 * for a wrongly shaped upload a link to the phase's sample archive and the full reason in a
 * collapsed `<details>`, then the document warnings when there are any.
 */
function RunUploadFailure({ failure }: { failure: UploadFailure }) {
  const { problems } = failure;
  return (
    <div id="upload-error" data-testid="upload-error">
      <Notice kind="error">
        <p className="break-words font-medium" data-testid="upload-error-message">
          {problems.length > 0 ? "The file could not be read." : failure.message}
        </p>
        {failure.sampleUrl && (
          <p className="mt-1">
            <a href={failure.sampleUrl} download className="font-medium underline" data-testid="upload-sample-link">
              Download a sample archive
            </a>{" "}
            with the expected file names.
          </p>
        )}
        {failure.detail && (
          <details className="mt-2 text-xs" data-testid="upload-error-detail">
            <summary className="cursor-pointer">Why this upload was refused</summary>
            <p className="mt-1 break-words">{failure.detail}</p>
          </details>
        )}
        {failure.warnings.length > 0 && (
          <div className="mt-2">
            <RunWarnings warnings={failure.warnings} testId="document-warnings" />
          </div>
        )}
        {problems.length > 0 && (
          <>
            <ul className="mt-2 space-y-2" data-testid="format-errors">
              {problems.slice(0, SHOWN_PROBLEMS).map((p, i) => (
                <li key={i} className="break-words text-xs">
                  <span className="break-all font-mono font-semibold" data-testid="format-error-location">
                    {p.file}:{p.line}:{p.column}
                  </span>
                  : expected <span className="font-mono text-zinc-900">{p.expected}</span>, found <span className="font-mono text-zinc-900">{p.found}</span>
                </li>
              ))}
            </ul>
            <p className="mt-2 text-xs">
              {problems.length > SHOWN_PROBLEMS
                ? `Showing ${SHOWN_PROBLEMS} of ${problems.length} problems.`
                : `${problems.length} problem${problems.length === 1 ? "" : "s"} found.`}{" "}
              Nothing was stored and no run was counted.
            </p>
          </>
        )}
      </Notice>
    </div>
  );
}
