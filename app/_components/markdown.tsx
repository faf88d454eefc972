/**
 * The site's Markdown renderer: react-markdown with remark-gfm (GitHub-flavoured Markdown:
 * tables, strikethrough, task lists, bare URLs), for what organizers write (task descriptions,
 * rules, result notes: `task-markdown.tsx`) and the metric explanations (`app/metrics/`).
 *
 * It builds React elements, so text is always escaped. Raw HTML in the source is shown as
 * text, never interpreted (a block of it as a paragraph; no rehype-raw). Headings start at `<h3>`
 * (a page has its own `<h1>` title and `<h2>` sections). Single line breaks inside a paragraph
 * are kept as `<br>`. Links go to http(s) and mailto addresses, opened in a new tab with
 * `rel="noopener noreferrer nofollow"`, or to a place on the page (`#…`: footnotes); any other
 * link is shown as its text, and an image as a link to it, never loaded. Styling is by Tailwind classes only: no `style`
 * attribute, no inline script (the site's Content-Security-Policy allows neither).
 */
import type { ComponentProps, ReactNode } from "react";
import ReactMarkdown, { type Components, type ExtraProps } from "react-markdown";
import remarkGfm from "remark-gfm";

/** A node of the Markdown syntax tree (mdast), as far as {@link remarkLineBreaks} reads it. */
interface MarkdownNode {
  type: string;
  value?: string;
  children?: MarkdownNode[];
}

/** Splits the text nodes under `node` at their line breaks, with a `break` node (`<br>`) at each. */
function splitLineBreaks(node: MarkdownNode): void {
  if (!node.children) return;
  node.children = node.children.flatMap((child): MarkdownNode[] => {
    if (child.type !== "text" || !child.value?.includes("\n")) {
      splitLineBreaks(child);
      return [child];
    }
    return child.value.split("\n").flatMap((line, i) => (i === 0 ? [{ type: "text", value: line }] : [{ type: "break" }, { type: "text", value: line }]));
  });
}

/** A remark plugin: a single line break inside a paragraph is a `<br>` (as GitHub comments render it), not a space. */
function remarkLineBreaks() {
  return (tree: MarkdownNode) => splitLineBreaks(tree);
}

/** An element of the HTML syntax tree (hast), as far as {@link rehypeFootnoteLabelId} reads it. */
interface HtmlNode {
  type: string;
  properties?: Record<string, unknown>;
  children?: HtmlNode[];
}

/** The id remark-gfm's footnotes give their list's label, whatever the clobber prefix (mdast-util-to-hast writes it as is). */
const FOOTNOTE_LABEL_ID = "footnote-label";

/** Puts `prefix` before the footnote label's id and the references to it under `node`. */
function prefixFootnoteLabel(node: HtmlNode, prefix: string): void {
  const properties = node.properties;
  if (properties?.id === FOOTNOTE_LABEL_ID) properties.id = prefix + FOOTNOTE_LABEL_ID;
  if (Array.isArray(properties?.ariaDescribedBy)) properties.ariaDescribedBy = properties.ariaDescribedBy.map((id) => (id === FOOTNOTE_LABEL_ID ? prefix + FOOTNOTE_LABEL_ID : id));
  for (const child of node.children ?? []) prefixFootnoteLabel(child, prefix);
}

/**
 * A rehype plugin: the footnotes' label gets the text's id prefix too (the clobber prefix covers
 * the notes and their references, not the label), so that two texts with footnotes on one page
 * have no id in common.
 */
function rehypeFootnoteLabelId(prefix: string) {
  return (tree: HtmlNode) => prefixFootnoteLabel(tree, prefix);
}

/** The nodes whose children are blocks (flow content): raw HTML in them is a block of its own. */
const BLOCK_CONTAINERS = new Set(["root", "blockquote", "listItem", "footnoteDefinition"]);

