"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useState, type FormEvent } from "react";
import type { FormatProblem } from "@/lib/errors";
import type { GoldKeyMeta } from "@/lib/tasks";
import { Notice, SelectField, primaryButton, secondaryButton } from "@/app/_components/ui";
import { postFormWithProgress, UploadProgress } from "@/app/_components/upload-progress";

/** One dataset of a gold upload as the form reports it. */
interface GoldUploadDataset {
  name: string;
  version: number;
  fileName: string;
  unchanged: boolean;
}

/** State of the form: idle, sending (with the share sent: null while unknown), or the answer. */
type GoldUploadState =
  | { status: "idle" }
  | { status: "uploading"; percent: number | null }
  | { status: "uploaded"; gold: GoldKeyMeta; requeued: number; unchanged: boolean; message: string; datasets: GoldUploadDataset[] }
  | ({ status: "error" } & UploadRefusal);

/** What an upload route's refusal says, as a form shows it ({@link uploadRefusal}). */
export interface UploadRefusal {
  message: string;
  /** field path → message */
  fieldErrors: Record<string, string>;
  formatErrors: FormatProblem[];
}

/** The answer of `POST /api/v1/phases/{phaseId}/gold` (200/201), as far as the form reads it. */
interface GoldUploadAnswer {
  gold: GoldKeyMeta;
  datasets: { dataset: { name: string }; gold: { version: number; fileName: string }; unchanged: boolean }[];
  requeued: number;
  unchanged: boolean;
  message: string;
}

/**
 * The form's state for an answer of the gold upload route: the upload's result on 200/201,
 * else the API error's message, field errors (`fieldErrors: [{path, message}]`) and format
 * problems (`errors`/`formatErrors`).
 *
 * @param status the HTTP status (0: the request did not reach the server)
 * @param body the parsed JSON answer, or null
 * @param size the file's size in bytes, for the message when nothing came back
 */
function stateFromAnswer(status: number, body: unknown, size: number | null): GoldUploadState {
  if ((status === 200 || status === 201) && body && typeof body === "object" && "gold" in body) {
    const answer = body as GoldUploadAnswer;
    const datasets = (answer.datasets ?? []).map((d) => ({ name: d.dataset.name, version: d.gold.version, fileName: d.gold.fileName, unchanged: d.unchanged }));
    return { status: "uploaded", gold: answer.gold, requeued: answer.requeued, unchanged: answer.unchanged, message: answer.message, datasets };
  }
  return { status: "error", ...uploadRefusal(status, body, size) };
}

/**
 * What an upload route's refusal says, for a form: the API error's message (or, when nothing
 * came back, what happened), its field errors (`fieldErrors: [{path, message}]`, by path) and
 * its format problems (`errors`/`formatErrors`). Used by the gold key and blind input forms.
 *
 * @param status the HTTP status (0: the request did not reach the server)
 * @param body the parsed JSON answer, or null
 * @param size the file's size in bytes, for the message when nothing came back
 */
export function uploadRefusal(status: number, body: unknown, size: number | null): UploadRefusal {
  const error = (body as { error?: Record<string, unknown> } | null)?.error;
  const shown = size === null ? "" : ` (${(size / (1024 * 1024)).toFixed(2)} MB)`;
  const message =
    typeof error?.message === "string"
      ? error.message
      : status === 0
        ? `The upload${shown} did not reach the server. Please check your connection and try again.`
        : `The upload${shown} failed (HTTP ${status}). Please try again.`;
  const list = (Array.isArray(error?.errors) ? error.errors : Array.isArray(error?.formatErrors) ? error.formatErrors : []) as unknown[];
  const formatErrors = list.filter((p): p is FormatProblem => typeof p === "object" && p !== null && "line" in p);
  const fieldErrors: Record<string, string> = {};
  if (Array.isArray(error?.fieldErrors)) {
    for (const f of error.fieldErrors as { path?: unknown; message?: unknown }[]) {
      if (typeof f.path === "string" && typeof f.message === "string") fieldErrors[f.path] = f.message;
    }
  }
  return { message, fieldErrors, formatErrors };
}

