/**
 * The text of a document with its key and response mentions, side by side: one row per
 * sentence (number | key | response), each mention a bracketed span coloured by its entity
 * with the entity's number as a subscript, nested mentions nested. Key and response share
 * one numbering (`lib/view-models/document-view.ts`): a key entity and the response entity
 * it is paired with have the same number and colour, so where the run is right both columns
 * look the same. Only the differences are marked: a red outline and a small visible label
 * ("missing", "extra", "boundary", "wrong entity") that links to the error in the list;
 * entities with no partner on the other side have a dashed border.
 *
 * Built for long documents (10,000 tokens and more): a server component producing plain
 * HTML (no client code; each sentence cell is one escaped HTML string, so neither the RSC
 * payload nor hydration grows with the number of mentions; a run of tokens outside any
 * mention is one text node), short class names from one stylesheet instead of per-span
 * utility classes, `content-visibility: auto` on the sentence cells so the browser only lays
 * out what is on screen, and mentions indexed by start token once, so rendering is linear in
 * tokens + mentions (times the nesting depth).
 */
import type { ReactNode } from "react";
import {
  DIFFERENCE_LABELS,
  DOC_DIFFERENCE_COLOURS,
  DOC_PALETTE,
  DOC_TEXT_COLOURS,
  type DocumentView,
  type ViewMention,
  type ViewSide,
} from "@/lib/view-models/document-view";

/** The view's stylesheet (hoisted into the page head once, see {@link DocStyles}). */
const CSS = `
.doc-grid{display:grid;grid-template-columns:auto minmax(0,1fr) minmax(0,1fr);grid-auto-flow:column;font-size:.875rem}
.doc-col{display:contents}
.doc-h{position:sticky;top:0;z-index:1;background:var(--color-zinc-50);border-bottom:1px solid var(--color-zinc-200);padding:.375rem .5rem;font-size:.75rem;font-weight:500;text-transform:uppercase;letter-spacing:.025em;color:var(--color-zinc-700)}
.doc-n,.doc-c{content-visibility:auto;contain-intrinsic-size:auto 2.5rem;border-top:1px solid var(--color-zinc-100);padding:.375rem .5rem}
.doc-n{text-align:right;color:var(--color-zinc-600);font-variant-numeric:tabular-nums;font-size:.75rem;line-height:2.4;scroll-margin-top:3rem}
.doc-c{line-height:2.4;overflow-wrap:anywhere;color:var(--color-zinc-900)}
.doc-r{border-left:1px solid var(--color-zinc-200)}
.nt{color:var(--color-zinc-600);font-size:.75em}
.m{border:1px solid;border-radius:3px;padding:3px 1px;margin:0 1px;color:${DOC_TEXT_COLOURS.text};-webkit-box-decoration-break:clone;box-decoration-break:clone;scroll-margin-top:4rem}
.m .m{padding-block:1px}
.m .m .m{padding-block:0}
.m::before{content:"[";color:${DOC_TEXT_COLOURS.bracket}}
.m::after{content:"]";color:${DOC_TEXT_COLOURS.bracket}}
.m.ns::before,.m.ne::after{content:none}
.m>sub{font-size:.7em;font-weight:600;color:${DOC_TEXT_COLOURS.number};margin-left:1px}
.m.u{border-style:dashed}
.m.x{outline:2px solid var(--color-red-700);outline-offset:1px}
.m:target{outline:3px solid var(--color-sky-700);outline-offset:2px}
.dl{display:inline-block;max-width:100%;margin-left:2px;padding:0 3px;border:1px solid ${DOC_DIFFERENCE_COLOURS.border};border-radius:3px;background:${DOC_DIFFERENCE_COLOURS.bg};color:${DOC_DIFFERENCE_COLOURS.text};font-size:.7rem;line-height:1.35;text-decoration:none;vertical-align:1px}
a.dl:hover{text-decoration:underline}
.doc-c a:focus-visible,.doc-errs a:focus-visible,.doc-errs summary:focus-visible{outline:3px solid var(--color-sky-700);outline-offset:2px;border-radius:2px}
.doc-errs li:target{background:var(--color-sky-50);box-shadow:inset 3px 0 0 var(--color-sky-700)}
.doc-errs li{scroll-margin-top:4rem}
${DOC_PALETTE.map(({ bg, border }, i) => `.e${i}{background:${bg};border-color:${border}}`).join("\n")}
`;

/** The view's stylesheet. React hoists it into the head and dedupes it by `href`, so every part of the view may render it. */
export function DocStyles() {
  return (
    <style href="corefboard-doc-text" precedence="default">
      {CSS}
    </style>
  );
}

