/**
 * Reading run and gold archives (`.zip`, `.tar.gz`, `.tgz`) in memory, for phases with
 * several datasets (issue 10 §2): one file per dataset, matched to the phase's datasets by
 * file name ({@link pairArchiveFiles}).
 *
 * Everything happens in memory and streaming; nothing is ever written to disk. `.zip` is read
 * with yauzl (`fromBuffer`, lazy entries, one `openReadStream` at a time), `.tar.gz` with
 * `zlib.createGunzip()` piped into tar-stream's `extract()`.
 *
 * **Contract.** {@link readArchive} returns the archive's plain files in archive order, or
 * throws a {@link ValidationError} (422, field `file`) whose message names the archive and the
 * offending entry. It rejects:
 * - more than `maxEntries` entries (default {@link DEFAULT_MAX_ENTRIES}); files, folders and
 *   macOS junk all count;
 * - a `..` path segment, an absolute path (`/x`, `C:\x`, `\\server\x`); a backslash counts as a
 *   folder separator;
 * - a file nested deeper than one folder (`a.conllu` and `dir/a.conllu` are fine,
 *   `a/b/c.conllu` is not), or a folder entry deeper than one level;
 * - two files with the same base name (`x/a.conllu` and `y/a.conllu`, or the same path twice);
 * - entries that are neither plain files nor folders (tar symbolic and hard links, devices,
 *   FIFOs; zip symbolic links) and encrypted zip entries;
 * - more than `maxTotalBytes` once decompressed. The bytes actually decompressed are counted,
 *   never the sizes the headers claim, and reading stops (streams destroyed) as soon as the
 *   running total passes the limit, so a zip bomb costs at most about `maxTotalBytes` of memory;
 * - a corrupt or truncated archive, or bytes that are not the kind the name says;
 * - an archive that holds no file.
 *
 * Folder entries are skipped, as are macOS junk entries (anything under `__MACOSX/`, `._*`
 * files and `.DS_Store`), silently. Leading `./` segments (as `tar -C dir .` writes them) are ignored.
 *
 * Every failure settles the returned promise exactly once; the streams involved are destroyed
 * and keep an error listener, so a failure midway leaves no unhandled rejection or stream error.
 */
import { promisify } from "node:util";
import { createGunzip, gzip } from "node:zlib";
import type { Readable } from "node:stream";
import yauzl, { type Entry as ZipEntry, type ZipFile } from "yauzl";
import * as tar from "tar-stream";
import { ValidationError } from "../errors";
import { formatMegabytes } from "../units";

/** One plain file read from an archive. */
export interface ArchiveEntry {
  /** The path as written in the archive, e.g. `run/en_gum.conllu`. */
  path: string;
  /** The base name, e.g. `en_gum.conllu` (what {@link pairArchiveFiles} matches on). */
  name: string;
  /** The file's decompressed content. */
  bytes: Uint8Array;
}

/** The archive formats {@link readArchive} reads. */
export type ArchiveKind = "zip" | "tar.gz";

/** Limits of {@link readArchive}. */
export interface ArchiveLimits {
  /** The most bytes all entries may decompress to, together. */
  maxTotalBytes: number;
  /** The most entries (files, folders and junk alike); default {@link DEFAULT_MAX_ENTRIES}. */
  maxEntries?: number;
}

/** The default entry limit of {@link readArchive} (issue 10: "more than 200 entries"). */
export const DEFAULT_MAX_ENTRIES = 200;

/**
 * Tar framing that gunzip may produce beyond the files' own bytes, per entry: a 512-byte
 * header, up to 511 bytes of padding, and room for long-name records. The raw gunzip output is
 * capped at `maxTotalBytes + (maxEntries + 2) × this`, so that bytes tar-stream buffers or
 * skips itself (pax headers, data of entries it ignores) cannot grow without bound either.
 */
const TAR_FRAMING_BYTES_PER_ENTRY = 4096;

/**
 * The archive kind a file name says, case-insensitively: `.zip` → "zip", `.tar.gz` or `.tgz`
 * → "tar.gz", anything else → null (a plain file).
 *
 * @param fileName the uploaded file's name, e.g. `run.TGZ`
 */
