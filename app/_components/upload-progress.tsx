/**
 * What the upload forms share (runs: `run-upload-form.tsx`; gold keys: the console's
 * `gold-upload-form.tsx`): sending a form's file to its upload route with XMLHttpRequest, which
 * reports the bytes sent (fetch cannot), and the labelled progress bar that shows them. The
 * routes stream and check the body themselves (`lib/multipart-upload.ts`); the session cookie
 * authenticates.
 */

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
