/**
 * Writer for the CoNLL-2012 coreference format: the inverse of `readConll2012` for the
 * parts the scorer uses (document names and parts, tokens, sentences, entities).
 */
import type { Document, Entity } from "../types.js";

/**
 * Renders documents as CoNLL-2012 text with 5 tab-separated columns
 * (document name, part, token index in sentence, token, coreference).
 *
 * Chain items on a token are written opening items first (longer mentions first), then
 * one-token items, then closing items (shorter mentions first), joined by `|`, so that
 * nested mentions read back unchanged. Entity ids are the entities' positions (0-based).
 *
 * @param documents documents with tokens (a token's text may be empty: it is written `_`)
 *   and entities whose mentions are inclusive token spans inside the document (a mention
 *   past the last token throws a `TypeError`); `part` null is written as part 0
 * @returns the file text, ending with a newline
 */
export function writeConll2012(documents: ReadonlyArray<Pick<Document, "name" | "part" | "tokens" | "sentenceStarts" | "entities">>): string {
  const out: string[] = [];
  for (const doc of documents) {
    const part = doc.part ?? 0;
    out.push(`#begin document (${doc.name}); part ${String(part).padStart(3, "0")}`);
    const cells = chainCells(doc.entities, doc.tokens.length);
    const starts = new Set(doc.sentenceStarts);
    let inSentence = 0;
    for (let t = 0; t < doc.tokens.length; t++) {
      if (t > 0 && starts.has(t)) {
        out.push("");
        inSentence = 0;
      }
      out.push(`${doc.name}\t${part}\t${inSentence++}\t${doc.tokens[t] || "_"}\t${cells[t] || "-"}`);
    }
    out.push("#end document");
  }
  return `${out.join("\n")}\n`;
}

/** The coreference cell of every token. */
function chainCells(entities: readonly Entity[], tokenCount: number): string[] {
  type Item = { order: number; text: string };
  const items: Item[][] = Array.from({ length: tokenCount }, () => []);
  entities.forEach((entity, id) => {
    for (const [start, end] of entity) {
      if (start === end) {
        items[start].push({ order: 1, text: `(${id})` });
      } else {
        // Opening: longer first (order 0 - small number for longer). Closing: shorter first.
        items[start].push({ order: -1 - (end - start) / (tokenCount + 1), text: `(${id}` });
        items[end].push({ order: 2 + 1 / (end - start + 1), text: `${id})` });
      }
    }
  });
  return items.map((list) =>
    list
      .sort((a, b) => a.order - b.order)
      .map((i) => i.text)
      .join("|"),
  );
}