export function archiveKind(fileName: string): ArchiveKind | null {
  const lower = fileName.toLowerCase();
  if (lower.endsWith(".zip")) return "zip";
  if (lower.endsWith(".tar.gz") || lower.endsWith(".tgz")) return "tar.gz";
  return null;
}

/**
 * Reads every plain file of a `.zip`, `.tar.gz` or `.tgz` archive in memory (see the module
 * header for the rules).
 *
 * @param bytes the archive as uploaded
 * @param fileName the archive's file name; its ending chooses the format ({@link archiveKind})
 * @param limits `maxTotalBytes` (decompressed bytes of all entries together) and `maxEntries`
 *   (default {@link DEFAULT_MAX_ENTRIES})
 * @returns the plain files in archive order: `path` as in the archive, `name` its base name
 * @throws ValidationError (422, field `file`) for a name that is not an archive, a hostile,
 *   corrupt or truncated archive, or one without any file; the message names the archive and
 *   the offending entry
 */
export async function readArchive(bytes: Uint8Array, fileName: string, limits: ArchiveLimits): Promise<ArchiveEntry[]> {
  const kind = archiveKind(fileName);
  const rules = new EntryRules(fileName, limits.maxTotalBytes, limits.maxEntries ?? DEFAULT_MAX_ENTRIES);
  if (kind === "zip") return readZip(bytes, rules);
  if (kind === "tar.gz") return readTarGz(bytes, rules);
  throw invalid(`${fileName} is not an archive: its name should end with .zip, .tar.gz or .tgz.`);
}

/** A dataset a file of an archive can be paired with. */
export interface PairableDataset {
  id: string;
  name: string;
  /** The file name the dataset's file has inside an archive (no folder). */
  fileName: string;
}

/** How many expected file names an "unknown file" message lists at most. */
const EXPECTED_NAMES_SHOWN = 10;

/**
 * Pairs an archive's files with a phase's datasets by base name (exact, case-sensitive match
 * of `entry.name` with `dataset.fileName`).
 *
 * @param entries the archive's files, from {@link readArchive} (base names are unique there)
 * @param datasets the phase's datasets in their order (`DATASET_ORDER`)
 * @param archiveName the archive's file name, for messages
 * @returns `files`: one `{dataset, entry}` per dataset the archive holds, in the datasets'
 *   order; `missing`: the datasets the archive leaves out, in order
 * @throws ValidationError (422, field `file`) when a file matches no dataset (the message lists
 *   up to 10 expected file names) or when no file matches any dataset
 */
export function pairArchiveFiles<D extends PairableDataset>(
  entries: readonly ArchiveEntry[],
  datasets: readonly D[],
  archiveName: string,
): { files: { dataset: D; entry: ArchiveEntry }[]; missing: D[] } {
  const byName = new Map(entries.map((entry) => [entry.name, entry]));
  const expected = new Set(datasets.map((dataset) => dataset.fileName));
  const unknown = entries.find((entry) => !expected.has(entry.name));
  if (unknown) {
    throw invalid(
      `${archiveName} holds "${unknown.path}", which is not a dataset file of this phase; expected file names: ${expectedNames(datasets)}.`,
    );
  }
  const files: { dataset: D; entry: ArchiveEntry }[] = [];
  const missing: D[] = [];
  for (const dataset of datasets) {
    const entry = byName.get(dataset.fileName);
    if (entry) files.push({ dataset, entry });
    else missing.push(dataset);
  }
  if (files.length === 0) {
    throw invalid(`${archiveName} holds no dataset file of this phase; expected file names: ${expectedNames(datasets)}.`);
  }
  return { files, missing };
}

/** `"a.conllu", "b.conllu" and 3 more` for messages. */
function expectedNames(datasets: readonly PairableDataset[]): string {
  const shown = datasets.slice(0, EXPECTED_NAMES_SHOWN).map((dataset) => `"${dataset.fileName}"`).join(", ");
  const more = datasets.length - EXPECTED_NAMES_SHOWN;
  return more > 0 ? `${shown} and ${more} more` : shown;
}

/** A 422 about the uploaded file. */
function invalid(message: string): ValidationError {
  return ValidationError.field("file", message);
}


