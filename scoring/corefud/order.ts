/**
 * The orders udapi (`udapi/core/coref.py`, 0.5.2) puts CorefUD mentions and entities in, as
 * far as the reader and the scorer both need them: a mention's place is its first node, then
 * more nodes first, then its last node (`CorefMention.__lt__`); equal places are ordered by
 * the entities' eid strings in Python's string order (`compareCodePoints`).
 */
import type { NodeCode } from "../types.js";

/**
 * udapi's mention order without its eid tie-break (`CorefMention.__lt__`), on the mentions'
 * node lists (ascending, not empty): first node, then more nodes first, then last node.
 *
 * @returns negative when `a` comes first, positive when `b` does, 0 for the same place
 */
export function compareMentionNodes(a: readonly NodeCode[], b: readonly NodeCode[]): number {
  return a[0] - b[0] || b.length - a.length || a[a.length - 1] - b[b.length - 1];
}

/**
 * The node list that comes first in udapi's mention order (an entity's first mention once
 * udapi has sorted it; the earliest of equals).
 *
 * @param mentions the node lists of at least one mention
 */
export function firstMentionNodes(mentions: readonly (readonly NodeCode[])[]): readonly NodeCode[] {
  let first = mentions[0];
  for (const nodes of mentions) if (compareMentionNodes(nodes, first) < 0) first = nodes;
  return first;
}

/**
 * Python's order of two strings (`a < b` on `str`): by Unicode code point, where JavaScript's
 * `<` compares UTF-16 code units (the two differ when an astral character meets one from
 * U+E000 to U+FFFF).
 *
 * @returns a negative number when `a` sorts first, a positive one when `b` does, 0 when equal
 */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // Among surrogates, and among the other code units, code units order as code points do;
    // a surrogate (the start of a character above U+FFFF) comes after any other unit.
    const xs = x >= 0xd800 && x <= 0xdfff;
    if (xs === (y >= 0xd800 && y <= 0xdfff)) return x - y;
    return xs ? 1 : -1;
  }
  return a.length - b.length;
}
