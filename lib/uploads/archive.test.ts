import { describe, expect, it } from "vitest";
import { gzipSync } from "node:zlib";
import { ValidationError } from "../errors";
import { archiveKind, pairArchiveFiles, readArchive, writeTarGz, type ArchiveEntry } from "./archive";
import { editZipDirectory, makeTar, makeTarGz, makeZip, type FixtureEntry } from "./archive.fixtures";

const MB = 1024 * 1024;
const LIMITS = { maxTotalBytes: MB };

/** The ValidationError `promise` rejects with (fails the test if it resolves or throws else). */
async function rejection(promise: Promise<unknown>): Promise<ValidationError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error, "expected a rejection").not.toBeNull();
  expect(error).toBeInstanceOf(ValidationError);
  const validation = error as ValidationError;
  expect(validation.httpStatus).toBe(422);
  expect(validation.fieldErrors).toEqual([{ path: "file", message: validation.message }]);
  return validation;
}

/** Lets late stream events (errors after a rejection) happen inside the test. */
async function settle(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 20));
}

/** `[path, text]` pairs of entries, for compact assertions. */
function texts(entries: ArchiveEntry[]): [string, string, string][] {
  return entries.map((entry) => [entry.path, entry.name, Buffer.from(entry.bytes).toString("utf8")]);
}

describe("archiveKind", () => {
  it.each([
    ["run.zip", "zip"],
    ["RUN.ZIP", "zip"],
    ["run.tar.gz", "tar.gz"],
    ["run.TAR.GZ", "tar.gz"],
    ["run.tgz", "tar.gz"],
    ["run.Tgz", "tar.gz"],
    ["run.conllu", null],
    ["run.gz", null],
    ["run.tar", null],
    ["zip", null],
    ["run.zip.conllu", null],
  ])("%s → %s", (name, kind) => {
    expect(archiveKind(name)).toBe(kind);
  });
});

const formats = [
  { kind: "zip", fileName: "run.zip", make: makeZip },
  { kind: "tar.gz", fileName: "run.tar.gz", make: makeTarGz },
] as const;