/** What an archive entry is, as far as the rules care. */
type EntryType = "file" | "folder" | { other: string };

/**
 * The rules shared by both formats, applied entry by entry in archive order: entry count,
 * path safety, nesting, junk, duplicates and the running total of decompressed bytes.
 */
class EntryRules {
  private entries = 0;
  private total = 0;
  private readonly seen = new Map<string, string>();
  readonly files: ArchiveEntry[] = [];

  constructor(
    readonly archiveName: string,
    readonly maxTotalBytes: number,
    readonly maxEntries: number,
  ) {}

  /** The error for an archive announcing or reaching more than `maxEntries` entries. */
  tooManyEntries(entryPath?: string): ValidationError {
    const which = entryPath === undefined ? "" : ` (entry ${this.maxEntries + 1} is "${entryPath}")`;
    return invalid(
      `${this.archiveName} holds more than ${this.maxEntries} entries${which}; an archive may hold at most ${this.maxEntries} (files and folders alike).`,
    );
  }

  /**
   * Checks one entry; returns its base name when its content is wanted, or null when it is to
   * be skipped (folder or macOS junk).
   *
   * @throws ValidationError for a rule the entry breaks
   */
  admit(entryPath: string, type: EntryType): string | null {
    this.entries += 1;
    if (this.entries > this.maxEntries) throw this.tooManyEntries(entryPath);
    const archive = this.archiveName;
    const slashed = entryPath.replace(/\\/g, "/");
    if (slashed.startsWith("/") || /^[A-Za-z]:/.test(slashed)) {
      throw invalid(`${archive} holds "${entryPath}", an absolute path; paths inside an archive must be relative, e.g. "${baseName(slashed) || "file.conllu"}".`);
    }
    const rawSegments = slashed.split("/");
    if (rawSegments.includes("..")) {
      throw invalid(`${archive} holds "${entryPath}", a path that climbs out of the archive with ".."; paths inside an archive must stay inside it.`);
    }
    const segments = rawSegments.filter((segment) => segment !== "" && segment !== ".");
    const name = segments.at(-1) ?? "";
    if (segments[0] === "__MACOSX" || name.startsWith("._") || name === ".DS_Store") return null;
    if (type === "folder" || (type === "file" && slashed.endsWith("/"))) {
      if (segments.length > 1) throw this.tooDeep(entryPath, "folder", name);
      return null;
    }
    if (type !== "file") {
      throw invalid(`${archive} holds "${entryPath}", which is ${type.other}; an archive may hold only plain files and folders.`);
    }
    if (name === "") throw invalid(`${archive} holds an entry without a file name ("${entryPath}").`);
    if (segments.length > 2) throw this.tooDeep(entryPath, "file", name);
    const first = this.seen.get(name);
    if (first !== undefined) {
      const where = first === entryPath ? `"${entryPath}" twice` : `"${first}" and "${entryPath}"`;
      throw invalid(`${archive} holds two files named "${name}" (${where}); each file name may appear only once.`);
    }
    this.seen.set(name, entryPath);
    return name;
  }

  private tooDeep(entryPath: string, what: "file" | "folder", name: string): ValidationError {
    const example = what === "file" ? `"${name}" or "folder/${name}"` : `"${name}/"`;
    return invalid(
      `${this.archiveName} holds "${entryPath}", a ${what} nested more than one folder deep; put each file at the top of the archive or in one folder, e.g. ${example}.`,
    );
  }

  /**
   * Adds decompressed bytes of `entryPath` to the running total.
   *
   * @throws ValidationError once the total passes `maxTotalBytes`
   */
  count(bytes: number, entryPath: string): void {
    this.total += bytes;
    if (this.total > this.maxTotalBytes) throw this.tooLarge(entryPath);
  }

  /** The error for an archive that decompresses to more than `maxTotalBytes`. */
  tooLarge(entryPath?: string): ValidationError {
    const where = entryPath === undefined ? "" : ` (reading stopped at "${entryPath}")`;
    return invalid(
      `${this.archiveName} unpacks to more than ${formatMegabytes(this.maxTotalBytes)}${where}; the files inside an archive may total at most ${formatMegabytes(this.maxTotalBytes)}.`,
    );
  }

