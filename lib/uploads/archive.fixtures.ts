/**
 * Test helpers that build `.zip` and `.tar.gz` archives in memory (yazl; tar-stream `pack()` +
 * gzip), including hostile ones the libraries would refuse to write: paths with `..`, absolute
 * paths and backslashes are written under a placeholder name of the same byte length, which is
 * then replaced in the archive's bytes. Used by `lib/uploads/archive.test.ts` and by tests of the
 * upload services.
 */
import { gzipSync } from "node:zlib";
import yazl from "yazl";
import type * as tar from "tar-stream";
import { writeTar } from "./archive";

/** One entry of a test archive: a file (`text` or `bytes`, default empty) or a folder. */
export interface FixtureEntry {
  /** The path written into the archive, as is (a folder's may end with `/`). */
  path: string;
  text?: string;
  bytes?: Uint8Array;
  /** A folder entry (zip: `addEmptyDirectory`; tar: type `directory`). */
  folder?: boolean;
  /** zip: Unix mode with file-type bits, e.g. `0o120777` for a symbolic link. */
  mode?: number;
  /** zip: deflate the data (default true). */
  compress?: boolean;
  /** tar: the entry type (default `file`, or `directory` for folders), e.g. `symlink`. */
  type?: tar.Header["type"];
  /** tar: the target of a link. */
  linkname?: string;
}

/** The entry's content as bytes. */
function content(entry: FixtureEntry): Buffer {
  if (entry.bytes) return Buffer.from(entry.bytes.buffer, entry.bytes.byteOffset, entry.bytes.byteLength);
  return Buffer.from(entry.text ?? "", "utf8");
}

/** Whether yazl would refuse or rewrite `path` (absolute, `..`, backslash). */
function yazlRefuses(path: string): boolean {
  const slashed = path.replace(/\\/g, "/");
  return path.includes("\\") || /^[a-zA-Z]:/.test(slashed) || slashed.startsWith("/") || slashed.split("/").includes("..");
}

/**
 * A `.zip` archive holding `entries` in order (yazl; deflated unless `compress: false`).
 *
 * @param entries files and folders; any path is written as is, hostile ones included
 * @returns the archive's bytes
 */
export async function makeZip(entries: readonly FixtureEntry[]): Promise<Uint8Array> {
  const zip = new yazl.ZipFile();
  const renames: { placeholder: Buffer; real: Buffer }[] = [];
  entries.forEach((entry, index) => {
    let path = entry.path;
    if (yazlRefuses(path)) {
      const real = Buffer.from(path, "utf8");
      const tag = `~${index}~`;
      if (real.length < tag.length + 1) throw new Error(`makeZip: path "${path}" is too short to patch; make it longer`);
      if (entry.folder && !path.endsWith("/")) throw new Error(`makeZip: end the folder path "${path}" with "/"`);
      const placeholder = (tag + "q".repeat(real.length)).slice(0, real.length);
      const written = entry.folder ? placeholder.slice(0, -1) + "/" : placeholder;
      renames.push({ placeholder: Buffer.from(written, "utf8"), real });
      path = written;
    }
    const options = entry.mode === undefined ? {} : { mode: entry.mode };
    if (entry.folder) zip.addEmptyDirectory(path, options);
    else zip.addBuffer(content(entry), path, { ...options, compress: entry.compress ?? true });
  });
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  const bytes = Buffer.concat(chunks);
  for (const { placeholder, real } of renames) {
    let found = 0;
    for (let at = bytes.indexOf(placeholder); at !== -1; at = bytes.indexOf(placeholder, at + 1)) {
      real.copy(bytes, at);
      found += 1;
    }
    if (found !== 2) throw new Error(`makeZip: expected the name "${real}" twice (local header and directory), found it ${found} times`);
  }
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * A gzip-compressed tar archive holding `entries` in order (tar-stream `pack()`, then gzip).
 *
 * @param entries files, folders and special entries (`type`, `linkname`); paths written as is
 * @returns the archive's bytes
 */
export async function makeTarGz(entries: readonly FixtureEntry[]): Promise<Uint8Array> {
  return gzipSync(await makeTar(entries));
}

/**
 * An uncompressed tar archive holding `entries` (for tests of bytes that are not gzip).
 *
 * @param entries as for {@link makeTarGz}
 * @returns the archive's bytes
 */
export async function makeTar(entries: readonly FixtureEntry[]): Promise<Uint8Array> {
  return writeTar(
    entries.map((entry) => {
      const type = entry.type ?? (entry.folder ? "directory" : "file");
      return { path: entry.path, type, linkname: entry.linkname, bytes: content(entry) };
    }),
  );
}

/**
 * Edits every central-directory record of a `.zip` in place (e.g. to set the encryption flag
 * or to make a header lie about a size); the local headers are left alone.
 *
 * @param zip the archive, as {@link makeZip} returns it (no zip64, no comment)
 * @param edit called with a view on the archive and the offset of each record
 *   (flags at +8, compressed size at +20, uncompressed size at +24)
 * @returns `zip`, edited
 */
export function editZipDirectory(zip: Uint8Array, edit: (view: DataView, offset: number) => void): Uint8Array {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const eocd = zip.byteLength - 22;
  if (view.getUint32(eocd, true) !== 0x06054b50) throw new Error("editZipDirectory: no end-of-central-directory record at the end");
  const count = view.getUint16(eocd + 10, true);
  let offset = view.getUint32(eocd + 16, true);
  for (let index = 0; index < count; index += 1) {
    if (view.getUint32(offset, true) !== 0x02014b50) throw new Error("editZipDirectory: bad central directory record");
    const length = 46 + view.getUint16(offset + 28, true) + view.getUint16(offset + 30, true) + view.getUint16(offset + 32, true);
    edit(view, offset);
    offset += length;
  }
  return zip;
}