describe.each(formats)("readArchive, $kind", ({ kind, fileName, make }) => {
  const read = async (entries: FixtureEntry[], limits: { maxTotalBytes: number; maxEntries?: number } = LIMITS) =>
    readArchive(await make(entries), fileName, limits);

  it("returns the files in archive order with path, base name and bytes; folders and macOS junk are skipped", async () => {
    const entries = await read([
      { path: "b.conllu", text: "second dataset\n" },
      { path: "run/", folder: true },
      { path: "run/a.conllu", text: "first dataset\n" },
      { path: "__MACOSX/", folder: true },
      { path: "__MACOSX/run/._a.conllu", text: "resource fork" },
      { path: "run/._b.conllu", text: "resource fork" },
      { path: "run/.DS_Store", text: "finder" },
      { path: "c.jsonl", text: "" },
    ]);
    expect(texts(entries)).toEqual([
      ["b.conllu", "b.conllu", "second dataset\n"],
      ["run/a.conllu", "a.conllu", "first dataset\n"],
      ["c.jsonl", "c.jsonl", ""],
    ]);
    expect(entries[0].bytes).toBeInstanceOf(Uint8Array);
  });

  it("accepts a file at the top and files in one folder, and a backslash as a folder separator", async () => {
    const entries = await read([
      { path: "x.conllu", text: "x" },
      { path: "dir\\y.conllu", text: "y" },
    ]);
    expect(texts(entries)).toEqual([
      ["x.conllu", "x.conllu", "x"],
      ["dir\\y.conllu", "y.conllu", "y"],
    ]);
  });

  it("keeps binary content byte for byte", async () => {
    const bytes = Uint8Array.from({ length: 70_000 }, (_, index) => (index * 31) % 256);
    const [entry] = await read([{ path: "data.bin", bytes }]);
    expect(Buffer.from(entry.bytes).equals(Buffer.from(bytes))).toBe(true);
  });

  it.each([
    ["../evil.conllu", /holds "\.\.\/evil\.conllu", a path that climbs out of the archive with "\.\."/],
    ["run/../../evil.conllu", /holds "run\/\.\.\/\.\.\/evil\.conllu", a path that climbs out/],
    ["run\\..\\evil.conllu", /holds "run\\\.\.\\evil\.conllu", a path that climbs out/],
  ])("rejects path traversal: %s", async (path, message) => {
    const error = await rejection(read([{ path: "ok.conllu", text: "x" }, { path, text: "x" }]));
    expect(error.message).toMatch(new RegExp(`^${fileName.replace(/\./g, "\\.")} `));
    expect(error.message).toMatch(message);
  });

  it.each([
    ["/etc/evil.conllu", /holds "\/etc\/evil\.conllu", an absolute path; paths inside an archive must be relative, e.g. "evil\.conllu"/],
    ["C:\\evil.conllu", /holds "C:\\evil\.conllu", an absolute path/],
    ["c:/evil.conllu", /holds "c:\/evil\.conllu", an absolute path/],
    ["\\\\server\\share\\evil.conllu", /an absolute path/],
  ])("rejects an absolute path: %s", async (path, message) => {
    const error = await rejection(read([{ path, text: "x" }]));
    expect(error.message).toContain(fileName);
    expect(error.message).toMatch(message);
  });

  it("rejects a file nested two folders deep", async () => {
    const error = await rejection(read([{ path: "a.conllu", text: "x" }, { path: "a/b/c.conllu", text: "x" }]));
    expect(error.message).toBe(
      `${fileName} holds "a/b/c.conllu", a file nested more than one folder deep; put each file at the top of the archive or in one folder, e.g. "c.conllu" or "folder/c.conllu".`,
    );
  });

  it("rejects a file nested two folders deep with backslashes", async () => {
    const error = await rejection(read([{ path: "a\\b\\c.conllu", text: "x" }]));
    expect(error.message).toContain(`holds "a\\b\\c.conllu", a file nested more than one folder deep`);
  });

  it("rejects a folder entry two levels deep", async () => {
    const error = await rejection(read([{ path: "a.conllu", text: "x" }, { path: "a/b/", folder: true }]));
    expect(error.message).toContain(`holds "a/b/", a folder nested more than one folder deep`);
  });

  it("rejects the same file name in two folders", async () => {
    const error = await rejection(read([{ path: "x/a.conllu", text: "1" }, { path: "y/a.conllu", text: "2" }]));
    expect(error.message).toBe(
      `${fileName} holds two files named "a.conllu" ("x/a.conllu" and "y/a.conllu"); each file name may appear only once.`,
    );
  });

  it("rejects the same file name at the top and in a folder", async () => {
    const error = await rejection(read([{ path: "a.conllu", text: "1" }, { path: "run/a.conllu", text: "2" }]));
    expect(error.message).toContain(`two files named "a.conllu" ("a.conllu" and "run/a.conllu")`);
  });

  it("rejects the same path twice", async () => {
    const error = await rejection(read([{ path: "a.conllu", text: "1" }, { path: "a.conllu", text: "2" }]));
    expect(error.message).toContain(`two files named "a.conllu" ("a.conllu" twice)`);
  });

  it("accepts 200 entries and rejects 201, folders counting", async () => {
    const files = (count: number): FixtureEntry[] => [
      { path: "run/", folder: true },
      ...Array.from({ length: count - 1 }, (_, index) => ({ path: `run/f${index}.conllu`, text: `${index}` })),
    ];
    expect(await read(files(200))).toHaveLength(199);
    const error = await rejection(read(files(201)));
    expect(error.message).toMatch(new RegExp(`^${fileName.replace(/\./g, "\\.")} holds more than 200 entries`));
    expect(error.message).toContain("an archive may hold at most 200 (files and folders alike)");
  });

  it("counts macOS junk as entries and honours maxEntries", async () => {
    const entries: FixtureEntry[] = [
      { path: "a.conllu", text: "a" },
      { path: "__MACOSX/", folder: true },
      { path: "__MACOSX/._a.conllu", text: "junk" },
    ];
    expect(await read(entries, { maxTotalBytes: MB, maxEntries: 3 })).toHaveLength(1);
    const error = await rejection(read(entries, { maxTotalBytes: MB, maxEntries: 2 }));
    expect(error.message).toContain("holds more than 2 entries");
  });

  it("rejects a zip bomb (20 MB of zeros) under a 1 MB limit", async () => {
    const archive = await make([{ path: "bomb.conllu", bytes: new Uint8Array(20 * MB) }]);
    expect(archive.byteLength).toBeLessThan(100_000);
    const error = await rejection(readArchive(archive, fileName, { maxTotalBytes: MB }));
    expect(error.message).toBe(
      `${fileName} unpacks to more than 1 MB (reading stopped at "bomb.conllu"); the files inside an archive may total at most 1 MB.`,
    );
    await settle();
  });

  it("counts the total over all files: each under the limit, together over it", async () => {
    const half = new Uint8Array(600 * 1024);
    const error = await rejection(read([{ path: "a.conllu", bytes: half }, { path: "b.conllu", bytes: half }]));
    expect(error.message).toContain(`unpacks to more than 1 MB (reading stopped at "b.conllu")`);
  });

  it("accepts a total of exactly maxTotalBytes", async () => {
    const entries = await read([{ path: "a.conllu", bytes: new Uint8Array(MB / 2) }, { path: "b.conllu", bytes: new Uint8Array(MB / 2) }]);
    expect(entries.map((entry) => entry.bytes.byteLength)).toEqual([MB / 2, MB / 2]);
  });

  it("rejects a truncated archive", async () => {
    const archive = await make([{ path: "a.conllu", text: "x".repeat(5000) }, { path: "b.conllu", text: "y".repeat(5000) }]);
    const error = await rejection(readArchive(archive.subarray(0, Math.floor(archive.byteLength / 2)), fileName, LIMITS));
    expect(error.message).toMatch(new RegExp(`^${fileName.replace(/\./g, "\\.")} could not be read as a \\.${kind.replace(".", "\\.")} archive`));
    expect(error.message).toMatch(/cut short/);
    await settle();
  });

  it("rejects an archive whose compressed data is damaged midway, leaving no stray error behind", async () => {
    const random = Uint8Array.from({ length: 200_000 }, (_, index) => (index * 7919 + (index >> 3) * 104729) % 251);
    const archive = await make([{ path: "a.conllu", bytes: random }]);
    const damaged = Uint8Array.from(archive);
    for (let at = Math.floor(damaged.byteLength / 3); at < Math.floor(damaged.byteLength / 2); at += 1) damaged[at] ^= 0x5a;
    const error = await rejection(readArchive(damaged, fileName, LIMITS));
    expect(error.message).toMatch(new RegExp(`could not be read as a \\.${kind.replace(".", "\\.")} archive`));
    await settle();
  });

  it("rejects an archive that holds only folders and junk", async () => {
    const error = await rejection(read([{ path: "run/", folder: true }, { path: "__MACOSX/._x", text: "junk" }]));
    expect(error.message).toBe(`${fileName} holds no file; put one file per dataset into the archive.`);
  });

  it("rejects an archive that holds nothing", async () => {
    const error = await rejection(read([]));
    expect(error.message).toBe(`${fileName} holds no file; put one file per dataset into the archive.`);
  });
});

