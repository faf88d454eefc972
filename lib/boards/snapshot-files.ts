/**
 * A final results snapshot's downloads (the contract is in `snapshots.ts`): the stored CSV and
 * JSON exports exactly as published, and the LaTeX and Markdown tables generated from the JSON
 * (`snapshot-tables.ts`), with their checksums, file names and HTTP headers.
 */
import { etagFor, isNotModified, notModifiedResponse } from "../http/conditional-response";
import { NotFoundError } from "../errors";
import type { Viewer } from "../permissions";
import { defaultDb } from "../db";
import { cachedBoardPart } from "./cache";
import { sha256Hex } from "./snapshot-format";
import { snapshotLatex, snapshotMarkdown } from "./snapshot-tables";
import { parseSnapshotNumber, readablePhase } from "./snapshots";

/** What {@link getSnapshotFile} reads: the stored CSV or JSON, or the LaTeX or Markdown tables generated from the JSON. */
export type SnapshotFileKind = "csv" | "json" | "latex" | "markdown";

/** Per kind: the file name's extension and the content type. */
const FILE_KINDS: Readonly<Record<SnapshotFileKind, { extension: string; contentType: string }>> = {
  csv: { extension: "csv", contentType: "text/csv; charset=utf-8" },
  json: { extension: "json", contentType: "application/json; charset=utf-8" },
  latex: { extension: "tex", contentType: "text/x-tex; charset=utf-8" },
  markdown: { extension: "md", contentType: "text/markdown; charset=utf-8" },
};

/** A snapshot's export as a download answers it. */
export interface SnapshotFile {
  /** the text to send as UTF-8: the stored CSV or JSON exactly, or the tables generated from the stored JSON */
  body: string;
  /** sha256 (hex) of the body's UTF-8 bytes: as stored for the CSV and JSON, computed for the generated tables */
  sha256: string;
  /** `<task>-<phase>-results-<n>.csv`, `.json`, `.tex` or `.md`, ASCII */
  fileName: string;
  /** `text/csv`, `application/json`, `text/x-tex` or `text/markdown`, each `; charset=utf-8` */
  contentType: string;
  /** true when anyone may read it (PUBLIC board of a published task): it may be cached publicly */
  publicResults: boolean;
}

/**
 * The HTTP headers of a snapshot export's download: its content type, `Content-Disposition:
 * attachment` with its file name, `X-Content-SHA256` (the stored checksum), `ETag` (that
 * checksum, quoted), and `Cache-Control`: `public, max-age=31536000, immutable` for public
 * results (a snapshot never changes: a later correction is a new snapshot number), else
 * `private, no-store` (results for participants or organizers only must not sit in shared caches).
 *
 * @param file from {@link getSnapshotFile}
 */
export function snapshotDownloadHeaders(file: SnapshotFile): Record<string, string> {
  return {
    "Content-Type": file.contentType,
    "Content-Disposition": `attachment; filename="${file.fileName}"`,
    "X-Content-SHA256": file.sha256,
    ETag: etagFor(file.sha256),
    "Cache-Control": file.publicResults ? "public, max-age=31536000, immutable" : "private, no-store",
  };
}

/**
 * The answer to a snapshot export's download: 200 with the stored bytes and
 * {@link snapshotDownloadHeaders}, or `304 Not Modified` without a body when the request's
 * `If-None-Match` names the file's ETag (its sha256).
 *
 * @param request the download request (its validators are read)
 * @param file from {@link getSnapshotFile}
 */
export function snapshotDownloadResponse(request: Request, file: SnapshotFile): Response {
  const headers = snapshotDownloadHeaders(file);
  if (isNotModified(request, headers.ETag!)) return notModifiedResponse(headers);
  return new Response(new TextEncoder().encode(file.body), { status: 200, headers });
}

/** A file-name part: lower-case ASCII letters and digits, runs of anything else as "-". */
function namePart(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "") || "x";
}

/**
 * A snapshot's export: the stored CSV or JSON with its stored checksum, exactly as published, or
 * the LaTeX or Markdown tables generated from the stored JSON ({@link snapshotLatex},
 * {@link snapshotMarkdown}), which cite the JSON's file name and sha256. Who may read them is the
 * same for every kind.
 *
 * @param viewer the viewer (null = anonymous)
 * @param phaseId the phase (a malformed id is a 404 like an unknown one)
 * @param number the snapshot's number (a string from the URL, or a number)
 * @param kind `csv`, `json`, `latex` or `markdown`
 * @returns the body, its sha256, a download name `<task>-<phase>-results-<n>.<csv|json|tex|md>`,
 *   the content type, and whether the results are public (PUBLIC board of a published task)
 * @throws as {@link getSnapshot}
 */
export async function getSnapshotFile(viewer: Viewer, phaseId: string, number: string | number, kind: SnapshotFileKind): Promise<SnapshotFile> {
  const db = defaultDb();
  const n = parseSnapshotNumber(number);
  const { phase } = await readablePhase(viewer, phaseId, db);
  const where = { phaseId_number: { phaseId: phase.id, number: n } };
  const name = (extension: string) => `${namePart(phase.task.slug)}-${namePart(phase.name)}-results-${n}.${extension}`;
  const { extension, contentType } = FILE_KINDS[kind];
  const publicResults = phase.leaderboardVisibility === "PUBLIC" && phase.task.status !== "DRAFT";
  if (kind === "csv") {
    const row = await db.resultSnapshot.findUnique({ where, select: { csv: true, csvSha256: true } });
    if (!row) throw new NotFoundError("No such snapshot.");
    return { body: row.csv, sha256: row.csvSha256, fileName: name(extension), contentType, publicResults };
  }
  if (kind === "json") {
    const row = await db.resultSnapshot.findUnique({ where, select: { json: true, jsonSha256: true } });
    if (!row) throw new NotFoundError("No such snapshot.");
    return { body: row.json, sha256: row.jsonSha256, fileName: name(extension), contentType, publicResults };
  }
  const stored = await db.resultSnapshot.findUnique({ where, select: { jsonSha256: true } });
  if (!stored) throw new NotFoundError("No such snapshot.");
  const source = { fileName: name(FILE_KINDS.json.extension), sha256: stored.jsonSha256 };
  // The tables follow from the stored JSON (immutable) and the names they cite: kept by those,
  // so a snapshot's JSON is read and parsed once per process, not on every download.
  const table = await cachedBoardPart(`snapshot-table:${kind}:${source.fileName}:${source.sha256}`, async () => {
    const row = await db.resultSnapshot.findUniqueOrThrow({ where, select: { json: true } });
    const body = kind === "latex" ? snapshotLatex(row.json, source) : snapshotMarkdown(row.json, source);
    return { body, sha256: sha256Hex(body) };
  });
  return { ...table, fileName: name(extension), contentType, publicResults };
}
