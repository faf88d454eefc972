/**
 * Reading pinned demo files: each file is fetched by a source-specific reader and its sha256
 * (of the uncompressed text) checked against the pinned value, so every machine loads exactly
 * the same demo data whichever source it came from. Shared by the LitBank and GUM demos.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { sha256Hex } from "../storage";

/** A pinned file: its name and the sha256 (hex) of its uncompressed bytes. */
export interface PinnedFile {
  name: string;
  sha256: string;
}

/**
 * Reads and verifies pinned files in the given order.
 *
 * @param pinned the files and their sha256
 * @param source where they come from, for messages (e.g. "shipped copy")
 * @param location the folder or URL prefix, for messages
 * @param read returns a file's uncompressed bytes by name
 * @returns the files' bytes in the order of `pinned`
 * @throws Error naming the file, the source and the location when a read fails
 *   ("cannot get NAME from SOURCE (LOCATION): reason") or a sha256 differs
 *   ("NAME from SOURCE (LOCATION) has sha256 X, expected Y")
 */
export async function readPinnedFiles(
  pinned: readonly PinnedFile[],
  source: string,
  location: string,
  read: (name: string) => Promise<Buffer>,
): Promise<{ name: string; bytes: Buffer }[]> {
  const files: { name: string; bytes: Buffer }[] = [];
  for (const { name, sha256 } of pinned) {
    let bytes: Buffer;
    try {
      bytes = await read(name);
    } catch (error) {
      throw new Error(`demo data: cannot get ${name} from ${source} (${location}): ${error instanceof Error ? error.message : String(error)}`);
    }
    const actual = sha256Hex(bytes);
    if (actual !== sha256) {
      throw new Error(`demo data: ${name} from ${source} (${location}) has sha256 ${actual}, expected ${sha256}`);
    }
    files.push({ name, bytes });
  }
  return files;
}

/** A downloader for `readPinnedFiles`: GETs `urlOf(name)` with `get` and fails on a non-2xx status. */
export function downloader(urlOf: (name: string) => string, get: typeof fetch): (name: string) => Promise<Buffer> {
  return async (name) => {
    const response = await get(urlOf(name));
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return Buffer.from(await response.arrayBuffer());
  };
}

/** Where demo files come from, in the order they are tried. */
export type PinnedSource = "DEMO_DATA_DIR" | "shipped copy" | "shared data" | "download";

/**
 * The first available source of a demo's files: an explicit folder (`dataDir`, plain files),
 * the copy shipped in the repository (`shipped`, `NAME.gz` files), the shared data folder
 * (`shared`, plain files), else a download (`urlOf(name)` with `get`).
 *
 * @returns the source's name, its location (folder or URL prefix) and a reader of a file's
 *   uncompressed bytes by name, for `readPinnedFiles`
 */
export function pinnedSource(options: {
  dataDir?: string;
  shipped: string;
  shared: string;
  urlOf: (name: string) => string;
  get: typeof fetch;
}): { source: PinnedSource; location: string; read: (name: string) => Promise<Buffer> } {
  const { dataDir, shipped, shared } = options;
  if (dataDir) return { source: "DEMO_DATA_DIR", location: dataDir, read: (name) => readFile(path.join(dataDir, name)) };
  if (existsSync(shipped)) {
    return { source: "shipped copy", location: shipped, read: async (name) => gunzipSync(await readFile(path.join(shipped, `${name}.gz`))) };
  }
  if (existsSync(shared)) return { source: "shared data", location: shared, read: (name) => readFile(path.join(shared, name)) };
  return { source: "download", location: options.urlOf(""), read: downloader(options.urlOf, options.get) };
}