/** Text or an attribute value escaped for HTML. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => (c === "&" ? "&amp;" : c === "<" ? "&lt;" : c === ">" ? "&gt;" : c === '"' ? "&quot;" : "&#39;"));
}

/** An open mention piece while rendering: its mention and the HTML inside it so far. */
interface Frame {
  mention: ViewMention | null;
  /** the first piece carries the anchor id and the opening bracket */
  first: boolean;
  html: string;
}

/**
 * Renders one side sentence by sentence, as HTML strings (one per sentence cell): far less
 * work, page weight and hydration than one React element per mention and token. Every piece
 * of text from the files (tokens, messages) goes through {@link escapeHtml}.
 *
 * A mention is drawn as one `<span>` when it nests properly; a mention that crosses the end
 * of another mention or of its sentence is drawn in pieces (only the first has the id and
 * "[", only the last has "]", the number and the difference label).
 */
class SideRenderer {
  private carry: ViewMention[] = [];

  constructor(
    private readonly side: ViewSide,
    private readonly tokens: readonly string[],
    private readonly view: DocumentView,
  ) {}

  /** The HTML of the sentence of tokens `[from, to)`. */
  sentence(from: number, to: number): string {
    const stack: Frame[] = [{ mention: null, first: true, html: "" }];
    for (const mention of this.carry) stack.push({ mention, first: false, html: "" });
    this.carry = [];
    for (let t = from; t < to; t++) {
      if (t > from) stack[stack.length - 1].html += " ";
      const starting = this.side.startsAt.get(t);
      if (starting) for (const mention of starting) stack.push({ mention, first: true, html: "" });
      const text = this.tokens[t];
      stack[stack.length - 1].html += text ? escapeHtml(text) : `<span class="nt" title="token ${t} (no text)">#${t}</span>`;
      this.closeEndingAt(stack, t);
    }
    // Mentions running past the sentence: close this piece, reopen in the next sentence.
    while (stack.length > 1) {
      const frame = stack.pop()!;
      this.close(stack, frame, false);
      this.carry.unshift(frame.mention!);
    }
    return stack[0].html;
  }

  /** Closes the mentions ending at token t, with the pieces of any mention crossing them. */
  private closeEndingAt(stack: Frame[], t: number): void {
    let lowest = -1;
    for (let i = 1; i < stack.length; i++) {
      if (stack[i].mention!.end <= t) {
        lowest = i;
        break;
      }
    }
    if (lowest < 0) return;
    const reopen: ViewMention[] = [];
    while (stack.length > lowest) {
      const frame = stack.pop()!;
      const ends = frame.mention!.end <= t;
      this.close(stack, frame, ends);
      if (!ends) reopen.unshift(frame.mention!);
    }
    for (const mention of reopen) stack.push({ mention, first: false, html: "" });
  }

  /** Turns a popped frame into its `<span>` and adds it to the frame now on top. */
  private close(stack: Frame[], frame: Frame, last: boolean): void {
    const m = frame.mention!;
    let className = `m e${m.colour}`;
    if (!frame.first) className += " ns";
    if (!last) className += " ne";
    if (!m.matched) className += " u";
    if (m.differences.length > 0) className += " x";
    const id = frame.first ? ` id="${m.anchor}"` : "";
    const end = last ? `<sub>${m.number}</sub>${this.label(m)}` : "";
    stack[stack.length - 1].html += `<span class="${className}"${id}>${frame.html}${end}</span>`;
  }

  /** The visible difference label of a marked mention, linked to its first error (its messages in the title), or "". */
  private label(m: ViewMention): string {
    if (m.differences.length === 0) return "";
    const text = m.differences.map((d) => DIFFERENCE_LABELS[d]).join(", ");
    const where = `${this.side.side === "key" ? "Key" : "Response"} mention [${m.start}, ${m.end}] of entity ${m.number}`;
    if (m.errors.length === 0) return `<span class="dl">${text}</span>`;
    const title = escapeHtml(`${where}: ${m.errors.map((i) => this.view.errors[i].message).join(" ")}`);
    return `<a class="dl" href="#${this.view.errors[m.errors[0]].anchor}" title="${title}">${text}</a>`;
  }
}

/** The text's cells as HTML strings: one per sentence and side (`view.sentences` order). */
export interface RenderedText {
  key: string[];
  response: string[];
}

