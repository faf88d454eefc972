/**
 * File storage for uploads: gold keys and submissions are kept gzip-compressed in
 * PostgreSQL (`bytea`), with the sha256 of the original bytes. Uses Node's zlib and crypto.
 */
import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { gunzip, gunzipSync, gzip, gzipSync } from "node:zlib";

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/** What is stored for one uploaded file. */
export interface StoredFile {
  /** gzip of the original bytes */
  gzip: Uint8Array<ArrayBuffer>;
  /** lower-case hex sha256 of the original bytes */
  sha256: string;
  /** size of the original bytes */
  size: number;
}

/** Lower-case hex sha256 of `bytes`. */
export function sha256Hex(bytes: Uint8Array | string): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/**
 * Compresses `bytes` for storage.
 * @returns gzip bytes, sha256 (hex) and size of the original
 */
export function packFile(bytes: Uint8Array): StoredFile {
  return storedFile(bytes, gzipSync(bytes, { level: 6 }));
}

/**
 * {@link packFile} with the compression in libuv's thread pool instead of on the event loop:
 * for uploads in the web server (an archive's files may reach ten times the upload cap).
 * @returns gzip bytes, sha256 (hex) and size of the original
 */
export async function packFileAsync(bytes: Uint8Array): Promise<StoredFile> {
  return storedFile(bytes, await gzipAsync(bytes, { level: 6 }));
}

/** The stored form of `bytes` given its gzip (copied into its own ArrayBuffer). */
function storedFile(bytes: Uint8Array, gz: Buffer): StoredFile {
  return { gzip: new Uint8Array(gz), sha256: sha256Hex(bytes), size: bytes.byteLength };
}

/**
 * Restores stored bytes.
 * @param gzip the stored gzip bytes
 * @param expectedSha256 when given, the restored bytes must have this sha256
 * @throws Error when the gzip data is corrupt or the checksum does not match
 */
export function unpackFile(gzip: Uint8Array, expectedSha256?: string): Buffer {
  return checked(gunzipSync(gzip), expectedSha256);
}

/**
 * {@link unpackFile} with the decompression in libuv's thread pool instead of on the event
 * loop: for the web server (e.g. streaming every run of a phase as one archive).
 * @throws Error when the gzip data is corrupt or the checksum does not match
 */
export async function unpackFileAsync(gzip: Uint8Array, expectedSha256?: string): Promise<Buffer> {
  return checked(await gunzipAsync(gzip), expectedSha256);
}

/** `bytes`, once their sha256 is the expected one (when given). */
function checked(bytes: Buffer, expectedSha256: string | undefined): Buffer {
  if (expectedSha256 !== undefined && sha256Hex(bytes) !== expectedSha256) {
    throw new Error("stored file is corrupt: its sha256 does not match the recorded one");
  }
  return bytes;
}