/** Turns the raw HTML nodes under `node` into text, a block of HTML into a paragraph of text. */
function htmlToText(node: MarkdownNode): void {
  node.children = node.children?.map((child) => {
    if (child.type !== "html") {
      htmlToText(child);
      return child;
    }
    const text = { type: "text", value: child.value ?? "" };
    return BLOCK_CONTAINERS.has(node.type) ? { type: "paragraph", children: [text] } : text;
  });
}

/**
 * A remark plugin: raw HTML is shown as the text it is, a block of it as a paragraph (as the
 * site's first, hand-written renderer showed it), so it never reaches the HTML output.
 */
function remarkHtmlAsText() {
  return (tree: MarkdownNode) => htmlToText(tree);
}

const REMARK_PLUGINS = [remarkGfm, remarkHtmlAsText, remarkLineBreaks];

/** Markdown's block constructs other than the paragraph, by their names in micromark (the parser) and its GFM extensions. */
const BLOCK_CONSTRUCTS = ["blockQuote", "codeFenced", "codeIndented", "definition", "gfmFootnoteDefinition", "headingAtx", "htmlFlow", "list", "setextUnderline", "table", "thematicBreak"];

/** A remark plugin: the parser reads paragraphs and inline syntax only, so a line such as `# 1` or `- x` stays as written. */
function remarkInlineOnly(this: { data(): object }) {
  // The parser's extensions, which remark-parse reads from the processor's data (as remark-gfm adds its own).
  const data = this.data() as { micromarkExtensions?: unknown[] };
  (data.micromarkExtensions ??= []).push({ disable: { null: BLOCK_CONSTRUCTS } });
}

const INLINE_REMARK_PLUGINS = [...REMARK_PLUGINS, remarkInlineOnly];

const LINK_CLASS = "font-medium text-zinc-900 underline hover:text-zinc-600 break-words";

/**
 * A link to an http(s) or mailto address, in a new tab, or to a place on the page (`#…`, as
 * GitHub-flavoured footnotes link to their notes and back); anything else is shown as its text.
 */
function SafeLink({ href, id, describedBy, children }: { href: string | undefined; id?: string; describedBy?: string; children: ReactNode }) {
  if (href?.startsWith("#")) {
    return (
      <a href={href} id={id} aria-describedby={describedBy} className={LINK_CLASS}>
        {children}
      </a>
    );
  }
  if (!href || !/^(https?:\/\/|mailto:)/i.test(href)) return <>{children}</>;
  return (
    <a href={href} className={LINK_CLASS} rel="noopener noreferrer nofollow" target="_blank">
      {children}
    </a>
  );
}

/** The heading element and classes of each Markdown level (`#` is `<h3>`: see the module comment). */
const HEADINGS = [
  { tag: "h3", className: "text-xl" },
  { tag: "h4", className: "text-lg" },
  { tag: "h5", className: "text-base" },
  { tag: "h6", className: "text-base" },
  { tag: "h6", className: "text-sm" },
  { tag: "h6", className: "text-sm" },
] as const;

/**
 * The component of a Markdown heading level (1–6). It keeps an `id` and a class the syntax
 * tree gives it (GitHub-flavoured footnotes label their list with a screen-reader-only heading).
 */
function heading(level: number): Components["h1"] {
  const { tag: Tag, className } = HEADINGS[level - 1];
  return function Heading({ id, className: given, children }: ComponentProps<"h1"> & ExtraProps) {
    return (
      <Tag id={id} className={given ?? `${className} font-semibold text-zinc-900`}>
        {children}
      </Tag>
    );
  };
}

/** The text of a syntax tree (HTML AST) element, e.g. a code block's. */
function textOf(node: { type: string; value?: string; children?: unknown[] } | undefined): string {
  if (!node) return "";
  if (node.type === "text") return node.value ?? "";
  return (node.children ?? []).map((child) => textOf(child as Parameters<typeof textOf>[0])).join("");
}

/** A table cell's alignment (`| :-: |`), which react-markdown gives as a style, as a Tailwind class. */
function alignClass(style: ComponentProps<"td">["style"]): string {
  const align = style?.textAlign;
  return align === "center" ? "text-center" : align === "right" ? "text-right" : "text-left";
}