describe("readArchive, zip only", () => {
  it("reads stored (uncompressed) entries too", async () => {
    const archive = await makeZip([{ path: "a.conllu", text: "plain", compress: false }]);
    expect(texts(await readArchive(archive, "run.zip", LIMITS))).toEqual([["a.conllu", "a.conllu", "plain"]]);
  });

  it("rejects tar.gz bytes named .zip", async () => {
    const archive = await makeTarGz([{ path: "a.conllu", text: "x" }]);
    const error = await rejection(readArchive(archive, "run.zip", LIMITS));
    expect(error.message).toMatch(/^run\.zip could not be read as a \.zip archive: it has no zip directory at its end, so it is not a \.zip file or it was cut short \(/);
  });

  it("rejects an encrypted entry", async () => {
    const archive = editZipDirectory(await makeZip([{ path: "secret.conllu", text: "x".repeat(100) }]), (view, offset) => {
      view.setUint16(offset + 8, view.getUint16(offset + 8, true) | 0x1, true);
    });
    const error = await rejection(readArchive(archive, "run.zip", LIMITS));
    expect(error.message).toBe(`run.zip holds "secret.conllu", which is encrypted (password-protected); upload an archive without a password.`);
  });

  it("rejects a symbolic link", async () => {
    const archive = await makeZip([{ path: "a.conllu", text: "x" }, { path: "link.conllu", text: "/etc/passwd", mode: 0o120777 }]);
    const error = await rejection(readArchive(archive, "run.zip", LIMITS));
    expect(error.message).toBe(`run.zip holds "link.conllu", which is a symbolic link; an archive may hold only plain files and folders.`);
  });

  it("counts the decompressed bytes, not the sizes the directory claims", async () => {
    const archive = editZipDirectory(await makeZip([{ path: "bomb.conllu", bytes: new Uint8Array(20 * MB) }]), (view, offset) => {
      view.setUint32(offset + 24, 10, true); // claims 10 bytes uncompressed
    });
    const error = await rejection(readArchive(archive, "run.zip", LIMITS));
    expect(error.message).toMatch(/^run\.zip could not be read as a \.zip archive \(at "bomb\.conllu"\): the zip data is damaged \(too many bytes in the stream/);
    await settle();
  });

  it("rejects an archive whose directory announces more entries than allowed before reading any", async () => {
    const archive = await makeZip(Array.from({ length: 5 }, (_, index) => ({ path: `f${index}.conllu`, text: "x" })));
    const error = await rejection(readArchive(archive, "run.zip", { maxTotalBytes: MB, maxEntries: 4 }));
    expect(error.message).toBe("run.zip holds more than 4 entries; an archive may hold at most 4 (files and folders alike).");
  });
});

describe("readArchive, tar.gz only", () => {
  it("reads .tgz, skipping ./ prefixes and the root folder entry", async () => {
    const archive = await makeTarGz([
      { path: "./", folder: true },
      { path: "./a.conllu", text: "a" },
      { path: "./run/", folder: true },
      { path: "./run/b.conllu", text: "b" },
    ]);
    expect(texts(await readArchive(archive, "run.TGZ", LIMITS))).toEqual([
      ["./a.conllu", "a.conllu", "a"],
      ["./run/b.conllu", "b.conllu", "b"],
    ]);
  });

  it("reads long paths (pax / ustar prefix headers)", async () => {
    const folder = "f".repeat(120);
    const archive = await makeTarGz([{ path: `${folder}/a.conllu`, text: "a" }]);
    expect(texts(await readArchive(archive, "run.tgz", LIMITS))).toEqual([[`${folder}/a.conllu`, "a.conllu", "a"]]);
  });

  it("names the 201st entry when there are too many", async () => {
    const archive = await makeTarGz(Array.from({ length: 201 }, (_, index) => ({ path: `f${index}.conllu`, text: "x" })));
    const error = await rejection(readArchive(archive, "run.tgz", LIMITS));
    expect(error.message).toBe(
      `run.tgz holds more than 200 entries (entry 201 is "f200.conllu"); an archive may hold at most 200 (files and folders alike).`,
    );
  });

  it.each([
    ["symlink", "a symbolic link"],
    ["link", "a hard link"],
    ["character-device", "a character device"],
    ["block-device", "a block device"],
    ["fifo", "a FIFO"],
  ] as const)("rejects a %s entry", async (type, described) => {
    const archive = await makeTarGz([{ path: "a.conllu", text: "x" }, { path: "b.conllu", type, linkname: "/etc/passwd" }]);
    const error = await rejection(readArchive(archive, "run.tar.gz", LIMITS));
    expect(error.message).toBe(`run.tar.gz holds "b.conllu", which is ${described}; an archive may hold only plain files and folders.`);
  });

  it("bounds what gunzip may produce even for bytes it skips (a bomb in macOS junk)", async () => {
    const archive = await makeTarGz([{ path: "a.conllu", text: "x" }, { path: "__MACOSX/._bomb", bytes: new Uint8Array(20 * MB) }]);
    const error = await rejection(readArchive(archive, "run.tar.gz", LIMITS));
    expect(error.message).toBe(
      `run.tar.gz unpacks to more than 1 MB (reading stopped at "__MACOSX/._bomb"); the files inside an archive may total at most 1 MB.`,
    );
    await settle();
  });

  it("rejects zip bytes named .tar.gz", async () => {
    const archive = await makeZip([{ path: "a.conllu", text: "x" }]);
    const error = await rejection(readArchive(archive, "run.tar.gz", LIMITS));
    expect(error.message).toMatch(/^run\.tar\.gz could not be read as a \.tar\.gz archive: it is not gzip-compressed, so it is not a \.tar\.gz file \(/);
  });

  it("rejects an uncompressed tar named .tgz", async () => {
    const archive = await makeTar([{ path: "a.conllu", text: "x" }]);
    const error = await rejection(readArchive(archive, "run.tgz", LIMITS));
    expect(error.message).toContain("it is not gzip-compressed");
  });

  it("rejects gzip-compressed bytes that are not a tar archive", async () => {
    const error = await rejection(readArchive(gzipSync(Buffer.from("#begin document (x); part 000\n".repeat(40))), "run.tgz", LIMITS));
    expect(error.message).toMatch(/^run\.tgz could not be read as a \.tar\.gz archive.*: the gzip-compressed content is not a tar archive/);
  });
});

describe("readArchive, other names", () => {
  it("rejects a name that is not an archive", async () => {
    const archive = await makeZip([{ path: "a.conllu", text: "x" }]);
    const error = await rejection(readArchive(archive, "run.conllu", LIMITS));
    expect(error.message).toBe("run.conllu is not an archive: its name should end with .zip, .tar.gz or .tgz.");
  });
});

describe("pairArchiveFiles", () => {
  const datasets = [
    { id: "d1", name: "cs_pdt", fileName: "cs_pdt.conllu", extra: 1 },
    { id: "d2", name: "en_gum", fileName: "en_gum.conllu", extra: 2 },
    { id: "d3", name: "fr_democrat", fileName: "fr_democrat.conllu", extra: 3 },
  ];
  const entry = (path: string): ArchiveEntry => ({ path, name: path.split("/").at(-1)!, bytes: new Uint8Array() });

  it("pairs by base name in the datasets' order and lists the datasets left out", () => {
    const fr = entry("run/fr_democrat.conllu");
    const cs = entry("cs_pdt.conllu");
    const { files, missing } = pairArchiveFiles([fr, cs], datasets, "run.zip");
    expect(files).toEqual([
      { dataset: datasets[0], entry: cs },
      { dataset: datasets[2], entry: fr },
    ]);
    expect(missing).toEqual([datasets[1]]);
    expect(files[0].dataset.extra).toBe(1); // keeps the caller's dataset type
  });

  it("returns no missing dataset when all are there", () => {
    const { files, missing } = pairArchiveFiles(datasets.map((dataset) => entry(dataset.fileName)), datasets, "run.zip");
    expect(files.map((file) => file.dataset.id)).toEqual(["d1", "d2", "d3"]);
    expect(missing).toEqual([]);
  });

  it("rejects a file that is no dataset's, listing the expected names", () => {
    let caught: unknown;
    try {
      pairArchiveFiles([entry("cs_pdt.conllu"), entry("run/notes.txt")], datasets, "run.zip");
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ValidationError);
    expect((caught as ValidationError).httpStatus).toBe(422);
    expect((caught as ValidationError).fieldErrors[0].path).toBe("file");
    expect((caught as ValidationError).message).toBe(
      `run.zip holds "run/notes.txt", which is not a dataset file of this phase; expected file names: "cs_pdt.conllu", "en_gum.conllu", "fr_democrat.conllu".`,
    );
  });

  it("matches case-sensitively", () => {
    expect(() => pairArchiveFiles([entry("CS_PDT.conllu")], datasets, "run.zip")).toThrow(
      `run.zip holds "CS_PDT.conllu", which is not a dataset file of this phase`,
    );
  });

  it("lists at most 10 expected names", () => {
    const many = Array.from({ length: 13 }, (_, index) => ({ id: `d${index}`, name: `n${index}`, fileName: `n${index}.conllu` }));
    const names = many.slice(0, 10).map((dataset) => `"${dataset.fileName}"`).join(", ");
    expect(() => pairArchiveFiles([entry("x.conllu")], many, "run.tgz")).toThrow(
      `run.tgz holds "x.conllu", which is not a dataset file of this phase; expected file names: ${names} and 3 more.`,
    );
  });

  it("rejects an archive without any dataset file", () => {
    expect(() => pairArchiveFiles([], datasets, "run.zip")).toThrow(ValidationError);
    expect(() => pairArchiveFiles([], datasets, "run.zip")).toThrow(
      `run.zip holds no dataset file of this phase; expected file names: "cs_pdt.conllu", "en_gum.conllu", "fr_democrat.conllu".`,
    );
  });
});

describe("writeTarGz", () => {
  it("writes files that readArchive reads back, in order and byte for byte", async () => {
    const files = [
      { path: "en_gum_bio-corefud-test.conllu", bytes: new TextEncoder().encode("# newdoc id = a\n") },
      { path: "empty.conllu", bytes: new Uint8Array(0) },
    ];
    const entries = await readArchive(await writeTarGz(files), "run.tar.gz", LIMITS);
    expect(entries.map((e) => [e.path, Buffer.from(e.bytes).toString("utf8")])).toEqual([
      ["en_gum_bio-corefud-test.conllu", "# newdoc id = a\n"],
      ["empty.conllu", ""],
    ]);
  });
});