/** The statistics of a newly uploaded gold key version. */
function UploadedStats({ gold, requeued }: { gold: GoldKeyMeta; requeued: number }) {
  const rows: [string, string | number][] = [
    ["Documents", gold.stats.documents],
    ["Tokens", gold.stats.tokens],
    ["Mentions", gold.stats.mentions],
    ["Entities", gold.stats.entities],
    ["Singletons", gold.stats.singletons],
    ["Reader warnings", gold.stats.warnings],
    ["Size", `${gold.size} bytes`],
  ];
  return (
    <Notice kind="success">
      <p className="font-medium">
        Gold key version {gold.version} ({gold.fileName}) is now active. {requeued} submission{requeued === 1 ? " was" : "s were"} re-queued for scoring.
      </p>
      <dl className="mt-2 grid grid-cols-[9rem_1fr] gap-y-0.5" data-testid="gold-upload-stats">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt>{label}</dt>
            <dd className="font-mono tabular-nums" data-testid={`gold-stat-${label.toLowerCase().replace(/\s+/g, "-")}`}>
              {value}
            </dd>
          </div>
        ))}
        <dt>sha256</dt>
        <dd className="break-all font-mono text-xs" data-testid="gold-stat-sha256">
          {gold.sha256}
        </dd>
      </dl>
    </Notice>
  );
}

/** Format problems of a rejected file: `file:line:column`, expected and found. */
export function FormatProblems({ problems, testId = "gold-format-errors" }: { problems: FormatProblem[]; testId?: string }) {
  return (
    <ul className="mt-2 space-y-2" data-testid={testId}>
      {problems.map((p, i) => (
        <li key={i} className="rounded border border-red-200 bg-white px-3 py-2">
          <p className="font-mono text-xs font-semibold">
            {p.file}:{p.line}:{p.column}
          </p>
          <p className="mt-1">
            Line {p.line}, column {p.column}: expected <span className="font-medium">{p.expected}</span>, found{" "}
            <span className="font-mono text-xs">{p.found}</span>
          </p>
        </li>
      ))}
    </ul>
  );
}

/** What an upload did per dataset (phases with several datasets). */
function UploadedDatasets({ message, datasets }: { message: string; datasets: GoldUploadDataset[] }) {
  return (
    <Notice kind="success">
      <p className="font-medium">{message}</p>
      <ul className="mt-2 space-y-0.5" data-testid="gold-upload-datasets">
        {datasets.map((d) => (
          <li key={d.name}>
            <span className="font-medium">{d.name}</span>: version {d.version} ({d.fileName}){d.unchanged ? ", unchanged: identical to the active version" : ", new and active"}
          </li>
        ))}
      </ul>
    </Notice>
  );
}

/** The archive kinds the gold key's file input accepts beside the single-file formats. */
const GOLD_ARCHIVES_ACCEPT = ".zip,.tar.gz,.tgz";

/** A dataset the gold upload form offers. */
export interface GoldUploadDatasetOption {
  id: string;
  name: string;
  fileName: string;
}

/**
 * Uploads a new gold key version for a phase's dataset, or an archive with a file per
 * dataset, and shows the statistics (one dataset) or each dataset's version; or says that the
 * file is identical to the active version (nothing changed); or the reasons the file was
 * refused (with line numbers, or why the dataset or the task's evaluation profile cannot take
 * its format).
 *
 * Re-uploading asks first: when the phase has an active gold key and runs (`impact`), pressing
 * the button shows "This re-scores N runs of this phase. Upload?" with Confirm and Cancel, and
 * the file is sent only on Confirm. (The server still decides: a byte-identical file changes
 * nothing and re-scores no run, and says so.)
 *
 * The file is sent with XMLHttpRequest to `POST /api/v1/phases/{phaseId}/gold` (the session
 * cookie authenticates; the route streams the body within the upload limit), so that a
 * progress bar shows how much is sent; server actions take small forms only (1 MB).
 *
 * @param datasets the phase's datasets in order; with one, the dataset choice is hidden
 * @param needsHeads the task's evaluation profile matches mentions by heads, so gold must be `.conllu`
 * @param impact from `goldUploadImpact`: how many runs a new version re-queues, and whether the phase has an active gold key
 */