/** The elements as the site styles them. */
const STYLED: Components = {
  h1: heading(1),
  h2: heading(2),
  h3: heading(3),
  h4: heading(4),
  h5: heading(5),
  h6: heading(6),
  a: ({ href, id, "aria-describedby": describedBy, children }) => (
    <SafeLink href={href} id={id} describedBy={describedBy}>
      {children}
    </SafeLink>
  ),
  img: ({ src, alt }) => {
    const href = typeof src === "string" ? src : undefined;
    return <SafeLink href={href}>{alt || href}</SafeLink>;
  },
  ul: ({ children }) => <ul className="list-disc space-y-1 pl-6">{children}</ul>,
  ol: ({ start, children }) => (
    <ol start={start} className="list-decimal space-y-1 pl-6">
      {children}
    </ol>
  ),
  // A code block's text as one string: the inner `<code>` would take the inline code's classes.
  pre: ({ node }) => <pre className="relative overflow-x-auto rounded-md bg-zinc-100 p-3 font-mono text-xs text-zinc-800">{textOf(node).replace(/\n$/, "")}</pre>,
  code: ({ children }) => <code className="rounded bg-zinc-100 px-1 font-mono text-[0.85em]">{children}</code>,
  blockquote: ({ children }) => <blockquote className="border-l-4 border-zinc-200 pl-3 text-zinc-600">{children}</blockquote>,
  hr: () => <hr className="border-zinc-200" />,
  table: ({ children }) => (
    <div className="relative max-w-full overflow-x-auto">
      <table className="text-sm">{children}</table>
    </div>
  ),
  thead: ({ children }) => <thead className="border-b border-zinc-200">{children}</thead>,
  tbody: ({ children }) => <tbody className="divide-y divide-zinc-100">{children}</tbody>,
  th: ({ style, children }) => <th className={`py-1.5 pr-4 font-semibold text-zinc-900 ${alignClass(style)}`}>{children}</th>,
  td: ({ style, children }) => <td className={`py-1.5 pr-4 align-top ${alignClass(style)}`}>{children}</td>,
};

/**
 * Renders a Markdown text safely (see the module comment). Empty or blank text renders nothing.
 *
 * @param source the Markdown
 * @param className the classes of a `<div>` around the elements; without it (and `testId`), the elements come bare
 * @param testId the `data-testid` of that `<div>`
 * @param components elements styled otherwise than {@link STYLED}, by tag name (react-markdown's `components`)
 * @param inline true to read only paragraphs and inline Markdown (links, emphasis, code, line
 *   breaks), each paragraph as a block `<span>`: a line such as `# 1` or `- x` is shown as written
 * @param idPrefix what the ids the text makes (its footnotes, their references and their label)
 *   start with, unique on the page for each text there, e.g. `rules-`; without it `user-content-`
 *   (remark-rehype's) and a label id of `footnote-label`, for a page with one such text
 */
export function Markdown({
  source,
  className,
  testId,
  components,
  inline = false,
  idPrefix,
}: {
  source: string;
  className?: string;
  testId?: string;
  components?: Components;
  inline?: boolean;
  idPrefix?: string;
}) {
  if (source.trim() === "") return null;
  const rendered = (
    <ReactMarkdown
      remarkPlugins={inline ? INLINE_REMARK_PLUGINS : REMARK_PLUGINS}
      remarkRehypeOptions={idPrefix === undefined ? undefined : { clobberPrefix: idPrefix }}
      rehypePlugins={idPrefix === undefined ? undefined : [[rehypeFootnoteLabelId, idPrefix]]}
      components={inline ? { ...STYLED, p: ({ children }) => <span className="block">{children}</span>, ...components } : { ...STYLED, ...components }}
    >
      {source}
    </ReactMarkdown>
  );
  if (className === undefined && testId === undefined) return rendered;
  return (
    <div className={className} data-testid={testId}>
      {rendered}
    </div>
  );
}
