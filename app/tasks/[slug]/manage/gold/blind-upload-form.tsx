"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { Field, Notice, secondaryButton } from "@/app/_components/ui";
import { postFormWithProgress, UploadProgress } from "@/app/_components/upload-progress";
import { FormatProblems, uploadRefusal, type UploadRefusal } from "../gold-upload-form";

/** State of the form: idle, sending (the share sent: null while unknown), taken, or refused. */
type BlindUploadState =
  | { status: "idle" }
  | { status: "uploading"; percent: number | null }
  | { status: "uploaded"; sha256: string; size: number }
  | ({ status: "error" } & UploadRefusal);

/** Props of {@link BlindUploadForm}. */
export interface BlindUploadFormProps {
  phaseId: string;
  dataset: { id: string; name: string; format: string; fileName: string };
  /** UPLOAD_MAX_BYTES, for the hint */
  maxBytes: number;
}

/**
 * One dataset's "Upload a blind input" form in the console's gold tab: the organizers' own
 * file instead of the one derived from the gold key. It is sent with XMLHttpRequest to `POST
 * /api/v1/phases/{phaseId}/datasets/{datasetId}/blind` (the session cookie authenticates; the
 * route streams the body within the upload limit and refuses a file holding coreference), with
 * a progress bar; the page is reloaded once the file is taken.
 */
export function BlindUploadForm({ phaseId, dataset, maxBytes }: BlindUploadFormProps) {
  const [state, setState] = useState<BlindUploadState>({ status: "idle" });
  const router = useRouter();
  const pending = state.status === "uploading";
  const inputId = `blind-file-${dataset.id}`;
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (pending) return;
    const data = new FormData(event.currentTarget);
    const file = data.get("file");
    if (!(file instanceof File) || (file.size === 0 && file.name === "")) {
      setState({ status: "error", message: "Please choose a file.", fieldErrors: { file: "choose a file" }, formatErrors: [] });
      return;
    }
    postFormWithProgress(`/api/v1/phases/${encodeURIComponent(phaseId)}/datasets/${encodeURIComponent(dataset.id)}/blind`, data, {
      progress: (percent) => setState({ status: "uploading", percent }),
      answered: (status, body) => {
        const blind = (body as { blind?: { sha256?: unknown; size?: unknown } } | null)?.blind;
        if (status === 201 && typeof blind?.sha256 === "string" && typeof blind.size === "number") {
          setState({ status: "uploaded", sha256: blind.sha256, size: blind.size });
          router.refresh();
        } else setState({ status: "error", ...uploadRefusal(status, body, file.size) });
      },
      failed: () => setState({ status: "error", ...uploadRefusal(0, null, file.size) }),
      aborted: () => setState({ status: "idle" }),
    });
  };
  return (
    <div className="space-y-2">
      <form onSubmit={onSubmit} className="flex flex-col gap-2 sm:flex-row sm:items-end" aria-label={`Upload a blind input for ${dataset.name}`} data-testid="blind-upload-form">
        <Field
          id={inputId}
          label="Or upload your own"
          name="file"
          type="file"
          required
          accept={dataset.format === "conllu" ? ".conllu" : ".conll,.gold_conll,.v4_gold_conll,.jsonl,.jsonlines,.json,.txt"}
          hint={`${dataset.format === "conllu" ? "CorefUD CoNLL-U (.conllu)" : "CoNLL-2012 or JSON lines"}, up to ${(maxBytes / (1024 * 1024)).toFixed(0)} MB, with no coreference annotation${dataset.format === "conllu" ? " (no Entity, Bridge or SplitAnte in MISC)" : ""}. Participants download it as ${dataset.fileName}.`}
        />
        <button type="submit" disabled={pending} className={`${secondaryButton} shrink-0 whitespace-nowrap`} aria-label={`Upload the blind input of ${dataset.name}`}>
          {pending ? "Uploading…" : "Upload"}
        </button>
      </form>
      {state.status === "uploading" && (
        <UploadProgress
          percent={state.percent}
          stage={state.percent === 100 ? "Uploaded; checking the file" : "Uploading the blind input"}
          testIdPrefix="blind-upload-"
          labelId={`blind-progress-${dataset.id}`}
        />
      )}
      {state.status === "uploaded" && (
        <p className="text-xs text-emerald-800" role="status" data-testid="blind-upload-done">
          Taken: {state.size} bytes, sha256 <code>{state.sha256.slice(0, 12)}…</code>. It replaces the previous blind input.
        </p>
      )}
      {state.status === "error" && (
        <div data-testid="blind-upload-error">
          <Notice kind="error">
            <p className="font-medium">{state.formatErrors.length > 0 ? "The file could not be read; nothing was stored." : state.message}</p>
            {state.formatErrors.length > 0 && <FormatProblems problems={state.formatErrors} testId="blind-format-errors" />}
          </Notice>
        </div>
      )}
    </div>
  );
}
