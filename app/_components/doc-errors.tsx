/**
 * The errors of one document's error view: counts per Kummerfeld & Klein category, and the
 * errors themselves grouped by category, each with its message (in the page's shared entity
 * numbers, always visible) and links to the mentions it involves in the text
 * (`#k-<start>-<end>` on the key side, `#r-<start>-<end>` on the response side). Each error
 * is a list item `#err-<index>`, the target of the difference labels in the text. Server-safe,
 * plain HTML; every link is reachable with Tab and shows a focus ring.
 */
import { Fragment } from "react";
import type { ErrorCounts, ErrorKind } from "@/lib/runs";
import { spanId, type Span, type ViewError } from "@/lib/view-models/document-view";
import { mentionAnchor } from "./doc-links";
import { DocStyles } from "./doc-text";
import { ERROR_KIND_LABELS, ERROR_KIND_ORDER } from "./error-kinds";

/** What each category means, in the terms of this page. */
export const ERROR_KIND_DESCRIPTIONS: Record<ErrorKind, string> = {
  span: "A response mention overlaps a key mention that it does not match exactly: the boundaries differ.",
  "missing-mention": "A key mention the response lacks, in a key entity the response otherwise found.",
  "extra-mention": "A response mention that is not a key mention, in a response entity that also holds key mentions.",
  "missing-entity": "A key entity none of whose mentions the response has.",
  "extra-entity": "A response entity none of whose mentions are in the key.",
  divided: "A key entity spread over several response entities: one error per piece that would have to be merged in.",
  conflated: "A response entity holding mentions of several key entities: one error per piece that would have to be split off.",
};

/** Groups with more errors than this start folded, so the text below stays in reach. */
const OPEN_GROUP_LIMIT = 50;
/** Spans linked per side of one error; the rest are counted. */
const SPAN_LINK_LIMIT = 20;
/** Tokens quoted per span. */
const SNIPPET_TOKENS = 8;

/**
 * The counts per category, each linking to its group in the error list.
 *
 * @param counts the document's counts
 */
export function DocErrorCounts({ counts }: { counts: ErrorCounts }) {
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4 lg:grid-cols-7" data-testid="doc-error-counts">
      {ERROR_KIND_ORDER.map((kind) => (
        <div key={kind} className="rounded-md border border-zinc-200 p-2" data-testid={`doc-error-count-${kind}`} title={ERROR_KIND_DESCRIPTIONS[kind]}>
          <dt className="text-xs text-zinc-600">{ERROR_KIND_LABELS[kind]}</dt>
          <dd className={`text-lg tabular-nums ${counts[kind] === 0 ? "text-zinc-600" : "font-semibold"}`}>
            {counts[kind] > 0 ? (
              <a href={`#errors-${kind}`} className="underline decoration-zinc-400 hover:decoration-zinc-900">
                {counts[kind].toLocaleString("en")}
              </a>
            ) : (
              0
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * The error list, grouped by category in display order, each error with its message shown
 * (not only on hover) and links to its spans in the text.
 *
 * @param errors the document's errors (`DocumentView.errors`): messages in the shared entity numbers, spans per side
 * @param tokens the document's tokens, to quote each span
 * @param keyShown span ids of the key mentions shown in the text (links only to those)
 * @param responseShown the same for the response
 */
export function DocErrorList({
  errors,
  tokens,
  keyShown,
  responseShown,
}: {
  errors: readonly ViewError[];
  tokens: readonly string[];
  keyShown: ReadonlySet<number>;
  responseShown: ReadonlySet<number>;
}) {
  if (errors.length === 0) {
    return (
      <p className="text-sm text-zinc-600" data-testid="doc-errors">
        No errors: on this document the response&apos;s mentions and entities are the key&apos;s.
      </p>
    );
  }
  const byKind = new Map<ErrorKind, number[]>();
  errors.forEach((e, i) => {
    const list = byKind.get(e.kind);
    if (list) list.push(i);
    else byKind.set(e.kind, [i]);
  });
  return (
    <div className="doc-errs space-y-3" data-testid="doc-errors">
      <DocStyles />
      {ERROR_KIND_ORDER.map((kind) => {
        const indices = byKind.get(kind);
        if (!indices) return null;
        return (
          <details key={kind} id={`errors-${kind}`} open={indices.length <= OPEN_GROUP_LIMIT} className="rounded-md border border-zinc-200" data-testid={`doc-errors-${kind}`}>
            <summary className="cursor-pointer px-3 py-2 text-sm">
              <span className="font-medium text-zinc-900">{ERROR_KIND_LABELS[kind]}</span>{" "}
              <span className="tabular-nums text-zinc-600">({indices.length.toLocaleString("en")})</span>
              <span className="block text-xs text-zinc-600">{ERROR_KIND_DESCRIPTIONS[kind]}</span>
            </summary>
            <ol className="divide-y divide-zinc-100 border-t border-zinc-200 text-sm [&_a]:font-mono [&_a]:underline [&_li]:px-3 [&_li]:py-2 [&_q]:mr-3 [&_q]:text-zinc-800 [&_li>p+p]:mt-1 [&_li>p+p]:text-xs [&_li>p+p]:text-zinc-700">
              {indices.map((i) => (
                <li key={i} id={errors[i].anchor} data-testid="doc-error">
                  <p>{errors[i].message}</p>
                  <SpanLinks label="Key" side="key" spans={errors[i].key} shown={keyShown} tokens={tokens} />
                  <SpanLinks label="Response" side="response" spans={errors[i].response} shown={responseShown} tokens={tokens} />
                </li>
              ))}
            </ol>
          </details>
        );
      })}
    </div>
  );
}

/** One side's spans of an error, each linked to its mention in the text and quoted. */
function SpanLinks({
  label,
  side,
  spans,
  shown,
  tokens,
}: {
  label: string;
  side: "key" | "response";
  spans: readonly Span[];
  shown: ReadonlySet<number>;
  tokens: readonly string[];
}) {
  if (spans.length === 0) return null;
  const listed = spans.slice(0, SPAN_LINK_LIMIT);
  return (
    <p>
      <span className="font-medium text-zinc-800">{label}:</span>
      {listed.map((s, j) => {
        const text = `[${s[0]}, ${s[1]}]`;
        const quote = snippet(tokens, s);
        return (
          <Fragment key={j}>
            {" "}
            {shown.has(spanId(s[0], s[1])) ? <a href={`#${mentionAnchor(side, s[0], s[1])}`}>{text}</a> : <span title="not shown in the text">{text}</span>}
            {quote ? (
              <>
                {" "}
                <q>{quote}</q>
              </>
            ) : (
              " "
            )}
          </Fragment>
        );
      })}
      {spans.length > listed.length && <> and {(spans.length - listed.length).toLocaleString("en")} more</>}
    </p>
  );
}

/** The first few tokens of a span ("…" when cut), or "" when they have no text. */
function snippet(tokens: readonly string[], [start, end]: Span): string {
  const last = Math.min(end, start + SNIPPET_TOKENS - 1, tokens.length - 1);
  const words: string[] = [];
  for (let t = Math.max(start, 0); t <= last; t++) if (tokens[t]) words.push(tokens[t]);
  if (words.length === 0) return "";
  return words.join(" ") + (end > last ? " …" : "");
}
