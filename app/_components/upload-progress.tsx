/**
 * What the upload forms share (runs: `run-upload-form.tsx`; gold keys: the console's
 * `gold-upload-form.tsx`): sending a form's file to its upload route with XMLHttpRequest, which
 * reports the bytes sent (fetch cannot), and the labelled progress bar that shows them. The
 * routes stream and check the body themselves (`lib/http/multipart-upload.ts`); the session cookie
 * authenticates.
 *
 * After the last byte the server still reads and checks the file before it answers (the check
 * is part of the upload request: the run is stored, and gets its id, only once its file has
 * passed), which can take up to UPLOAD_VALIDATION_TIMEOUT_MS (30 s by default):
 * {@link CheckingWait} shows that wait.
 */

import { useEffect, useState } from "react";

/** What {@link postFormWithProgress} reports, in order: progress, then exactly one of the rest. */
export interface UploadHandlers {
  /** percent of the body sent (0–100), or null before the browser knows the total; 100 once every byte is sent */
  progress(percent: number | null): void;
  /** the server answered: its HTTP status and its JSON body (null when the body was not JSON) */
  answered(status: number, body: unknown): void;
  /** the request failed without an answer (network error, connection reset) */
  failed(): void;
  /** the request was aborted */
  aborted(): void;
}

/**
 * POSTs `data` (multipart) to `url`, asking for JSON, and reports through `handlers`: at once
 * `progress(null)`, then percentages as bytes are sent, `progress(100)` when the body is sent
 * (the server then reads and checks the file), and finally `answered`, `failed` or `aborted`.
 *
 * @returns the request, so that the caller can abort it
 */
export function postFormWithProgress(url: string, data: FormData, handlers: UploadHandlers): XMLHttpRequest {
  const xhr = new XMLHttpRequest();
  xhr.open("POST", url);
  xhr.responseType = "json";
  xhr.setRequestHeader("Accept", "application/json");
  xhr.upload.onprogress = (e) => {
    if (e.lengthComputable && e.total > 0) handlers.progress(Math.min(100, Math.floor((e.loaded / e.total) * 100)));
  };
  xhr.upload.onload = () => handlers.progress(100);
  xhr.onload = () => handlers.answered(xhr.status, xhr.response as unknown);
  xhr.onerror = () => handlers.failed();
  xhr.onabort = () => handlers.aborted();
  handlers.progress(null);
  xhr.send(data);
  return xhr;
}

/**
 * An upload's progress bar, labelled with its stage; the percentage is its value text.
 *
 * @param percent 0–100, or null while unknown
 * @param stage e.g. "Uploading the file"
 * @param testIdPrefix test ids `<prefix>progress` (the whole), `<prefix>stage` and `<prefix>percent`
 * @param labelId the stage label's element id, unique on the page (default `<prefix>progress-label`)
 */
export function UploadProgress({
  percent,
  stage,
  testIdPrefix,
  labelId = `${testIdPrefix}progress-label`,
}: {
  percent: number | null;
  stage: string;
  testIdPrefix: string;
  labelId?: string;
}) {
  const valueText = percent === null ? "…" : `${percent} %`;
  return (
    <div className="space-y-1" data-testid={`${testIdPrefix}progress`}>
      <div className="flex justify-between gap-3 text-xs text-zinc-700">
        <span id={labelId} data-testid={`${testIdPrefix}stage`}>
          {stage}
        </span>
        <span data-testid={`${testIdPrefix}percent`} className="tabular-nums" aria-hidden="true">
          {valueText}
        </span>
      </div>
      <div
        role="progressbar"
        aria-labelledby={labelId}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent ?? undefined}
        aria-valuetext={percent === null ? undefined : valueText}
        className="h-2 w-full overflow-hidden rounded-full bg-zinc-200"
      >
        <div className="h-full bg-zinc-900 transition-[width]" style={{ width: `${percent ?? 0}%` }} />
      </div>
    </div>
  );
}

/** How often (seconds) the wait after the upload is announced to screen readers: not more often than this. */
export const CHECKING_ANNOUNCE_EVERY_SECONDS = 10;

/**
 * What the polite live region says while the server checks an uploaded file: it changes only
 * every {@link CHECKING_ANNOUNCE_EVERY_SECONDS} seconds, so that screen readers announce the
 * wait at most that often (the visible counter, updated each second, is not announced). Pure.
 *
 * @param elapsedSeconds whole seconds since the last byte was sent
 */
export function checkingAnnouncement(elapsedSeconds: number): string {
  const step = Math.floor(Math.max(0, elapsedSeconds) / CHECKING_ANNOUNCE_EVERY_SECONDS) * CHECKING_ANNOUNCE_EVERY_SECONDS;
  return step === 0 ? "Uploaded; the server is checking the file." : `Still checking the file: ${step} seconds so far.`;
}

/**
 * The wait between the last byte sent and the server's answer: an indeterminate bar (its
 * sliding animation only for visitors who do not ask for reduced motion; otherwise a still
 * striped bar), the seconds elapsed (updated each second), a polite live region that speaks at
 * most every {@link CHECKING_ANNOUNCE_EVERY_SECONDS} seconds ({@link checkingAnnouncement}),
 * and what leaving the page means.
 *
 * @param since when the last byte was sent (`Date.now()` milliseconds)
 * @param leaveNote the sentence on leaving the page (what happens to the upload meanwhile)
 * @param testIdPrefix test ids `<prefix>checking`, `<prefix>checking-seconds`
 */
export function CheckingWait({ since, leaveNote, testIdPrefix }: { since: number; leaveNote: string; testIdPrefix: string }) {
  const [now, setNow] = useState(since);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const elapsed = Math.max(0, Math.floor((now - since) / 1000));
  return (
    <div className="space-y-1 text-xs text-zinc-700" data-testid={`${testIdPrefix}checking`}>
      <div className="relative h-1.5 w-full overflow-hidden rounded-full bg-zinc-200" aria-hidden="true">
        <div className="absolute inset-y-0 left-0 w-1/3 rounded-full bg-zinc-700 motion-safe:animate-[upload-slide_1.4s_ease-in-out_infinite] motion-reduce:w-full motion-reduce:bg-[repeating-linear-gradient(45deg,#52525b_0_6px,#a1a1aa_6px_12px)]" />
      </div>
      <p>
        <span aria-hidden="true">
          Checking the file… <span className="tabular-nums" data-testid={`${testIdPrefix}checking-seconds`}>{elapsed} s</span>.{" "}
        </span>
        <span className="sr-only" aria-live="polite">
          {checkingAnnouncement(elapsed)}
        </span>
        {leaveNote}
      </p>
      <style>{UPLOAD_SLIDE_KEYFRAMES}</style>
    </div>
  );
}

/** The indeterminate bar's keyframes (kept here rather than in the global stylesheet). */
const UPLOAD_SLIDE_KEYFRAMES = "@keyframes upload-slide{0%{transform:translateX(-100%)}100%{transform:translateX(300%)}}";
