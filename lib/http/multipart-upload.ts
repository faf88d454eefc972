/**
 * Streaming reader for the upload routes' `multipart/form-data` bodies (issue 23 F1/F2), with
 * busboy instead of `request.formData()`: the body is parsed chunk by chunk as it arrives, and
 * every limit is enforced while streaming, so that an oversized or hostile body is refused as
 * soon as it passes a limit, without being held whole or parsed in one long turn of the event
 * loop.
 *
 * What a body may hold: exactly one file part (named `fileField`), at most `maxFileBytes`, and
 * text fields (at most `maxFields` of them, each at most `maxFieldBytes`); the whole body at most
 * `maxFileBytes + allowance`. The memory it holds is the file's bytes plus the small fields.
 */
import busboy from "busboy";
import { HttpError, MULTIPART_ALLOWANCE_BYTES, assertContentLength } from "./api";
import { TooLargeError, ValidationError } from "../errors";
import { formatMegabytes } from "../units";

/** Limits of one upload body. */
export interface MultipartUploadLimits {
  /** the file part's field name, e.g. "file" */
  fileField: string;
  /** largest file (bytes) */
  maxFileBytes: number;
  /** bytes the whole body may have beyond the file (boundaries, part headers, text fields); default MULTIPART_ALLOWANCE_BYTES */
  allowance?: number;
  /** most text fields (default 32) */
  maxFields?: number;
  /** largest text field value (bytes; default 16 KiB) */
  maxFieldBytes?: number;
  /** what the file is, for messages (default "file") */
  what?: string;
}

/** A read upload: the file and the text fields (the first value of each name). */
export interface MultipartUpload {
  file: { name: string; bytes: Uint8Array<ArrayBuffer> };
  fields: Record<string, string>;
}

const DEFAULT_MAX_FIELDS = 32;
const DEFAULT_MAX_FIELD_BYTES = 16 * 1024;

function tooLarge(size: number, maxBytes: number, what: string): TooLargeError {
  return new TooLargeError(`The upload is over ${formatMegabytes(maxBytes)}; the largest accepted ${what} is ${formatMegabytes(maxBytes)}.`, { maxBytes, size });
}

/**
 * Reads an upload body within `limits` (see the file comment), streaming it through busboy.
 * Checks the content type and `Content-Length` before reading; stops reading (and cancels
 * the body) at the first refusal.
 *
 * @returns the file (name and bytes) and the text fields
 * @throws HttpError 415 for another content type; HttpError 400 for a malformed or cut-off
 *   body; TooLargeError (413) for a body or file over its limit; HttpError 413
 *   (`too_large`) for too many or too long text fields; ValidationError (422, field
 *   `fileField`) when the file part is missing or empty-named and empty, or for a file part
 *   under another name or a second file
 */
