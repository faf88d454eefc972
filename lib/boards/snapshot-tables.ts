/**
 * A final results snapshot's LaTeX and Markdown tables, for papers (issue 24 §2; the contract is
 * in `snapshots.ts`): not stored, generated from the stored JSON export on each request, one
 * table per board (`export.ts`), each citing that JSON's file name and sha256.
 */
import { isLeaderboardMetric } from "../validations/metrics";
import { boardLatex, boardMarkdown, markdownEscape, type ExportBoard } from "./export";
import { asBoard, displayRow, SNAPSHOT_JSON_FORMAT } from "./snapshot-format";

/** The JSON export's document, as far as the tables read it (see the module comment). */
interface SnapshotDocument {
  task: { slug: string; title: string };
  phase: { name: string };
  snapshot: { number: number; createdAt: string };
  gold: { dataset: string; version: number }[];
  scorerVersion: string;
  boards: unknown[];
}

/** Where a table's numbers come from: the JSON export's download name and its sha256 (hex). */
export interface SnapshotTableSource {
  fileName: string;
  sha256: string;
}

/**
 * The JSON export's text as a document.
 *
 * @throws Error when the text is not a snapshot document (the stored JSON is damaged: HTTP 500)
 */
function parseSnapshotDocument(json: string): SnapshotDocument {
  const doc = JSON.parse(json) as Partial<SnapshotDocument> & { format?: unknown };
  if (doc?.format !== SNAPSHOT_JSON_FORMAT || !Array.isArray(doc.boards) || !doc.task || !doc.phase || !doc.snapshot) {
    throw new Error(`the stored JSON export is not a ${SNAPSHOT_JSON_FORMAT} document`);
  }
  return { ...doc, gold: Array.isArray(doc.gold) ? doc.gold : [], scorerVersion: String(doc.scorerVersion ?? "") } as SnapshotDocument;
}

/** A stored board as the table builders read it (`export.ts`). */
function exportBoard(value: unknown, doc: SnapshotDocument): ExportBoard | null {
  const board = asBoard(value);
  if (!board) return null;
  const multi = (board.datasets?.length ?? 0) > 1;
  return {
    task: { slug: board.task?.slug ?? doc.task.slug, title: board.task?.title ?? doc.task.title },
    phase: { name: board.phase?.name ?? doc.phase.name, selectionRule: board.phase?.selectionRule },
    evaluation: board.evaluation,
    metric: isLeaderboardMetric(board.metric) ? board.metric : "conll",
    variant: board.variant ?? null,
    track: board.track,
    datasets: multi ? board.datasets! : [],
    dataset: multi ? (board.dataset ?? null) : null,
    rankDataset: multi ? (board.rankDataset ?? null) : null,
    allRuns: board.allRuns === true,
    generatedAt: new Date(board.generatedAt ?? doc.snapshot.createdAt),
    rows: board.rows.map(displayRow),
  };
}

/** The snapshot's boards for the tables, and the comment lines each table gets. */
function tableBoards(json: string, source: SnapshotTableSource): { doc: SnapshotDocument; boards: ExportBoard[]; notes: string[] } {
  const doc = parseSnapshotDocument(json);
  const gold = doc.gold.map((g) => `${g.dataset} v${g.version}`).join(", ");
  const notes = [
    `Final results snapshot #${doc.snapshot.number}, published ${doc.snapshot.createdAt}; scorer version ${doc.scorerVersion}; gold keys: ${gold || "none"}`,
    `Source: ${source.fileName} (the snapshot's JSON export), sha256 ${source.sha256}`,
  ];
  const boards = doc.boards.map((b) => exportBoard(b, doc)).filter((b): b is ExportBoard => b !== null);
  return { doc, boards, notes };
}

/**
 * A snapshot's LaTeX tables (`boardLatex` of each board, with tracks one `tabular` per track in
 * the phase's order, separated by a blank line), generated from its stored JSON export: each
 * board's disqualified runs after its other rows under a "Disqualified" heading, and, in the `%`
 * comment lines above each table, besides the board's facts, the snapshot's number, publication
 * time, scorer version and gold versions, and the JSON export's file name and sha256.
 *
 * @param json the stored JSON export's text (format `corefboard-results-snapshot/1`)
 * @param source the JSON export's download name and its sha256 (hex), cited in the comments
 * @returns the LaTeX source (needs `\usepackage{booktabs}`), ending with a newline
 * @throws Error when `json` is not a snapshot document
 */
export function snapshotLatex(json: string, source: SnapshotTableSource): string {
  const { boards, notes } = tableBoards(json, source);
  return boards.map((board) => boardLatex(board, { disqualifiedApart: true, notes })).join("\n");
}

/**
 * A snapshot's Markdown tables (`boardMarkdown` of each board; with tracks, each under a
 * `### <track> track` heading, in the phase's order), generated from its stored JSON export: each
 * board's disqualified runs in a table of their own under "**Disqualified**", the snapshot's
 * facts and the JSON export's file name and sha256 in the HTML comment above each table, and
 * under the last one a line citing the snapshot and that sha256.
 *
 * @param json the stored JSON export's text (format `corefboard-results-snapshot/1`)
 * @param source the JSON export's download name and its sha256 (hex)
 * @returns the Markdown source, ending with a newline
 * @throws Error when `json` is not a snapshot document
 */
export function snapshotMarkdown(json: string, source: SnapshotTableSource): string {
  const { doc, boards, notes } = tableBoards(json, source);
  const parts = boards.map((board) => `${board.track ? `### ${markdownEscape(board.track.name)} track\n\n` : ""}${boardMarkdown(board, { disqualifiedApart: true, notes })}`);
  const cite =
    `Source: final results snapshot #${doc.snapshot.number} of ${markdownEscape(doc.task.title)} (${markdownEscape(doc.phase.name)} phase), ` +
    `published ${doc.snapshot.createdAt}: JSON export \`${source.fileName}\`, sha256 \`${source.sha256}\`.`;
  return `${[...parts, cite].join("\n")}\n`;
}