/**
 * Renders both sides of the text to HTML strings, sentence by sentence. The page calls it
 * (and times it) before handing the result to {@link DocText}.
 *
 * @param view the document's view model
 * @param tokens the document's tokens (empty strings where the format has no text: shown as `#<index>`)
 * @returns one escaped HTML string per sentence and side
 */
export function renderDocText(view: DocumentView, tokens: readonly string[]): RenderedText {
  const key = new SideRenderer(view.key, tokens, view);
  const response = new SideRenderer(view.response, tokens, view);
  return {
    key: view.sentences.map(([from, to]) => key.sentence(from, to)),
    response: view.sentences.map(([from, to]) => response.sentence(from, to)),
  };
}

/**
 * The side-by-side text.
 *
 * @param sentences the sentences as `[from, to)` token ranges (`view.sentences`)
 * @param text `renderDocText(view, tokens)`
 */
export function DocText({ sentences, text }: { sentences: readonly [number, number][]; text: RenderedText }) {
  if (sentences.length === 0) return <p className="text-sm text-zinc-600" data-testid="doc-text">This document has no tokens.</p>;
  const keyCells: ReactNode[] = [];
  const responseCells: ReactNode[] = [];
  const numbers: ReactNode[] = [];
  sentences.forEach(([from, to], i) => {
    const n = i + 1;
    numbers.push(
      <div key={n} id={`s-${n}`} className="doc-n" title={`sentence ${n}, tokens ${from}–${to - 1}`}>
        {n}
      </div>,
    );
    keyCells.push(<div key={n} className="doc-c" dangerouslySetInnerHTML={{ __html: text.key[i] }} />);
    responseCells.push(<div key={n} className="doc-c doc-r" dangerouslySetInnerHTML={{ __html: text.response[i] }} />);
  });
  return (
    <>
      <DocStyles />
      <div className="doc-grid rounded-md border border-zinc-200" style={{ gridTemplateRows: `repeat(${sentences.length + 1}, auto)` }} data-testid="doc-text">
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

/** The legend of the text's numbers, colours, brackets and difference marks, with the entity totals. */
export function DocLegend({ view }: { view: DocumentView }) {
  const repeated = view.key.repeated + view.response.repeated;
  const outside = view.key.outside + view.response.outside;
  const { matched, keyOnly, responseOnly } = view.entities;
  const differences = view.key.differences + view.response.differences;
  return (
    <div className="space-y-2 text-sm text-zinc-700" data-testid="doc-legend">
      <DocStyles />
      <p data-testid="doc-entity-summary">
        {matched.toLocaleString("en")} {matched === 1 ? "entity is" : "entities are"} in both columns
        {matched > 0 && ` (number${matched === 1 ? " 1" : `s 1–${matched.toLocaleString("en")}`})`}, {keyOnly.toLocaleString("en")} only in the key
        and {responseOnly.toLocaleString("en")} only in the response;{" "}
        {differences === 0 ? "no mention differs." : `${differences.toLocaleString("en")} ${differences === 1 ? "mention differs" : "mentions differ"} (marked).`}
      </p>
      <ul className="space-y-2">
        <li className="leading-loose">
          <span className="m e0">
            the old man<sub>1</sub>
          </span>{" "}
          <span className="m e1">
            <span className="m e2">
              his<sub>3</sub>
            </span>{" "}
            house<sub>2</sub>
          </span>{" "}
          — each bracketed span is a mention; its number (and colour) give its entity. Both columns share the numbers: key entity 3 and response
          entity 3 are the same entity, found by the run. Colours repeat after {DOC_PALETTE.length} entities; the numbers do not.
        </li>
        <li className="leading-loose">
          <span className="m e3 x">
            it<sub>4</sub>
            <span className="dl">missing</span>
          </span>{" "}
          — red outline and label: the mention differs between the columns. <em>missing</em>: the run lacks it; <em>extra</em>: the key lacks it;{" "}
          <em>boundary</em>: the run has it with other boundaries; <em>wrong entity</em>: the other column puts it in another entity (another
          number). The label links to the error in the list above.
        </li>
        <li className="leading-loose">
          <span className="m e4 u x">
            there<sub>{matched + 1}</sub>
            <span className="dl">extra</span>
          </span>{" "}
          — dashed border: an entity with no partner in the other column (numbered after the shared ones).
        </li>
        <li>
          A mention that crosses a sentence end or another mention&apos;s end is drawn in pieces: the first piece has the opening bracket, the last
          the closing bracket, the number and the label. Tokens without text are shown as <span className="nt">#index</span>. Token spans are
          0-based and inclusive.
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