export function GoldUploadForm({
  phaseId,
  maxBytes,
  needsHeads,
  datasets,
  impact = { runs: 0, hasActiveGold: false },
}: {
  phaseId: string;
  maxBytes: number;
  needsHeads: boolean;
  datasets: GoldUploadDatasetOption[];
  impact?: { runs: number; hasActiveGold: boolean };
}) {
  const { state, pending, confirming, setConfirming, formRef, send, onSubmit } = useGoldUpload(phaseId, impact);
  const inputId = `gold-file-${phaseId}`;
  const several = datasets.length > 1;
  return (
    <div className="space-y-3">
      <form ref={formRef} onSubmit={onSubmit} className="flex flex-col gap-3 sm:flex-row sm:items-start" aria-label="Upload gold key">
        <GoldDatasetChoice phaseId={phaseId} datasets={datasets} error={state.status === "error" ? state.fieldErrors.dataset : undefined} />
        <GoldFileInput inputId={inputId} needsHeads={needsHeads} maxBytes={maxBytes} several={several} />
        <button type="submit" disabled={pending || confirming} className={`${primaryButton} shrink-0 whitespace-nowrap sm:mt-6`}>
          {pending ? "Uploading…" : "Upload gold key"}
        </button>
      </form>
      {state.status === "uploading" && <UploadProgress percent={state.percent} stage={state.percent === 100 ? "Uploaded; checking the file" : "Uploading the gold key"} testIdPrefix="gold-upload-" labelId={`gold-progress-${phaseId}`} />}
      {confirming && <GoldUploadConfirm phaseId={phaseId} runs={impact.runs} onConfirm={send} onCancel={() => setConfirming(false)} />}
      {state.status === "uploaded" && <GoldUploadOutcome uploaded={state} several={several} />}
      {state.status === "error" && <GoldUploadError refusal={state} />}
    </div>
  );
}

/**
 * The gold upload form's state and sending: the answer's state, whether a re-upload awaits its
 * confirmation (`confirming`: the phase has an active gold key, or a version was just added,
 * and runs to re-score), and the page's reload after a new version (its versions table and the
 * next upload's impact change).
 *
 * @param phaseId the phase the file goes to (`POST /api/v1/phases/{phaseId}/gold`)
 * @param impact how many runs a new version re-queues, and whether the phase has an active gold key
 * @returns the state; `formRef` for the form; `send` sends the form's file (an error without
 *   one), `onSubmit` asks for the confirmation first when it is needed
 */
function useGoldUpload(phaseId: string, impact: { runs: number; hasActiveGold: boolean }) {
  const [state, setState] = useState<GoldUploadState>({ status: "idle" });
  const pending = state.status === "uploading";
  const [confirming, setConfirming] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const router = useRouter();
  const changed = state.status === "uploaded" && !state.unchanged;
  // A new version changes the versions table and what the next upload re-scores: reload them.
  useEffect(() => {
    if (changed) router.refresh();
  }, [changed, state, router]);
  const mustConfirm = (impact.hasActiveGold || changed) && impact.runs > 0;
  const send = () => {
    const form = formRef.current;
    if (!form) return;
    if (pending) return;
    setConfirming(false);
    const data = new FormData(form);
    const file = data.get("file");
    const size = file instanceof File ? file.size : null;
    if (!(file instanceof File) || (file.size === 0 && file.name === "")) {
      setState({ status: "error", message: "Please choose a gold key file.", fieldErrors: { file: "choose a file" }, formatErrors: [] });
      return;
    }
    // The file and the dataset go to the upload route; the session cookie authenticates.
    postFormWithProgress(`/api/v1/phases/${encodeURIComponent(phaseId)}/gold`, data, {
      progress: (percent) => setState({ status: "uploading", percent }),
      answered: (status, body) => setState(stateFromAnswer(status, body, size)),
      failed: () => setState(stateFromAnswer(0, null, size)),
      aborted: () => setState({ status: "idle" }),
    });
  };
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    // The form is sent here, not by a form action: a re-upload waits for the confirmation.
    event.preventDefault();
    if (mustConfirm) setConfirming(true);
    else send();
  };
  return { state, pending, confirming, setConfirming, formRef, send, onSubmit };
}

/** What an accepted upload did: nothing (a file identical to the active version), each dataset's version (several), or the new version's statistics. */
function GoldUploadOutcome({ uploaded, several }: { uploaded: Extract<GoldUploadState, { status: "uploaded" }>; several: boolean }) {
  if (uploaded.unchanged) {
    return (
      <div data-testid="gold-upload-unchanged">
        <Notice kind="info">{uploaded.message} No version was added and no submission was re-queued.</Notice>
      </div>
    );
  }
  if (several || uploaded.datasets.length > 1) return <UploadedDatasets message={uploaded.message} datasets={uploaded.datasets} />;
  return <UploadedStats gold={uploaded.gold} requeued={uploaded.requeued} />;
}