  /** Records a file's content. */
  add(entryPath: string, name: string, chunks: Buffer[]): void {
    this.files.push({ path: entryPath, name, bytes: Buffer.concat(chunks) });
  }

  /**
   * The files read, in archive order.
   *
   * @throws ValidationError when there is none
   */
  finish(): ArchiveEntry[] {
    if (this.files.length === 0) {
      throw invalid(`${this.archiveName} holds no file; put one file per dataset into the archive.`);
    }
    return this.files;
  }

  /**
   * The error for bytes the library could not read as `kind`, with a person-readable reason
   * and the library's own words in parentheses.
   */
  unreadable(kind: ArchiveKind, error: unknown, entryPath?: string): ValidationError {
    if (error instanceof ValidationError) return error;
    const raw = (error instanceof Error ? error.message : String(error)).trim().replace(/\.$/, "");
    const where = entryPath === undefined ? "" : ` (at "${entryPath}")`;
    return invalid(`${this.archiveName} could not be read as a .${kind} archive${where}: ${explain(kind, raw)}.`);
  }
}

/** The part of `path` after its last `/`. */
function baseName(path: string): string {
  return path.split("/").filter((segment) => segment !== "").at(-1) ?? "";
}

/** A person-readable reason for a yauzl, zlib or tar-stream error message. */
function explain(kind: ArchiveKind, raw: string): string {
  const lower = raw.toLowerCase();
  let reason: string | null = null;
  if (lower.includes("end of central directory record signature not found")) {
    reason = "it has no zip directory at its end, so it is not a .zip file or it was cut short";
  } else if (lower.includes("unexpected end of") || lower.includes("unexpected eof")) {
    reason = "it ends too early, so it was probably cut short";
  } else if (lower.includes("incorrect header check") || lower.includes("not in gzip format")) {
    reason = "it is not gzip-compressed, so it is not a .tar.gz file";
  } else if (lower.includes("invalid tar header")) {
    reason = "the gzip-compressed content is not a tar archive";
  } else if (lower.includes("strong encryption")) {
    reason = "it is encrypted (password-protected); upload an archive without a password";
  } else if (lower.includes("unsupported compression method")) {
    reason = "it uses a compression method other than Deflate, the usual one; please re-create it with a common zip tool";
  }
  if (reason === null) return kind === "zip" ? `the zip data is damaged (${raw})` : `the data is damaged (${raw})`;
  return `${reason} (${raw})`;
}

/** Swallows late stream errors after the outcome is settled. */
function ignore(): void {}

/** Unix file-type bits of a zip entry made on Unix, or null. */
function zipUnixType(entry: ZipEntry): number | null {
  if (entry.versionMadeBy >> 8 !== 3) return null;
  return (entry.externalFileAttributes >>> 16) & 0o170000;
}

/** Names of Unix file types other than regular files and folders. */
const UNIX_TYPE_NAMES: Record<number, string> = {
  0o120000: "a symbolic link",
  0o140000: "a socket",
  0o060000: "a block device",
  0o020000: "a character device",
  0o010000: "a FIFO",
};

/** A zip entry's type for {@link EntryRules.admit}. */
function zipEntryType(entry: ZipEntry, path: string): EntryType {
  if (path.endsWith("/") || path.endsWith("\\")) return "folder";
  const unix = zipUnixType(entry);
  if (unix === 0o040000) return "folder";
  if (unix !== null && unix !== 0 && unix !== 0o100000) return { other: UNIX_TYPE_NAMES[unix] ?? "a special file" };
  return "file";
}

/** Settles a read that reached the archive's end: its files (`rules.finish()`, which also refuses an archive without one). */
function settleWithFiles(rules: EntryRules, resolve: (files: ArchiveEntry[]) => void, reject: (error: unknown) => void): void {
  try {
    resolve(rules.finish());
  } catch (error) {
    reject(error);
  }
}

