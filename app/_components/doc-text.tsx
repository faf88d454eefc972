/**
 * The text of a document with its key and response mentions, side by side: one row per
 * sentence (number | key | response), each mention a bracketed span coloured by its entity
 * with the entity number as a subscript, nested mentions nested. Mentions involved in an
 * error are outlined in red, with the error messages in their `title`.
 *
 * Built for long documents (10,000 tokens and more): a server component producing plain
 * HTML (no client code; each sentence cell is one escaped HTML string, so neither the RSC
 * payload nor hydration grows with the number of mentions), short class names from one
 * stylesheet instead of per-span utility classes, `content-visibility: auto` on the
 * sentence cells so the browser only lays out what is on screen, and mentions indexed by
 * start token once, so rendering is linear in tokens + mentions (times the nesting depth).
 */
import type { ReactNode } from "react";
import type { DocumentAnalysisView } from "../../lib/services/analysis";
import { mentionAnchor } from "./doc-links";
import { spanId } from "./doc-error-spans";

/** An entity: its mentions as inclusive `[start, end]` token spans. */
type Entity = DocumentAnalysisView["key"][number];

/** Number of entity colours; entity i gets colour i mod PALETTE_SIZE. */
export const PALETTE_SIZE = 12;

/** Background and border colour of each entity colour class `e0` … `e11`. */
const PALETTE: readonly (readonly [background: string, border: string])[] = [
  ["#e0f2fe", "#0ea5e9"], // sky
  ["#fef3c7", "#d97706"], // amber
  ["#d1fae5", "#059669"], // emerald
  ["#fce7f3", "#db2777"], // pink
  ["#ede9fe", "#7c3aed"], // violet
  ["#ecfccb", "#65a30d"], // lime
  ["#ffedd5", "#ea580c"], // orange
  ["#ccfbf1", "#0d9488"], // teal
  ["#fae8ff", "#c026d3"], // fuchsia
  ["#e0e7ff", "#4f46e5"], // indigo
  ["#cffafe", "#0891b2"], // cyan
  ["#fef9c3", "#ca8a04"], // yellow
];

/** The view's stylesheet (hoisted into the page head once, see {@link DocStyles}). */
const CSS = `
.doc-grid{display:grid;grid-template-columns:auto minmax(0,1fr) minmax(0,1fr);grid-auto-flow:column;font-size:.875rem}
.doc-col{display:contents}
.doc-h{position:sticky;top:0;z-index:1;background:#fafafa;border-bottom:1px solid #e4e4e7;padding:.375rem .5rem;font-size:.75rem;font-weight:500;text-transform:uppercase;letter-spacing:.025em;color:#71717a}
.doc-n,.doc-c{content-visibility:auto;contain-intrinsic-size:auto 2.5rem;border-top:1px solid #f4f4f5;padding:.375rem .5rem}
.doc-n{text-align:right;color:#a1a1aa;font-variant-numeric:tabular-nums;font-size:.75rem;line-height:2.4;scroll-margin-top:3rem}
.doc-c{line-height:2.4;overflow-wrap:anywhere}
.doc-r{border-left:1px solid #e4e4e7}
.nt{color:#a1a1aa;font-size:.75em}
.m{border:1px solid;border-radius:3px;padding:3px 1px;margin:0 1px;-webkit-box-decoration-break:clone;box-decoration-break:clone;scroll-margin-top:4rem}
.m .m{padding-block:1px}
.m .m .m{padding-block:0}
.m::before{content:"[";color:#52525b}
.m::after{content:"]";color:#52525b}
.m.ns::before,.m.ne::after{content:none}
.m>sub{font-size:.65em;color:#3f3f46;margin-left:1px}
.m.x{outline:2px solid #dc2626;outline-offset:1px}
.m:target{outline:3px solid #2563eb;outline-offset:2px}
${PALETTE.map(([bg, border], i) => `.e${i}{background:${bg};border-color:${border}}`).join("\n")}
`;

/** The view's stylesheet. React hoists it into the head and dedupes it by `href`, so every part of the view may render it. */
export function DocStyles() {
  return (
    <style href="corefboard-doc-text" precedence="default">
      {CSS}
    </style>
  );
}

/** One mention of one side, ready to render. */
interface MentionInfo {
  start: number;
  end: number;
  entity: number;
  /** the element id of its first piece, `k-<start>-<end>` or `r-<start>-<end>` */
  anchor: string;
  /** hover text, already escaped for an HTML attribute */
  title: string;
  /** involved in an error */
  error: boolean;
}

/** One side's mentions, indexed for rendering and for the error list's links. */
export interface PreparedSide {
  side: "key" | "response";
  /** start token → the mentions starting there, outermost (longest) first */
  startsAt: Map<number, MentionInfo[]>;
  /** span ids (see `spanId`) of the mentions shown, so links only point at spans that exist */
  shown: Set<number>;
  /** mentions left out because they lie outside the document's tokens */
  outside: number;
  /** spans given more than once on this side, shown once (where they first appear, as the analysis counts them) */
  repeated: number;
}

