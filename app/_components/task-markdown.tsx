/**
 * A small, safe Markdown renderer for task descriptions (no Markdown library is installed).
 *
 * It builds React elements, so text is always escaped and raw HTML in the source is shown as
 * text, never interpreted. Supported: headings (`#`…`######`), paragraphs (single line breaks
 * kept), bullet and numbered lists, fenced code blocks, block quotes, and inline `code`,
 * **bold**, *italic*, [links](https://…) and bare http(s) URLs. Links go to http(s) and
 * mailto addresses only, open with `rel="noopener noreferrer nofollow"`.
 */
import type { ReactNode } from "react";

type Block =
  | { kind: "heading"; level: number; text: string }
  | { kind: "paragraph"; lines: string[] }
  | { kind: "list"; ordered: boolean; items: string[] }
  | { kind: "code"; text: string }
  | { kind: "quote"; lines: string[] };

const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const BULLET = /^\s*[-*+]\s+(.*)$/;
const NUMBERED = /^\s*\d{1,9}[.)]\s+(.*)$/;
const FENCE = /^\s*(```|~~~)/;
const QUOTE = /^\s*>\s?(.*)$/;

/** Splits Markdown source into blocks. */
function parseBlocks(source: string): Block[] {
  const lines = source.replace(/\r\n?/g, "\n").split("\n");
  const blocks: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (line.trim() === "") {
      i += 1;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const body: string[] = [];
      i += 1;
      while (i < lines.length && !lines[i].trim().startsWith(fence[1])) body.push(lines[i++]);
      i += 1;
      blocks.push({ kind: "code", text: body.join("\n") });
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      blocks.push({ kind: "heading", level: heading[1].length, text: heading[2] });
      i += 1;
      continue;
    }
    const listKind = BULLET.test(line) ? BULLET : NUMBERED.test(line) ? NUMBERED : null;
    if (listKind) {
      const items: string[] = [];
      while (i < lines.length && listKind.test(lines[i])) items.push(listKind.exec(lines[i++])![1]);
      blocks.push({ kind: "list", ordered: listKind === NUMBERED, items });
      continue;
    }
    if (QUOTE.test(line)) {
      const quoted: string[] = [];
      while (i < lines.length && QUOTE.test(lines[i])) quoted.push(QUOTE.exec(lines[i++])![1]);
      blocks.push({ kind: "quote", lines: quoted });
      continue;
    }
    const paragraph: string[] = [];
    while (i < lines.length && lines[i].trim() !== "" && !FENCE.test(lines[i]) && !HEADING.test(lines[i]) && !BULLET.test(lines[i]) && !NUMBERED.test(lines[i])) {
      paragraph.push(lines[i++].trim());
    }
    blocks.push({ kind: "paragraph", lines: paragraph });
  }
  return blocks;
}

// Order matters: code first (its content is literal), then links, bold, italic, bare URLs.
const INLINE =
  /(`[^`\n]+`)|\[([^\]\n]+)\]\(((?:https?:\/\/|mailto:)[^\s()]+)\)|\*\*([^*\n]+)\*\*|(?<![\w*])\*([^*\n]+)\*(?![\w*])|(https?:\/\/[^\s<>()"]*[^\s<>()".,;:!?'])/g;

const linkClass = "font-medium text-zinc-900 underline hover:text-zinc-600 break-words";

/** A link to an http(s) or mailto address (anything else is shown as text). */
function SafeLink({ href, children }: { href: string; children: ReactNode }) {
  if (!/^(https?:\/\/|mailto:)/i.test(href)) return <>{children}</>;
  return (
    <a href={href} className={linkClass} rel="noopener noreferrer nofollow" target="_blank">
      {children}
    </a>
  );
}

/**
 * Inline Markdown (code, links, bold, italic, bare URLs) as React nodes.
 *
 * @param text one line or paragraph of source text
 * @param keyPrefix a prefix for React keys
 */
function renderInline(text: string, keyPrefix = "i"): ReactNode[] {
  const out: ReactNode[] = [];
  let last = 0;
  let n = 0;
  for (const m of text.matchAll(INLINE)) {
    const at = m.index ?? 0;
    if (at > last) out.push(text.slice(last, at));
    const key = `${keyPrefix}-${n++}`;
    if (m[1]) {
      out.push(
        <code key={key} className="rounded bg-zinc-100 px-1 font-mono text-[0.85em]">
          {m[1].slice(1, -1)}
        </code>,
      );
    } else if (m[2]) {
      out.push(
        <SafeLink key={key} href={m[3]}>
          {m[2]}
        </SafeLink>,
      );
    } else if (m[4]) {
      out.push(<strong key={key}>{renderInline(m[4], key)}</strong>);
    } else if (m[5]) {
      out.push(<em key={key}>{renderInline(m[5], key)}</em>);
    } else if (m[6]) {
      out.push(
        <SafeLink key={key} href={m[6]}>
          {m[6]}
        </SafeLink>,
      );
    }
    last = at + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

/** Lines joined with `<br>`, each rendered inline. */
function Lines({ lines, keyPrefix }: { lines: string[]; keyPrefix: string }) {
  return (
    <>
      {lines.map((line, i) => (
        <span key={i}>
          {i > 0 && <br />}
          {renderInline(line, `${keyPrefix}-${i}`)}
        </span>
      ))}
    </>
  );
}

const HEADING_CLASSES = ["text-xl", "text-lg", "text-base", "text-base", "text-sm", "text-sm"];

/** One block as React elements. */
function BlockView({ block, index }: { block: Block; index: number }) {
  const key = `b${index}`;
  switch (block.kind) {
    case "heading": {
      // Page headings are h1 (title) and h2 (sections): description headings start at h3.
      const Tag = (["h3", "h4", "h5", "h6", "h6", "h6"] as const)[block.level - 1];
      return <Tag className={`${HEADING_CLASSES[block.level - 1]} font-semibold text-zinc-900`}>{renderInline(block.text, key)}</Tag>;
    }
    case "paragraph":
      return (
        <p>
          <Lines lines={block.lines} keyPrefix={key} />
        </p>
      );
    case "list": {
      const items = block.items.map((item, i) => <li key={i}>{renderInline(item, `${key}-${i}`)}</li>);
      return block.ordered ? <ol className="list-decimal space-y-1 pl-6">{items}</ol> : <ul className="list-disc space-y-1 pl-6">{items}</ul>;
    }
    case "code":
      return <pre className="relative overflow-x-auto rounded-md bg-zinc-100 p-3 font-mono text-xs text-zinc-800">{block.text}</pre>;
    case "quote":
      return (
        <blockquote className="border-l-4 border-zinc-200 pl-3 text-zinc-600">
          <Lines lines={block.lines} keyPrefix={key} />
        </blockquote>
      );
  }
}

/** Renders a Markdown text safely (see the module comment). Empty text renders nothing. */
export function TaskMarkdown({ source }: { source: string }) {
  const blocks = parseBlocks(source);
  if (blocks.length === 0) return null;
  return (
    <div className="space-y-3 text-sm leading-relaxed text-zinc-800">
      {blocks.map((block, i) => (
        <BlockView key={i} block={block} index={i} />
      ))}
    </div>
  );
}

/** Plain text with line breaks kept and http(s) URLs made into links (for licence and source). */
export function TaskLinkifiedText({ text }: { text: string }) {
  return <Lines lines={text.replace(/\r\n?/g, "\n").split("\n")} keyPrefix="t" />;
}