/** Reads a .zip archive with yauzl; see {@link readArchive}. */
function readZip(bytes: Uint8Array, rules: EntryRules): Promise<ArchiveEntry[]> {
  return new Promise<ArchiveEntry[]>((resolve, reject) => {
    let settled = false;
    let zipfile: ZipFile | null = null;
    let current: Readable | null = null;
    const fail = (error: unknown, entryPath?: string) => {
      if (settled) return;
      settled = true;
      if (current) {
        current.on("error", ignore);
        current.destroy();
        current = null;
      }
      try {
        zipfile?.close();
      } catch {
        // a zip file from a buffer holds nothing to release
      }
      reject(rules.unreadable("zip", error, entryPath));
    };

    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    // decodeStrings: false, so that yauzl neither rejects unsafe names with its own words nor
    // turns backslashes into slashes: the names are decoded and checked here.
    yauzl.fromBuffer(buffer, { lazyEntries: true, decodeStrings: false, validateEntrySizes: true }, (openError, opened) => {
      if (openError || !opened) return fail(openError ?? new Error("no zip file"));
      zipfile = opened;
      opened.on("error", (error: unknown) => fail(error));
      if (opened.entryCount > rules.maxEntries) return fail(rules.tooManyEntries());
      opened.on("end", () => {
        if (settled) return;
        settled = true;
        settleWithFiles(rules, resolve, reject);
      });
      opened.on("entry", (entry: ZipEntry) => {
        if (settled) return;
        let path: string;
        let name: string | null;
        try {
          path = yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileNameRaw, entry.extraFields, true);
          name = rules.admit(path, zipEntryType(entry, path));
        } catch (error) {
          return fail(error);
        }
        if (name === null) return opened.readEntry();
        if (entry.isEncrypted()) {
          return fail(invalid(`${rules.archiveName} holds "${path}", which is encrypted (password-protected); upload an archive without a password.`));
        }
        const entryName = name;
        opened.openReadStream(entry, (streamError, stream) => {
          if (settled) {
            stream?.on("error", ignore);
            stream?.destroy();
            return;
          }
          if (streamError || !stream) return fail(streamError ?? new Error("no data stream"), path);
          current = stream;
          stream.on("error", (error: unknown) => fail(error, path));
          collectEntry(stream, path, entryName, rules, { settled: () => settled, fail }, () => {
            current = null;
            opened.readEntry();
          });
        });
      });
      opened.readEntry();
    });
  });
}

/**
 * Reads one admitted file entry's stream into memory, counting its bytes against the limit as
 * they arrive (so reading stops as soon as the total passes it), then records the file and
 * calls `done`. Both formats read their entries through it.
 *
 * @param stream the entry's decompressed data (yauzl's read stream, or tar-stream's entry
 *   stream, whose chunks are slices of the Buffers gunzip wrote)
 * @param path the entry's path as in the archive; `entryName` its base name
 * @param reading whether the archive's promise is settled already, and how to fail it
 * @param done called after the file was recorded, to go on to the next entry
 */
function collectEntry(
  stream: { on(event: "data", listener: (chunk: unknown) => void): unknown; on(event: "end", listener: () => void): unknown },
  path: string,
  entryName: string,
  rules: EntryRules,
  reading: { settled: () => boolean; fail: (error: unknown) => void },
  done: () => void,
): void {
  const chunks: Buffer[] = [];
  stream.on("data", (data: unknown) => {
    if (reading.settled()) return;
    const chunk = data as Buffer;
    try {
      rules.count(chunk.length, path);
    } catch (error) {
      return reading.fail(error);
    }
    chunks.push(chunk);
  });
  stream.on("end", () => {
    if (reading.settled()) return;
    rules.add(path, entryName, chunks);
    done();
  });
}

/** Tar entry types that are plain files. */
const TAR_FILE_TYPES = new Set(["file", "contiguous-file"]);

/** Names of the other tar entry types, for messages. */
const TAR_TYPE_NAMES: Record<string, string> = {
  link: "a hard link",
  symlink: "a symbolic link",
  "block-device": "a block device",
  "character-device": "a character device",
  fifo: "a FIFO",
};

/** A tar entry's type for {@link EntryRules.admit}. */
function tarEntryType(type: string | null | undefined): EntryType {
  if (type === "directory") return "folder";
  if (type && TAR_FILE_TYPES.has(type)) return "file";
  return { other: TAR_TYPE_NAMES[type ?? ""] ?? `a special entry (type ${type ?? "unknown"})` };
}

