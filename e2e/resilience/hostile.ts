/**
 * The hostile upload, written on the fly: a ~48 MB CoNLL-2012 file with ~600,000
 * nested mentions whose last line is broken, so that a reader must get through all of it
 * before it can refuse it.
 */
import { createWriteStream, openAsBlob } from "node:fs";

/** What a {@link writeHostileConll} file holds. */
export interface HostileFile {
  path: string;
  bytes: number;
  mentions: number;
  lines: number;
  /** its contents as a file-backed Blob, for uploads */
  blob(): Promise<Blob>;
}

/**
 * Writes the hostile upload: CoNLL-2012 documents of 8-token sentences, each with 5
 * nested mentions (one over the sentence holding a two-token mention, a one-token mention
 * and a three-token mention that holds a one-token mention), padded to about `targetBytes`;
 * the last line is a token whose coreference cell is not a chain item (`(oops`) and the
 * last document is never closed.
 *
 * @param mentions how many mentions (rounded up to whole sentences); default 600,000
 * @param targetBytes the file's approximate size; default 48 MB (under a 50 MB upload limit)
 */
export async function writeHostileConll(file: string, mentions = 600_000, targetBytes = 48 * 1024 * 1024): Promise<HostileFile> {
  const sentences = Math.ceil(mentions / 5);
  const documents = 100;
  const perDocument = Math.ceil(sentences / documents);
  const cells = (id: number) => [`(${id}(${id + 1}`, `${id + 1})`, `(${id + 2})`, "-", `(${id + 3}`, `(${id + 4})`, `${id + 3})`, `${id})`];
  // Pass 1: the size without padding, to spread the padding evenly over the token lines.
  const build = (pad: string, sink: (text: string) => void) => {
    let lineCount = 0;
    let written = 0;
    for (let d = 0; d < documents && written < sentences; d++) {
      const name = `hostile_${String(d).padStart(3, "0")}`;
      const last = d === documents - 1 || written + perDocument >= sentences;
      let chunk = `#begin document (${name}); part 000\n`;
      lineCount++;
      let token = 0;
      for (let s = 0; s < perDocument && written < sentences; s++, written++) {
        const id = (s * 5) % 100_000;
        for (const cell of cells(id)) {
          chunk += `${name}\t0\t${token++}\tw${pad}\tNN\t*\t-\t-\t-\t-\t*\t${cell}\n`;
          lineCount++;
        }
        chunk += "\n";
        lineCount++;
        if (chunk.length > 1 << 20) {
          sink(chunk);
          chunk = "";
        }
      }
      if (last) {
        chunk += `${name}\t0\t${token}\tbroken\tNN\t*\t-\t-\t-\t-\t*\t(oops\n`;
        lineCount++;
        sink(chunk);
        return lineCount;
      }
      chunk += "#end document\n";
      lineCount++;
      sink(chunk);
    }
    return lineCount;
  };
  let base = 0;
  build("", (text) => void (base += Buffer.byteLength(text)));
  const tokenLines = sentences * 8;
  const pad = "x".repeat(Math.max(0, Math.floor((targetBytes - base) / tokenLines)));
  const out = createWriteStream(file);
  let bytes = 0;
  const lines = build(pad, (text) => {
    bytes += Buffer.byteLength(text);
    out.write(text);
  });
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
  return { path: file, bytes, mentions: sentences * 5, lines, blob: () => openAsBlob(file) };
}