export async function readMultipartUpload(request: Request, limits: MultipartUploadLimits): Promise<MultipartUpload> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\s*;/i.test(contentType)) {
    throw new HttpError(415, "unsupported_media_type", "Send the upload as multipart/form-data (e.g. curl -F file=@system.conll -F systemName=...).");
  }
  const what = limits.what ?? "file";
  const allowance = limits.allowance ?? MULTIPART_ALLOWANCE_BYTES;
  const maxBody = limits.maxFileBytes + allowance;
  const maxFields = limits.maxFields ?? DEFAULT_MAX_FIELDS;
  const maxFieldBytes = limits.maxFieldBytes ?? DEFAULT_MAX_FIELD_BYTES;
  assertContentLength(request, { maxBytes: limits.maxFileBytes, allowance, what });

  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": contentType },
      // busboy stops a file at `fileSize` bytes and reports that as its limit: one byte more than allowed.
      limits: { fileSize: limits.maxFileBytes + 1, files: 1, fields: maxFields, fieldSize: maxFieldBytes, parts: maxFields + 1 },
    });
  } catch {
    throw new HttpError(400, "bad_request", "The multipart/form-data body could not be read (no boundary in its Content-Type).");
  }

  const fields: Record<string, string> = {};
  let file: { name: string; chunks: Buffer[]; size: number; done: boolean } | null = null;
  let failure: unknown = null;
  const fail = (error: unknown) => {
    failure ??= error;
  };

  parser.on("field", (name, value, info) => {
    if (info.valueTruncated || info.nameTruncated) {
      fail(new HttpError(413, "too_large", `The form field "${name.slice(0, 100)}" is longer than ${maxFieldBytes} bytes.`));
      return;
    }
    if (!(name in fields)) fields[name] = value;
  });
  parser.on("file", (name, stream, info) => {
    // A cut-off body also errors the open file part's stream; the parser's own error says so.
    stream.on("error", () => fail(new HttpError(400, "bad_request", "The multipart/form-data body could not be read (it ends inside the file).")));
    if (name !== limits.fileField || file !== null) {
      stream.resume();
      fail(
        name === limits.fileField
          ? ValidationError.field(name, `Send one file as the "${limits.fileField}" field, not several.`)
          : ValidationError.field(name, `"${name.slice(0, 100)}" must be a text field; the only file field is "${limits.fileField}".`),
      );
      return;
    }
    const current = { name: info.filename ?? "", chunks: [] as Buffer[], size: 0, done: false };
    file = current;
    stream.on("data", (chunk: Buffer) => {
      current.size += chunk.length;
      if (failure === null) current.chunks.push(chunk);
    });
    stream.on("limit", () => fail(tooLarge(limits.maxFileBytes + 1, limits.maxFileBytes, what)));
    stream.on("end", () => {
      current.done = true;
    });
  });
  parser.on("filesLimit", () => fail(ValidationError.field(limits.fileField, `Send one file as the "${limits.fileField}" field, not several.`)));
  parser.on("fieldsLimit", () => fail(new HttpError(413, "too_large", `The form has more than ${maxFields} fields.`)));
  parser.on("partsLimit", () => fail(new HttpError(413, "too_large", `The form has more than ${maxFields + 1} parts.`)));

  const finished = new Promise<void>((resolve) => {
    parser.on("close", () => resolve());
    parser.on("error", (error: unknown) => {
      fail(new HttpError(400, "bad_request", `The multipart/form-data body could not be read${error instanceof Error ? ` (${error.message.slice(0, 100)})` : ""}.`));
      resolve();
    });
  });

  const reader = request.body?.getReader();
  let total = 0;
  try {
    if (reader) {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        total += value.byteLength;
        if (total > maxBody) fail(tooLarge(total, limits.maxFileBytes, what));
        if (failure !== null) break;
        if (!parser.write(value)) {
          await new Promise<void>((resolve) => {
            const go = () => {
              parser.off("drain", go);
              parser.off("close", go);
              resolve();
            };
            parser.on("drain", go);
            parser.on("close", go);
          });
        }
        if (failure !== null) break;
      }
    }
    if (failure === null) {
      parser.end();
      await finished;
    }
  } catch (error) {
    // The client went away (or the body stream broke) mid-upload.
    fail(new HttpError(400, "bad_request", `The upload was cut off${error instanceof Error ? ` (${error.message.slice(0, 100)})` : ""}.`));
  } finally {
    if (failure !== null) {
      parser.destroy();
      await reader?.cancel().catch(() => {});
    }
  }
  if (failure !== null) throw failure;

  const got = file as { name: string; chunks: Buffer[]; size: number; done: boolean } | null;
  if (got === null || (got.size === 0 && got.name === "")) {
    throw ValidationError.field(limits.fileField, `Attach the ${what} as the "${limits.fileField}" field (e.g. curl -F ${limits.fileField}=@system.conll).`);
  }
  if (!got.done) throw new HttpError(400, "bad_request", "The multipart/form-data body could not be read (the file part did not end).");
  const bytes = new Uint8Array(new ArrayBuffer(got.size));
  let offset = 0;
  for (const chunk of got.chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return { file: { name: got.name, bytes }, fields };
}

/**
 * The bytes one upload reserves on the body budget (`lib/http/body-budget.ts`): its declared
 * `Content-Length` when it has one within the limit, else the largest body it may send.
 */
export function uploadReservation(request: Request, limits: Pick<MultipartUploadLimits, "maxFileBytes" | "allowance">): number {
  const max = limits.maxFileBytes + (limits.allowance ?? MULTIPART_ALLOWANCE_BYTES);
  const declared = request.headers.get("content-length");
  if (declared !== null && /^\d+$/.test(declared.trim())) return Math.min(max, Number(declared));
  return max;
}