/** Reads a .tar.gz archive with zlib and tar-stream; see {@link readArchive}. */
function readTarGz(bytes: Uint8Array, rules: EntryRules): Promise<ArchiveEntry[]> {
  return new Promise<ArchiveEntry[]>((resolve, reject) => {
    const gunzip = createGunzip();
    const extract = tar.extract();
    const rawLimit = rules.maxTotalBytes + (rules.maxEntries + 2) * TAR_FRAMING_BYTES_PER_ENTRY;
    let raw = 0;
    let settled = false;
    let currentPath: string | undefined;
    const fail = (error: unknown, entryPath?: string) => {
      if (settled) return;
      settled = true;
      gunzip.unpipe(extract);
      gunzip.destroy();
      extract.destroy();
      reject(rules.unreadable("tar.gz", error, entryPath));
    };

    gunzip.on("error", (error) => fail(error, currentPath));
    extract.on("error", (error: unknown) => fail(error, currentPath));
    gunzip.on("data", (chunk: Buffer) => {
      raw += chunk.length;
      if (raw > rawLimit) fail(rules.tooLarge(currentPath));
    });
    extract.on("finish", () => {
      if (settled) return;
      settled = true;
      settleWithFiles(rules, resolve, reject);
    });
    extract.on("entry", (header, stream, next) => {
      stream.on("error", (error: unknown) => fail(error, header.name));
      if (settled) return;
      currentPath = header.name;
      let name: string | null;
      try {
        name = rules.admit(header.name, tarEntryType(header.type));
      } catch (error) {
        return fail(error);
      }
      if (name === null) {
        // Skipped (folder or junk): drain it; gunzip's output cap bounds what it may hold.
        stream.on("end", () => {
          currentPath = undefined;
          next();
        });
        stream.resume();
        return;
      }
      collectEntry(stream, header.name, name, rules, { settled: () => settled, fail }, () => {
        currentPath = undefined;
        next();
      });
    });

    gunzip.pipe(extract);
    gunzip.end(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  });
}

/** One entry {@link writeTar} writes: a file with its bytes, or another tar entry type (tests write hostile ones). */
export interface TarEntryInput {
  /** the path written into the archive, as is */
  path: string;
  bytes?: Uint8Array;
  /** default `file` */
  type?: tar.Header["type"];
  /** the target of a link entry */
  linkname?: string;
}

/**
 * An uncompressed tar archive of `entries` in order (tar-stream `pack()`), in memory.
 *
 * @param entries files (and, for tests, other entry types)
 * @returns the archive's bytes
 */
export async function writeTar(entries: readonly TarEntryInput[]): Promise<Uint8Array> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  const done = (async () => {
    for await (const chunk of pack) chunks.push(Buffer.from(chunk as Uint8Array));
  })();
  for (const entry of entries) {
    const type = entry.type ?? "file";
    const header = { name: entry.path, type, ...(entry.linkname === undefined ? {} : { linkname: entry.linkname }) };
    const body = (type === "file" || type === "contiguous-file") && entry.bytes ? Buffer.from(entry.bytes.buffer, entry.bytes.byteOffset, entry.bytes.byteLength) : Buffer.alloc(0);
    await new Promise<void>((resolve, reject) => pack.entry(header, body, (error) => (error ? reject(error) : resolve())));
  }
  pack.finalize();
  await done;
  return new Uint8Array(Buffer.concat(chunks));
}

/**
 * A `.tar.gz` archive of `files` (e.g. a run with one file per dataset, as the demo's
 * baselines are submitted), in memory.
 *
 * Compressed on libuv's thread pool, not the event loop: the web server builds these for
 * downloads (the sample submission), whose files may be megabytes.
 *
 * @param files each file's name in the archive and its bytes
 * @returns the gzip-compressed tar archive
 */
export async function writeTarGz(files: readonly { path: string; bytes: Uint8Array }[]): Promise<Uint8Array> {
  return new Uint8Array(await gzipAsync(await writeTar(files)));
}

/** zlib's gzip on the thread pool. */
const gzipAsync = promisify(gzip);