/**
 * Indexes one side's mentions by start token. Repeated spans are kept once (entity order,
 * then mention order, as the error analysis does); spans outside `[0, tokenCount)` are
 * counted and left out.
 *
 * @param side which side (for anchors and titles)
 * @param entities the side's entities (their indices are the entity numbers shown)
 * @param tokenCount the document's number of tokens
 * @param errorMessages span id → messages of the errors involving that span on this side
 */
export function prepareSide(side: "key" | "response", entities: readonly Entity[], tokenCount: number, errorMessages: ReadonlyMap<number, string[]>): PreparedSide {
  const startsAt = new Map<number, MentionInfo[]>();
  const shown = new Set<number>();
  let outside = 0;
  let repeated = 0;
  const label = side === "key" ? "Key" : "Response";
  entities.forEach((entity, e) => {
    for (const [start, end] of entity) {
      if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end < start || end >= tokenCount) {
        outside++;
        continue;
      }
      const id = spanId(start, end);
      if (shown.has(id)) {
        repeated++;
        continue;
      }
      shown.add(id);
      const messages = errorMessages.get(id);
      const where = start === end ? `token ${start}` : `tokens ${start}–${end}`;
      const info: MentionInfo = {
        start,
        end,
        entity: e,
        anchor: mentionAnchor(side, start, end),
        title: escapeHtml(`${label} entity ${e}, ${where}${messages ? `\n${messages.map((m) => `⚠ ${m}`).join("\n")}` : ""}`),
        error: messages !== undefined,
      };
      const list = startsAt.get(start);
      if (list) list.push(info);
      else startsAt.set(start, [info]);
    }
  });
  for (const list of startsAt.values()) list.sort((a, b) => b.end - a.end || a.entity - b.entity);
  return { side, startsAt, shown, outside, repeated };
}

/** An open mention piece while rendering: its mention and the HTML inside it so far. */
interface Frame {
  info: MentionInfo | null;
  /** the first piece carries the anchor id and the opening bracket */
  first: boolean;
  html: string;
}

/** Text or an attribute value escaped for HTML. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => (c === "&" ? "&amp;" : c === "<" ? "&lt;" : c === ">" ? "&gt;" : c === '"' ? "&quot;" : "&#39;"));
}

/**
 * Renders one side sentence by sentence, as HTML strings (one per sentence cell): far less
 * work, page weight and hydration than one React element per mention and token. Every piece
 * of text from the files (tokens, messages) goes through {@link escapeHtml}.
 *
 * A mention is drawn as one `<span>` when it nests properly; a mention that crosses the end
 * of another mention or of its sentence is drawn in pieces (only the first has the id and
 * "[", only the last has "]" and the number).
 */
class SideRenderer {
  private carry: MentionInfo[] = [];

  constructor(
    private readonly prepared: PreparedSide,
    private readonly tokens: readonly string[],
  ) {}

  /** The HTML of the sentence of tokens `[from, to)`. */
  sentence(from: number, to: number): string {
    const stack: Frame[] = [{ info: null, first: true, html: "" }];
    for (const info of this.carry) stack.push({ info, first: false, html: "" });
    this.carry = [];
    for (let t = from; t < to; t++) {
      if (t > from) stack[stack.length - 1].html += " ";
      const starting = this.prepared.startsAt.get(t);
      if (starting) for (const info of starting) stack.push({ info, first: true, html: "" });
      const text = this.tokens[t];
      stack[stack.length - 1].html += text ? escapeHtml(text) : `<span class="nt" title="token ${t} (no text)">#${t}</span>`;
      this.closeEndingAt(stack, t);
    }
    // Mentions running past the sentence: close this piece, reopen in the next sentence.
    while (stack.length > 1) {
      const frame = stack.pop()!;
      close(stack, frame, false);
      this.carry.unshift(frame.info!);
    }
    return stack[0].html;
  }

  /** Closes the mentions ending at token t, with the pieces of any mention crossing them. */
  private closeEndingAt(stack: Frame[], t: number): void {
    let lowest = -1;
    for (let i = 1; i < stack.length; i++) {
      if (stack[i].info!.end <= t) {
        lowest = i;
        break;
      }
    }
    if (lowest < 0) return;
    const reopen: MentionInfo[] = [];
    while (stack.length > lowest) {
      const frame = stack.pop()!;
      const ends = frame.info!.end <= t;
      close(stack, frame, ends);
      if (!ends) reopen.unshift(frame.info!);
    }
    for (const info of reopen) stack.push({ info, first: false, html: "" });
  }
}

/** Turns a popped frame into its `<span>` and adds it to the frame now on top. */
function close(stack: Frame[], frame: Frame, last: boolean): void {
  const info = frame.info!;
  let className = `m e${info.entity % PALETTE_SIZE}`;
  if (!frame.first) className += " ns";
  if (!last) className += " ne";
  if (info.error) className += " x";
  const id = frame.first ? ` id="${info.anchor}"` : "";
  stack[stack.length - 1].html += `<span class="${className}"${id} title="${info.title}">${frame.html}${last ? `<sub>${info.entity}</sub>` : ""}</span>`;
}

