/**
 * The `Entity=` bracket language of CorefUD MISC (see the header of `../conllu.ts`): the
 * `# global.Entity` declaration that says where `eid` and `head` are among a bracket's
 * `-`-separated attributes, and the brackets of one `Entity=` value read into items (their
 * pairing into mentions is `DocumentBuilder`'s, in `document.ts`), with their syntax errors.
 */
import { quote } from "../../types.js";
import { errorAt, NATURAL } from "./lines.js";

/** One bracket: `(content` or `(content)` (groups 1, 2), or `content)` (group 3). */
const BRACKET = /\(([^()]*)(\)?)|([^()]*)\)/y;
/** An entity id, optionally with the part marker of a discontinuous mention. */
const EID = /^([^\s()[\]-]+)(?:\[([1-9][0-9]*)\/([1-9][0-9]*)\])?$/;

/** Where the bracket attributes of a `global.Entity` declaration are. */
export interface EntityFields {
  /** Position of `eid` (or `GRP`) among the `-`-separated attributes. */
  eid: number;
  /** True when that attribute is `GRP` (document-level ids, which udapi prefixes per document). */
  grp: boolean;
  /** Position of `head`, or -1 when the declaration has none. */
  head: number;
}

/**
 * The positions of `eid` (or `GRP`) and `head` among the `-`-separated fields of a `global.Entity` value.
 * @throws FormatError at the value when it has no `eid` (nor `GRP`) field
 */
export function entityFields(value: string, file: string, lineNumber: number, line: string): EntityFields {
  const fields = value.split("-");
  const at = fields.findIndex((f) => f === "eid" || f === "GRP");
  if (at < 0) {
    throw errorAt(
      file,
      lineNumber,
      line.trimEnd().length - value.length + 1,
      line,
      "a global.Entity declaration with an 'eid' (or 'GRP') attribute, e.g. 'eid-etype-head-other'",
      quote(value),
    );
  }
  // udapi assigns the attributes in turn, so a repeated `head` takes the last one.
  return { eid: at, grp: fields[at] === "GRP", head: fields.lastIndexOf("head") };
}

/** One bracket of an `Entity=` value. */
export interface Item {
  kind: "single" | "open" | "close";
  eid: string;
  part: { index: number; parts: number } | null;
  /** The head value of an opening or one-node bracket, -1 when it has none. */
  head: number;
  column: number;
}

/** The first bracket of a line that would begin a mention over the document's mention limit. */
export interface OverLimit {
  /** Its 1-based column. */
  column: number;
  /** The number of mentions with it (see `BracketReader.read`). */
  total: number;
}

/** Reads the brackets of `Entity=` values, one value at a time, into `items`. */
export class BracketReader {
  /** The items of the last value read, in written order (scratch space: `read` refills it). */
  readonly items: Item[] = [];

  /** @param file the file name, for messages */
  constructor(private readonly file: string) {}

  /**
   * Reads the brackets of one `Entity=` value into `items`. The items after the first one over
   * the mention limit are still checked for syntax (those errors come first) but not kept.
   *
   * @param value the value after `Entity=`
   * @param offset its 0-based column in `line`
   * @param fields the `global.Entity` declaration in force
   * @param counted the mentions of the document counted before this value (finished and in flight)
   * @param max the mention limit of a document
   * @returns the first item (a first part or a non-discontinuous opening) that makes `counted`
   *   plus the items begun so far exceed `max`, or null when none does
   * @throws FormatError at a bracket that is not `(eid-...`, `(eid-...)` or `eid)`, whose
   *   entity id is malformed (or `[i/n]` with i > n), or whose head value is not a whole number
   */
  read(value: string, offset: number, fields: EntityFields, line: string, lineNumber: number, counted: number, max: number): OverLimit | null {
    const items = this.items;
    items.length = 0;
    // Items that begin a mention on this line, and the first one over the mention limit.
    let begun = 0;
    let overLimit: OverLimit | null = null;
    let pos = 0;
    while (pos < value.length) {
      BRACKET.lastIndex = pos;
      const m = BRACKET.exec(value);
      const column = offset + pos + 1;
      if (!m) {
        throw errorAt(this.file, lineNumber, column, line, "a bracket '(eid-...', '(eid-...)' or 'eid)' in Entity=", quote(value.slice(pos)));
      }
      const opening = m[3] === undefined;
      const raw = opening ? (attribute(m[1], fields.eid) ?? "") : m[3];
      const eid = EID.exec(raw);
      if (!eid || (eid[2] !== undefined && Number(eid[2]) > Number(eid[3]))) {
        throw errorAt(
          this.file,
          lineNumber,
          column,
          line,
          opening
            ? `an entity id as attribute ${fields.eid + 1} of '(${m[1]}' (letters, digits, optionally '[i/n]' with i <= n)`
            : "an entity id before ')' (letters, digits, optionally '[i/n]' with i <= n)",
          quote(m[0]),
        );
      }
      const head = opening ? this.headValue(m[1], fields, column, line, lineNumber) : -1;
      // A mention in one part ('[1/1]') is an ordinary mention.
      const part = eid[2] === undefined || eid[3] === "1" ? null : { index: Number(eid[2]), parts: Number(eid[3]) };
      pos = BRACKET.lastIndex;
      if (overLimit) continue;
      if (opening && (part === null || part.index === 1)) {
        const total = counted + ++begun;
        if (total > max) {
          overLimit = { column, total };
          continue;
        }
      }
      items.push({ kind: !opening ? "close" : m[2] === ")" ? "single" : "open", eid: eid[1], part, head, column });
    }
    return overLimit;
  }

  /**
   * The head value of the opening bracket `(content` at `column`, -1 when the declaration has
   * no `head` or the bracket has too few attributes.
   * @throws FormatError when the value is not a whole number
   */
  private headValue(content: string, fields: EntityFields, column: number, line: string, lineNumber: number): number {
    const written = fields.head >= 0 ? attribute(content, fields.head) : undefined;
    if (written === undefined) return -1;
    if (!NATURAL.test(written)) {
      throw errorAt(
        this.file,
        lineNumber,
        column,
        line,
        `a head (attribute ${fields.head + 1} of '(${content}') that is a whole number: 1 for the mention's first node, 0 for none`,
        quote(written),
      );
    }
    return Number(written);
  }
}

/** Attribute `k` (0-based) of the `-`-separated attributes of a bracket, or undefined when it has fewer (`split("-")[k]` without the array). */
function attribute(content: string, k: number): string | undefined {
  let from = 0;
  for (let i = 0; i < k; i++) {
    const dash = content.indexOf("-", from);
    if (dash < 0) return undefined;
    from = dash + 1;
  }
  const end = content.indexOf("-", from);
  return end < 0 ? content.slice(from) : content.slice(from, end);
}
