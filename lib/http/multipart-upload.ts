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

/** The 413 for a body or file over `maxBytes` (`size`: the bytes seen so far). */
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
  const bounds: BodyBounds = {
    fileField: limits.fileField,
    maxFileBytes: limits.maxFileBytes,
    what: limits.what ?? "file",
    allowance: limits.allowance ?? MULTIPART_ALLOWANCE_BYTES,
    maxFields: limits.maxFields ?? DEFAULT_MAX_FIELDS,
    maxFieldBytes: limits.maxFieldBytes ?? DEFAULT_MAX_FIELD_BYTES,
  };
  assertContentLength(request, { maxBytes: bounds.maxFileBytes, allowance: bounds.allowance, what: bounds.what });
  const parser = createParser(contentType, bounds);
  const state: ParseState = { fields: {}, file: null, failure: null };
  listenToParts(parser, state, bounds);
  await pumpBody(request, parser, state, bounds);
  if (state.failure !== null) throw state.failure;
  const bytes = fileBytes(state.file, bounds);
  return { file: { name: state.file!.name, bytes }, fields: state.fields };
}

/** The limits of {@link MultipartUploadLimits} with their defaults filled in. */
type BodyBounds = Required<MultipartUploadLimits>;

/** The file part as it arrives: its name, its chunks so far, their size, and whether it ended. */
interface FilePart {
  name: string;
  chunks: Buffer[];
  size: number;
  done: boolean;
}

/** What the parser has read so far, and the first refusal (null while there is none). */
interface ParseState {
  fields: Record<string, string>;
  file: FilePart | null;
  failure: unknown;
}

/** Records `error` as the body's refusal unless there is one already (the first refusal wins). */
function fail(state: ParseState, error: unknown): void {
  state.failure ??= error;
}

/**
 * A busboy parser for the body within `bounds`.
 *
 * @throws HttpError 400 when the content type has no boundary
 */
function createParser(contentType: string, bounds: BodyBounds): busboy.Busboy {
  try {
    return busboy({
      headers: { "content-type": contentType },
      // busboy stops a file at `fileSize` bytes and reports that as its limit: one byte more than allowed.
      limits: { fileSize: bounds.maxFileBytes + 1, files: 1, fields: bounds.maxFields, fieldSize: bounds.maxFieldBytes, parts: bounds.maxFields + 1 },
    });
  } catch {
    throw new HttpError(400, "bad_request", "The multipart/form-data body could not be read (no boundary in its Content-Type).");
  }
}

/**
 * Collects the parser's text fields (the first value of each name) and the one file part into
 * `state`, recording a refusal for a field over its size, a file part under another name or a
 * second one, a file over its limit, and too many fields or parts.
 */
function listenToParts(parser: busboy.Busboy, state: ParseState, bounds: BodyBounds): void {
  const { fileField, maxFieldBytes, maxFields } = bounds;
  parser.on("field", (name, value, info) => {
    if (info.valueTruncated || info.nameTruncated) {
      fail(state, new HttpError(413, "too_large", `The form field "${name.slice(0, 100)}" is longer than ${maxFieldBytes} bytes.`));
      return;
    }
    if (!(name in state.fields)) state.fields[name] = value;
  });
  parser.on("file", (name, stream, info) => {
    // A cut-off body also errors the open file part's stream; the parser's own error says so.
    stream.on("error", () => fail(state, new HttpError(400, "bad_request", "The multipart/form-data body could not be read (it ends inside the file).")));
    if (name !== fileField || state.file !== null) {
      stream.resume();
      fail(
        state,
        name === fileField
          ? ValidationError.field(name, `Send one file as the "${fileField}" field, not several.`)
          : ValidationError.field(name, `"${name.slice(0, 100)}" must be a text field; the only file field is "${fileField}".`),
      );
      return;
    }
    const current: FilePart = { name: info.filename ?? "", chunks: [], size: 0, done: false };
    state.file = current;
    stream.on("data", (chunk: Buffer) => {
      current.size += chunk.length;
      if (state.failure === null) current.chunks.push(chunk);
    });
    stream.on("limit", () => fail(state, tooLarge(bounds.maxFileBytes + 1, bounds.maxFileBytes, bounds.what)));
    stream.on("end", () => {
      current.done = true;
    });
  });
  parser.on("filesLimit", () => fail(state, ValidationError.field(fileField, `Send one file as the "${fileField}" field, not several.`)));
  parser.on("fieldsLimit", () => fail(state, new HttpError(413, "too_large", `The form has more than ${maxFields} fields.`)));
  parser.on("partsLimit", () => fail(state, new HttpError(413, "too_large", `The form has more than ${maxFields + 1} parts.`)));
}

/**
 * Streams the request body into the parser, chunk by chunk (waiting for the parser to drain),
 * counting the bytes against the body's limit, until the body ends or a refusal is recorded;
 * then ends the parser and waits for it to close. On a refusal the parser is destroyed and
 * the body cancelled. A body that breaks off is recorded as a 400.
 */
async function pumpBody(request: Request, parser: busboy.Busboy, state: ParseState, bounds: BodyBounds): Promise<void> {
  const maxBody = bounds.maxFileBytes + bounds.allowance;
  const finished = new Promise<void>((resolve) => {
    parser.on("close", () => resolve());
    parser.on("error", (error: unknown) => {
      fail(state, new HttpError(400, "bad_request", `The multipart/form-data body could not be read${error instanceof Error ? ` (${error.message.slice(0, 100)})` : ""}.`));
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
        if (total > maxBody) fail(state, tooLarge(total, bounds.maxFileBytes, bounds.what));
        if (state.failure !== null) break;
        if (!parser.write(value)) await drained(parser);
        if (state.failure !== null) break;
      }
    }
    if (state.failure === null) {
      parser.end();
      await finished;
    }
  } catch (error) {
    // The client went away (or the body stream broke) mid-upload.
    fail(state, new HttpError(400, "bad_request", `The upload was cut off${error instanceof Error ? ` (${error.message.slice(0, 100)})` : ""}.`));
  } finally {
    if (state.failure !== null) {
      parser.destroy();
      await reader?.cancel().catch(() => {});
    }
  }
}

/** Resolves when the parser can take more input (or has closed). */
function drained(parser: busboy.Busboy): Promise<void> {
  return new Promise<void>((resolve) => {
    const go = () => {
      parser.off("drain", go);
      parser.off("close", go);
      resolve();
    };
    parser.on("drain", go);
    parser.on("close", go);
  });
}

/**
 * The file part's bytes, in one buffer.
 *
 * @throws ValidationError (422, field `fileField`) when there is no file part, or an
 *   empty-named empty one; HttpError 400 when the file part did not end
 */
function fileBytes(file: FilePart | null, bounds: BodyBounds): Uint8Array<ArrayBuffer> {
  if (file === null || (file.size === 0 && file.name === "")) {
    throw ValidationError.field(bounds.fileField, `Attach the ${bounds.what} as the "${bounds.fileField}" field (e.g. curl -F ${bounds.fileField}=@system.conll).`);
  }
  if (!file.done) throw new HttpError(400, "bad_request", "The multipart/form-data body could not be read (the file part did not end).");
  const bytes = new Uint8Array(new ArrayBuffer(file.size));
  let offset = 0;
  for (const chunk of file.chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
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
