/**
 * Nodes of the CorefUD CoNLL-U reader (`../conllu.ts`): the `NodeCode` of a word or empty
 * node, the DEPS of empty nodes (read as udapi reads them) and the head of a finished mention
 * (as udapi sets it, quirks included), with their errors.
 */
import { quote, type CorefUDSentence, type Dep, type NodeCode } from "../../types.js";
import { errorAt, NATURAL, type Place } from "./lines.js";

/** The factor of `NodeCode`: a node's code is `(slot + ord) * NODE_CODE_FACTOR + sub`. */
export const NODE_CODE_FACTOR = 1024;

/** An empty node of the document: where it is and its DEPS (parsed when its sentence ends). */
export interface EmptyNode {
  id: string;
  code: NodeCode;
  line: number;
  /** 1-based column of the DEPS column. */
  column: number;
  lineText: string;
  /** DEPS as written until its sentence ends, then parsed (null for `_`). */
  raw: string;
  deps: Dep[] | null;
}

/**
 * Parses the DEPS of an empty node as udapi does (`|`-separated `PARENT:DEPREL`, split at
 * the first `:`; PARENT a word ID, 0 for the root, or an empty node of the same sentence).
 * @param sentence the empty node's sentence, ended (all its words read)
 * @param emptyCodes the codes of the sentence's empty nodes by ID
 * @param file the file name, for messages
 * @returns the dependencies, null for `_`
 * @throws FormatError at the offending item
 */
export function parseDeps(empty: EmptyNode, sentence: CorefUDSentence, emptyCodes: Map<string, NodeCode>, file: string): Dep[] | null {
  const raw = empty.raw;
  if (raw === "_") return null;
  const deps: Dep[] = [];
  const words = sentence.forms.length;
  let at = 0;
  for (const item of raw.split("|")) {
    const column = empty.column + at;
    at += item.length + 1;
    const colon = item.indexOf(":");
    const parent = colon < 0 ? item : item.slice(0, colon);
    let code: NodeCode | undefined;
    if (colon >= 0 && NATURAL.test(parent)) {
      const ord = Number(parent);
      if (ord <= words) code = (sentence.slot + ord) * NODE_CODE_FACTOR;
    } else if (colon >= 0) {
      code = emptyCodes.get(parent);
    }
    if (code === undefined) {
      throw errorAt(
        file,
        empty.line,
        column,
        empty.lineText,
        `a DEPS item PARENT:DEPREL of empty node ${empty.id}, PARENT a word of its sentence (0 to ${words}, 0 the root) or one of its empty nodes`,
        colon < 0 ? `${quote(item)} without ':'` : quote(item),
      );
    }
    deps.push({ parent: code, deprel: item.slice(colon + 1) });
  }
  return deps;
}

/** How the head of a finished mention is found (see `headOf`). */
export type HeadRule = "one-node" | "brackets" | "one-node-last-part";

/**
 * The head of a finished mention, as udapi sets it.
 * @param nodes the mention's nodes, ascending
 * @param value the head value of the bracket that sets it, -1 when it has none
 * @param rule `one-node` for a one-node mention, `one-node-last-part` for a discontinuous
 *   mention whose last part is a one-node bracket, else `brackets`
 * @param at the bracket with the head value, for the error
 * @param file the file name, for the error
 * @throws FormatError when `value` is beyond the mention's nodes
 */
export function headOf(nodes: NodeCode[], value: number, rule: HeadRule, at: Place, file: string): NodeCode {
  // quirk: udapi ignores the head field of a one-word mention
  if (rule === "one-node" || value < 0) return nodes[0];
  // quirk: udapi sets the head of a one-node last part as `nodes[value - 1]` even for 0,
  // which Python reads as the last node; elsewhere 0 is "no head". (Without a head value
  // udapi crashes on `None - 1` there: our documented result is the first node, above.)
  if (value === 0) return rule === "one-node-last-part" ? nodes[nodes.length - 1] : nodes[0];
  if (value > nodes.length) {
    throw errorAt(file, at.line, at.column, at.lineText, `a head inside its mention (1..${nodes.length})`, `head ${value} of a mention of ${nodes.length} node(s)`);
  }
  return nodes[value - 1];
}

/** Index of the sentence holding node `code` (binary search over the sentences' slots, ascending). */
export function sentenceOf(sentences: readonly CorefUDSentence[], code: NodeCode): number {
  const position = Math.floor(code / NODE_CODE_FACTOR);
  let lo = 0;
  let hi = sentences.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (sentences[mid].slot <= position) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Document-level token index of the word with code `code` among the document's `sentences`. */
export function tokenOf(sentences: readonly CorefUDSentence[], code: NodeCode): number {
  // slot(s) = (words before sentence s) + s, and the word's position is slot + ord.
  return Math.floor(code / NODE_CODE_FACTOR) - sentenceOf(sentences, code) - 1;
}