/** The dataset choice of a phase with several datasets (one, or "Several: an archive"); a hidden empty `dataset` for a phase with one. */
function GoldDatasetChoice({ phaseId, datasets, error }: { phaseId: string; datasets: GoldUploadDatasetOption[]; error: string | undefined }) {
  if (datasets.length <= 1) return <input type="hidden" name="dataset" value="" />;
  return (
    <div className="sm:w-64">
      <SelectField
        id={`gold-dataset-${phaseId}`}
        label="Dataset"
        name="dataset"
        defaultValue=""
        options={[["", "Several: an archive, files named as the datasets' expected file names"], ...datasets.map((d): [string, string] => [d.id, `${d.name} (${d.fileName})`])]}
        error={error}
      />
    </div>
  );
}

/** The gold key's file input, accepting the formats the task's evaluation profile can take and archives, with a hint saying which and up to what size. */
function GoldFileInput({ inputId, needsHeads, maxBytes, several }: { inputId: string; needsHeads: boolean; maxBytes: number; several: boolean }) {
  return (
    <div className="space-y-1">
      <label htmlFor={inputId} className="block text-sm font-medium text-zinc-800">
        Gold key file
      </label>
      <input
        id={inputId}
        name="file"
        type="file"
        required
        accept={`${needsHeads ? ".conllu" : ".conll,.gold_conll,.v4_gold_conll,.conllu,.jsonl,.jsonlines,.json,.txt"},${GOLD_ARCHIVES_ACCEPT}`}
        aria-describedby={`${inputId}-hint`}
        className="block text-sm file:mr-3 file:rounded-md file:border file:border-zinc-300 file:bg-white file:px-3 file:py-1.5 file:text-sm file:font-medium hover:file:bg-zinc-100"
      />
      <p id={`${inputId}-hint`} className="text-xs text-zinc-500">
        {needsHeads
          ? "CorefUD CoNLL-U (.conllu): the task's evaluation profile matches mentions by their heads"
          : "CoNLL-2012, CorefUD (.conllu) or JSON lines (.jsonl)"}
        , up to {(maxBytes / (1024 * 1024)).toFixed(0)} MB; or a .zip or .tar.gz archive with one file per dataset, each named as its dataset&rsquo;s expected file name
        {several ? " (datasets left out keep their gold keys)" : ""}. Only organizers ever see it. A file identical to its dataset&rsquo;s active version changes nothing.
      </p>
    </div>
  );
}

/** "This re-scores N runs of this phase. Upload?" with Confirm (sends the file) and Cancel. */
function GoldUploadConfirm({ phaseId, runs, onConfirm, onCancel }: { phaseId: string; runs: number; onConfirm: () => void; onCancel: () => void }) {
  return (
    <div role="alertdialog" aria-labelledby={`gold-confirm-${phaseId}`} className="flex flex-col gap-2 rounded-md border border-amber-200 bg-amber-50 p-3 text-sm sm:flex-row sm:items-center" data-testid="gold-upload-confirm">
      <p id={`gold-confirm-${phaseId}`} className="text-amber-900">
        This re-scores {runs} run{runs === 1 ? "" : "s"} of this phase. Upload?
        <span className="block text-xs">A file identical to the active version changes nothing and re-scores no run.</span>
      </p>
      <div className="flex gap-2">
        <button type="button" className={primaryButton} onClick={onConfirm} autoFocus>
          Confirm
        </button>
        <button type="button" className={secondaryButton} onClick={onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}

/** A refused gold upload: what happened (unreadable file, refused file, or the message), the format problems, and each field's error. */
function GoldUploadError({ refusal }: { refusal: UploadRefusal }) {
  return (
    <Notice kind="error">
      <p className="font-medium">
        {refusal.formatErrors.length > 0
          ? "The file could not be read; nothing was stored."
          : refusal.fieldErrors.file || refusal.fieldErrors.dataset
            ? "The file was refused; nothing was stored."
            : refusal.message}
      </p>
      {refusal.formatErrors.length > 0 && <FormatProblems problems={refusal.formatErrors} />}
      {Object.entries(refusal.fieldErrors).map(([field, message]) => (
        <p key={field} className="mt-1">
          {message}
        </p>
      ))}
    </Notice>
  );
}