/** The sentences of a document as `[from, to)` token ranges. */
function sentenceRanges(tokenCount: number, sentenceStarts: readonly number[]): [number, number][] {
  const starts = sentenceStarts.filter((s, i) => Number.isInteger(s) && s >= 0 && s < tokenCount && (i === 0 || s > sentenceStarts[i - 1]));
  if (tokenCount > 0 && starts[0] !== 0) starts.unshift(0);
  return starts.map((s, i) => [s, i + 1 < starts.length ? starts[i + 1] : tokenCount]);
}

/**
 * The side-by-side text.
 *
 * @param tokens the document's tokens (empty strings where the format has no text: shown as `#<index>`)
 * @param sentenceStarts the token index of each sentence's first token
 * @param keySide `prepareSide("key", …)`
 * @param responseSide `prepareSide("response", …)`
 */
export function DocText({
  tokens,
  sentenceStarts,
  keySide,
  responseSide,
}: {
  tokens: readonly string[];
  sentenceStarts: readonly number[];
  keySide: PreparedSide;
  responseSide: PreparedSide;
}) {
  const ranges = sentenceRanges(tokens.length, sentenceStarts);
  if (ranges.length === 0) return <p className="text-sm text-zinc-600" data-testid="doc-text">This document has no tokens.</p>;
  const key = new SideRenderer(keySide, tokens);
  const response = new SideRenderer(responseSide, tokens);
  const keyCells: ReactNode[] = [];
  const responseCells: ReactNode[] = [];
  const numbers: ReactNode[] = [];
  ranges.forEach(([from, to], i) => {
    const n = i + 1;
    numbers.push(
      <div key={n} id={`s-${n}`} className="doc-n" title={`sentence ${n}, tokens ${from}–${to - 1}`}>
        {n}
      </div>,
    );
    keyCells.push(<div key={n} className="doc-c" dangerouslySetInnerHTML={{ __html: key.sentence(from, to) }} />);
    responseCells.push(<div key={n} className="doc-c doc-r" dangerouslySetInnerHTML={{ __html: response.sentence(from, to) }} />);
  });
  return (
    <>
      <DocStyles />
      <div className="doc-grid rounded-md border border-zinc-200" style={{ gridTemplateRows: `repeat(${ranges.length + 1}, auto)` }} data-testid="doc-text">
        <div className="doc-h text-right">
          <abbr title="sentence number" className="no-underline">
            #
          </abbr>
        </div>
        {numbers}
        <div className="doc-col" data-testid="doc-key">
          <div className="doc-h">Key (gold)</div>
          {keyCells}
        </div>
        <div className="doc-col" data-testid="doc-response">
          <div className="doc-h doc-r">Response (run)</div>
          {responseCells}
        </div>
      </div>
    </>
  );
}

/** The legend of the text's colours, brackets and error marks. */
export function DocLegend({ keySide, responseSide }: { keySide: PreparedSide; responseSide: PreparedSide }) {
  const repeated = keySide.repeated + responseSide.repeated;
  const outside = keySide.outside + responseSide.outside;
  return (
    <div className="space-y-2 text-sm text-zinc-700" data-testid="doc-legend">
      <DocStyles />
      <ul className="space-y-2">
        <li className="leading-loose">
          <span className="m e0">
            the old man<sub>0</sub>
          </span>{" "}
          <span className="m e1">
            <span className="m e2">
              his<sub>2</sub>
            </span>{" "}
            house<sub>1</sub>
          </span>{" "}
          — each bracketed span is a mention; its colour and subscript give its entity. Nested mentions are nested brackets. Numbers count
          entities within each column separately (key entity 3 and response entity 3 are unrelated) and match the numbers in the error messages;
          the {PALETTE_SIZE} colours repeat, the numbers do not.
        </li>
        <li className="leading-loose">
          <span className="m e3 x" title="An example of a mention involved in an error">
            it<sub>3</sub>
          </span>{" "}
          — red outline: the mention is involved in at least one error below; hover over it for the messages.
        </li>
        <li className="leading-loose">
          <span className="m e4" style={{ outline: "3px solid #2563eb", outlineOffset: 2 }}>
            there<sub>4</sub>
          </span>{" "}
          — blue outline: the mention an error link led to.
        </li>
        <li>
          A mention that crosses a sentence end or another mention&apos;s end is drawn in pieces: the first piece has the opening bracket, the last
          the closing bracket and the number. Tokens without text are shown as <span className="nt">#index</span>. Hover over a mention for its
          token span, over a sentence number for its tokens.
        </li>
        {repeated > 0 && (
          <li>
            {repeated} repeated {repeated === 1 ? "span is" : "spans are"} shown once, in the entity where {repeated === 1 ? "it" : "they"} first
            appear{repeated === 1 ? "s" : ""}, as the error analysis counts them.
          </li>
        )}
        {outside > 0 && (
          <li className="text-red-800">
            {outside} {outside === 1 ? "mention lies" : "mentions lie"} outside the document&apos;s tokens and {outside === 1 ? "is" : "are"} not
            shown.
          </li>
        )}
      </ul>
    </div>
  );
}
