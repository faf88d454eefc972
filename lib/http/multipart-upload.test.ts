import { describe, expect, it } from "vitest";
import { TooLargeError, ValidationError } from "../errors";
import { HttpError } from "./api";
import { readMultipartUpload, uploadReservation, type MultipartUploadLimits } from "./multipart-upload";

const BOUNDARY = "----corefboardtest";

/** A multipart body from parts: text fields as strings, files as {filename, content}. */
function body(parts: [string, string | { filename: string; content: string | Uint8Array }][], end = true): Uint8Array {
  const chunks: Buffer[] = [];
  for (const [name, value] of parts) {
    if (typeof value === "string") {
      chunks.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
    } else {
      chunks.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"; filename="${value.filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`));
      chunks.push(Buffer.from(value.content));
      chunks.push(Buffer.from("\r\n"));
    }
  }
  if (end) chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return new Uint8Array(Buffer.concat(chunks));
}

/** A request whose body arrives in chunks of `chunk` bytes (no Content-Length unless given). */
function request(bytes: Uint8Array, opts: { chunk?: number; contentLength?: number; contentType?: string } = {}): Request {
  const size = opts.chunk ?? 1024;
  let offset = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(offset, offset + size));
      offset += size;
    },
  });
  const headers: Record<string, string> = { "content-type": opts.contentType ?? `multipart/form-data; boundary=${BOUNDARY}` };
  if (opts.contentLength !== undefined) headers["content-length"] = String(opts.contentLength);
  return new Request("http://localhost/upload", { method: "POST", body: stream, headers, duplex: "half" } as RequestInit);
}

const limits: MultipartUploadLimits = { fileField: "file", maxFileBytes: 10_000, allowance: 2_000, maxFields: 4, maxFieldBytes: 100 };

async function refusal(promise: Promise<unknown>): Promise<{ status: number; error: unknown }> {
  try {
    await promise;
  } catch (error) {
    const status = error instanceof HttpError ? error.status : (error as { httpStatus?: number }).httpStatus ?? 0;
    return { status, error };
  }
  throw new Error("expected a refusal");
}

describe("readMultipartUpload", () => {
  it("returns the file's bytes and the text fields", async () => {
    const content = "x".repeat(9_000);
    const got = await readMultipartUpload(request(body([["systemName", "mine"], ["file", { filename: "run.conll", content }], ["team", "t1"]]), { chunk: 333 }), limits);
    expect(got.file.name).toBe("run.conll");
    expect(Buffer.from(got.file.bytes).toString()).toBe(content);
    expect(got.fields).toEqual({ systemName: "mine", team: "t1" });
  });

  it("takes a file of exactly the limit", async () => {
    const got = await readMultipartUpload(request(body([["file", { filename: "a", content: new Uint8Array(10_000).fill(7) }]])), limits);
    expect(got.file.bytes.length).toBe(10_000);
  });

  it("refuses a file one byte over the limit with 413", async () => {
    const { status, error } = await refusal(readMultipartUpload(request(body([["file", { filename: "a", content: new Uint8Array(10_001) }]])), limits));
    expect(status).toBe(413);
    expect(error).toBeInstanceOf(TooLargeError);
  });

  it("refuses a declared Content-Length over file limit + allowance before reading", async () => {
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(c) {
        pulled++;
        c.enqueue(new Uint8Array(10));
      },
    });
    const req = new Request("http://localhost/u", {
      method: "POST",
      body: stream,
      headers: { "content-type": `multipart/form-data; boundary=${BOUNDARY}`, "content-length": "12001" },
      duplex: "half",
    } as RequestInit);
    const { status } = await refusal(readMultipartUpload(req, limits));
    expect(status).toBe(413);
    expect(pulled).toBeLessThanOrEqual(1);
  });

  it("stops reading a body that passes file limit + allowance (no Content-Length) as soon as it does", async () => {
    // A huge text-less body: one file part that never ends; the reader must stop near the limit.
    let sent = 0;
    const head = Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="junk"\r\n\r\n`);
    const stream = new ReadableStream<Uint8Array>({
      pull(c) {
        const chunk = sent === 0 ? head : new Uint8Array(1000).fill(97);
        sent += chunk.length;
        c.enqueue(new Uint8Array(chunk));
      },
    });
    const req = new Request("http://localhost/u", { method: "POST", body: stream, headers: { "content-type": `multipart/form-data; boundary=${BOUNDARY}` }, duplex: "half" } as RequestInit);
    const { status } = await refusal(readMultipartUpload(req, { ...limits, maxFieldBytes: 1_000_000 }));
    expect(status).toBe(413);
    expect(sent).toBeLessThan(14_000);
  });

  it("refuses a truncated body (no closing boundary, file part cut off) with 400", async () => {
    const full = body([["systemName", "x"], ["file", { filename: "a", content: "y".repeat(5000) }]], false);
    const { status } = await refusal(readMultipartUpload(request(full.slice(0, 3000)), limits));
    expect(status).toBe(400);
  });

  it("refuses a body without the file part with 422 on the file field", async () => {
    const { status, error } = await refusal(readMultipartUpload(request(body([["systemName", "x"]])), limits));
    expect(status).toBe(422);
    expect((error as ValidationError).toJSON().error).toMatchObject({ fieldErrors: [expect.objectContaining({ path: "file" })] });
  });

  it("treats an empty file part without a name (no file chosen) as missing", async () => {
    const { status } = await refusal(readMultipartUpload(request(body([["file", { filename: "", content: "" }]])), limits));
    expect(status).toBe(422);
  });

  it("refuses a second file and a file under another name with 422", async () => {
    const two = await refusal(readMultipartUpload(request(body([["file", { filename: "a", content: "1" }], ["file", { filename: "b", content: "2" }]])), limits));
    expect(two.status).toBe(422);
    const other = await refusal(readMultipartUpload(request(body([["file", { filename: "a", content: "1" }], ["systemName", { filename: "b", content: "2" }]])), limits));
    expect(other.status).toBe(422);
  });

  it("refuses more text fields than allowed, and a field over its size, with 413", async () => {
    const many = await refusal(
      readMultipartUpload(request(body([["a", "1"], ["b", "2"], ["c", "3"], ["d", "4"], ["e", "5"], ["file", { filename: "a", content: "1" }]])), limits),
    );
    expect(many.status).toBe(413);
    const long = await refusal(readMultipartUpload(request(body([["description", "z".repeat(101)], ["file", { filename: "a", content: "1" }]])), limits));
    expect(long.status).toBe(413);
  });

  it("refuses another content type with 415", async () => {
    const { status } = await refusal(readMultipartUpload(request(new Uint8Array(3), { contentType: "application/json" }), limits));
    expect(status).toBe(415);
  });

  it("answers 400 when the body stream breaks mid-upload (client abort)", async () => {
    let n = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(c) {
        if (n++ === 0) c.enqueue(body([["file", { filename: "a", content: "1".repeat(500) }]], false).slice(0, 200));
        else c.error(new Error("aborted"));
      },
    });
    const req = new Request("http://localhost/u", { method: "POST", body: stream, headers: { "content-type": `multipart/form-data; boundary=${BOUNDARY}` }, duplex: "half" } as RequestInit);
    const { status } = await refusal(readMultipartUpload(req, limits));
    expect(status).toBe(400);
  });
});

describe("uploadReservation", () => {
  it("reserves the declared length within the limit, else the largest body", () => {
    expect(uploadReservation(request(new Uint8Array(0), { contentLength: 500 }), limits)).toBe(500);
    expect(uploadReservation(request(new Uint8Array(0), { contentLength: 99_999 }), limits)).toBe(12_000);
    expect(uploadReservation(request(new Uint8Array(0)), limits)).toBe(12_000);
  });
});
