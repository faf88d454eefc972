"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import type { FormatProblem } from "../../lib/errors";
import { Field, Notice, primaryButton, SelectField, TextAreaField } from "./ui";

/** What the form shows after a failed upload. */
interface UploadFailure {
  message: string;
  problems: FormatProblem[];
  fieldErrors: Record<string, string>;
}

/** How many format problems are listed before "and N more". */
const SHOWN_PROBLEMS = 5;

type UploadState =
  | { phase: "idle" }
  | { phase: "uploading"; percent: number }
  | { phase: "done"; id: string }
  | { phase: "failed"; failure: UploadFailure };

/** Reads an error answer of the API (`{error: {code, message, errors|formatErrors, fieldErrors}}`). */
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
  return { message, problems, fieldErrors };
}

/**
 * The submission form: file and metadata, uploaded with XMLHttpRequest to
 * `POST /api/v1/phases/{phaseId}/submissions` (the session cookie authenticates), so that
 * upload progress drives a progress bar. On 202 it goes to the new submission's page; on 422
 * it lists the file's problems with file:line:column, expected and found; on other errors
 * it shows the message.
 *
 * @param phaseId the phase to submit to
 * @param teams the user's teams when they must choose one (a required select); else null
 */
export function RunUploadForm({ phaseId, teams }: { phaseId: string; teams: { id: string; name: string }[] | null }) {
  const router = useRouter();
  const [state, setState] = useState<UploadState>({ phase: "idle" });
  const busy = state.phase === "uploading" || state.phase === "done";
  const failure = state.phase === "failed" ? state.failure : null;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const data = new FormData(event.currentTarget);
    const xhr = new XMLHttpRequest();
    xhr.open("POST", `/api/v1/phases/${encodeURIComponent(phaseId)}/submissions`);
    xhr.responseType = "json";
    xhr.setRequestHeader("Accept", "application/json");
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) setState({ phase: "uploading", percent: Math.min(100, Math.floor((e.loaded / e.total) * 100)) });
    };
    // The body is sent; the server now reads and checks the file.
    xhr.upload.onload = () => setState({ phase: "uploading", percent: 100 });
    xhr.onload = () => {
      const body: unknown = xhr.response;
      const id = (body as { id?: unknown } | null)?.id;
      if (xhr.status === 202 && typeof id === "string") {
        setState({ phase: "done", id });
        router.push(`/submissions/${encodeURIComponent(id)}`);
        return;
      }
      setState({ phase: "failed", failure: failureFrom(xhr.status, body) });
    };
    xhr.onerror = () => setState({ phase: "failed", failure: failureFrom(0, null) });
    xhr.onabort = () => setState({ phase: "idle" });
    setState({ phase: "uploading", percent: 0 });
    xhr.send(data);
  }

  const percent = state.phase === "uploading" ? state.percent : state.phase === "done" ? 100 : 0;

  return (
    <form onSubmit={submit} className="space-y-4" aria-describedby={failure ? "upload-error" : undefined}>
      {teams && (
        <SelectField
          label="Team"
          name="team"
          required
          defaultValue=""
          placeholder="Choose the team this run is for"
          options={teams.map((t) => [t.id, t.name] as const)}
          error={failure?.fieldErrors.team}
        />
      )}
      <Field
        label="System output file"
        name="file"
        type="file"
        required
        hint="CoNLL-2012 (.conll, .v4_gold_conll…), CorefUD CoNLL-U (.conllu) or JSON lines (.jsonl)."
        error={failure?.fieldErrors.file}
      />
      <Field label="System name" name="systemName" required maxLength={100} placeholder="e.g. span-bert-large" error={failure?.fieldErrors.systemName} />
      <TextAreaField label="Description (optional)" name="description" rows={3} maxLength={5000} error={failure?.fieldErrors.description} />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Paper URL (optional)" name="paperUrl" type="url" placeholder="https://…" error={failure?.fieldErrors.paperUrl} />
        <Field label="Code URL (optional)" name="codeUrl" type="url" placeholder="https://…" error={failure?.fieldErrors.codeUrl} />
      </div>

      {state.phase !== "idle" && state.phase !== "failed" && <RunUploadProgress percent={percent} checking={percent === 100} />}
      {failure && <RunUploadFailure failure={failure} />}

      <button type="submit" className={primaryButton} disabled={busy}>
        {busy ? "Uploading…" : "Upload and score"}
      </button>
    </form>
  );
}

/** The upload progress bar with its percentage. */
function RunUploadProgress({ percent, checking }: { percent: number; checking: boolean }) {
  return (
    <div className="space-y-1" data-testid="upload-progress">
      <div className="flex justify-between text-xs text-zinc-600">
        <span id="upload-progress-label">{checking ? "Uploaded; checking the file…" : "Uploading…"}</span>
        <span data-testid="upload-percent" className="tabular-nums">
          {percent} %
        </span>
      </div>
      <div
        role="progressbar"
        aria-labelledby="upload-progress-label"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={`${percent} %`}
        className="h-2 w-full overflow-hidden rounded-full bg-zinc-200"
      >
        <div className="h-full bg-zinc-900 transition-[width]" style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}

/** The error box of a failed upload: the message, then the first few format problems and a count. */
function RunUploadFailure({ failure }: { failure: UploadFailure }) {
  const { problems } = failure;
  return (
    <div id="upload-error" data-testid="upload-error">
      <Notice kind="error">
        <p className="font-medium">{failure.message}</p>
        {problems.length > 0 && (
          <>
            <ul className="mt-2 space-y-2" data-testid="format-errors">
              {problems.slice(0, SHOWN_PROBLEMS).map((p, i) => (
                <li key={i} className="font-mono text-xs">
                  <span className="font-semibold" data-testid="format-error-location">
                    {p.file}:{p.line}:{p.column}
                  </span>{" "}
                  <span className="font-sans">{p.message}</span>
                  <br />
                  expected: <span className="text-zinc-900">{p.expected}</span>; found: <span className="text-zinc-900">{p.found}</span>
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
