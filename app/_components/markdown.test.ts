/**
 * The site's Markdown renderer (react-markdown with remark-gfm), rendered to HTML as a server
 * component renders it: tables, raw HTML shown as text, the links it allows (footnotes
 * included), headings from `<h3>`, kept line breaks, and no `style` attribute (the
 * Content-Security-Policy allows none).
 */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Markdown } from "./markdown";
import { TaskLinkifiedText, TaskMarkdown } from "./task-markdown";

/** The HTML of a task description written as `source` (its ids start with `idPrefix`). */
const html = (source: string, idPrefix = "description-") => renderToStaticMarkup(createElement(TaskMarkdown, { source, idPrefix }));

const LINK = 'class="font-medium text-zinc-900 underline hover:text-zinc-600 break-words" rel="noopener noreferrer nofollow" target="_blank"';

describe("Markdown", () => {
  it("renders a table, with its alignments as classes and no style attribute", () => {
    const out = html("| Metric | F1 |\n| :-- | --: |\n| MUC | **81.2** |\n| B³ | 70.1 |");
    expect(out).toContain('<table class="text-sm">');
    expect(out).toContain('<th class="py-1.5 pr-4 font-semibold text-zinc-900 text-left">Metric</th>');
    expect(out).toContain('<th class="py-1.5 pr-4 font-semibold text-zinc-900 text-right">F1</th>');
    expect(out).toContain('<td class="py-1.5 pr-4 align-top text-left">MUC</td>');
    expect(out).toContain('<td class="py-1.5 pr-4 align-top text-right"><strong>81.2</strong></td>');
    expect(out).toContain('<div class="relative max-w-full overflow-x-auto"><table');
    expect(out).not.toContain("style=");
  });

  it("shows raw HTML as text, never as elements: a block of it as a paragraph", () => {
    const out = html("Resolve **all** mentions.\n\n<script>alert(1)</script>\n\na <b>bold</b> <img src=x onerror=alert(1)> word");
    expect(out).toContain("<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>");
    expect(out).toContain("<p>a &lt;b&gt;bold&lt;/b&gt; &lt;img src=x onerror=alert(1)&gt; word</p>");
    expect(out).not.toMatch(/<(script|b|img)\b/);
  });

  it("links http(s) and mailto addresses (bare URLs too) in a new tab, and shows any other link or an image as text or a link", () => {
    const out = html("[ok](https://example.org/a) [mail](mailto:a@b.org) [bad](javascript:alert(1)) [rel](/x) bare https://example.org/b. ![a chart](https://example.org/c.png)");
    expect(out).toContain(`<a href="https://example.org/a" ${LINK}>ok</a>`);
    expect(out).toContain(`<a href="mailto:a@b.org" ${LINK}>mail</a>`);
    expect(out).toContain(" bad rel bare ");
    expect(out).toContain(`<a href="https://example.org/b" ${LINK}>https://example.org/b</a>.`);
    expect(out).toContain(`<a href="https://example.org/c.png" ${LINK}>a chart</a>`);
    expect(out).not.toContain("javascript:");
    expect(out).not.toContain("<img");
  });

  it("links GitHub-flavoured footnotes to their notes and back, on the page, with the text's id prefix", () => {
    const out = html("text[^1]\n\n[^1]: the note");
    expect(out).toContain('<a href="#description-fn-1" id="description-fnref-1" aria-describedby="description-footnote-label" class="font-medium text-zinc-900 underline hover:text-zinc-600 break-words">1</a>');
    expect(out).toContain('<li id="description-fn-1">');
    expect(out).toContain('<a href="#description-fnref-1" class="font-medium text-zinc-900 underline hover:text-zinc-600 break-words">↩</a>');
    expect(out).toContain('<h4 id="description-footnote-label" class="sr-only">Footnotes</h4>');
  });

  it("two texts with footnotes on one page (a task's description and rules) have no id in common", () => {
    const ids = (out: string) => [...out.matchAll(/\sid="([^"]*)"/g)].map((m) => m[1]);
    const description = ids(html("a[^1] b[^x]\n\n[^1]: one\n[^x]: two", "description-"));
    const rules = ids(html("c[^1]\n\n[^1]: three", "rules-"));
    expect(description.length).toBeGreaterThanOrEqual(5);
    expect(rules.length).toBeGreaterThanOrEqual(3);
    expect(description.filter((id) => rules.includes(id))).toEqual([]);
  });

  it("without an id prefix (a page with one such text), keeps remark-rehype's ids", () => {
    const out = renderToStaticMarkup(createElement(Markdown, { source: "text[^1]\n\n[^1]: the note" }));
    expect(out).toContain('<a href="#user-content-fn-1" id="user-content-fnref-1" aria-describedby="footnote-label"');
    expect(out).toContain('<h4 id="footnote-label" class="sr-only">Footnotes</h4>');
  });

  it("starts headings at h3, keeps single line breaks, and styles lists, code and quotes", () => {
    expect(html("# One\n###### Six")).toBe(
      '<div class="space-y-3 text-sm leading-relaxed text-zinc-800"><h3 class="text-xl font-semibold text-zinc-900">One</h3>\n<h6 class="text-sm font-semibold text-zinc-900">Six</h6></div>',
    );
    expect(html("line one\nline two")).toContain("<p>line one<br/>\nline two</p>");
    expect(html("- a\n- b\n\n3. c")).toContain('<ul class="list-disc space-y-1 pl-6">\n<li>a</li>\n<li>b</li>\n</ul>\n<ol start="3" class="list-decimal space-y-1 pl-6">');
    expect(html("```\nconst x = 1;\n<b>\n```")).toContain('<pre class="relative overflow-x-auto rounded-md bg-zinc-100 p-3 font-mono text-xs text-zinc-800">const x = 1;\n&lt;b&gt;</pre>');
    expect(html("use `x`")).toContain('<code class="rounded bg-zinc-100 px-1 font-mono text-[0.85em]">x</code>');
    expect(html("> quoted")).toContain('<blockquote class="border-l-4 border-zinc-200 pl-3 text-zinc-600">');
  });

  it("renders nothing for blank text, and the bare elements without a class", () => {
    expect(html("  \n\n ")).toBe("");
    expect(renderToStaticMarkup(createElement(Markdown, { source: "One.\n\nTwo." }))).toBe("<p>One.</p>\n<p>Two.</p>");
  });
});

describe("TaskLinkifiedText", () => {
  it("links URLs and keeps line breaks, reading inline Markdown only (block syntax is shown as written)", () => {
    const out = renderToStaticMarkup(createElement(TaskLinkifiedText, { text: "CC BY 4.0 https://creativecommons.org/licenses/by/4.0/\n# second **line**" }));
    expect(out).toBe(
      `<span class="block">CC BY 4.0 <a href="https://creativecommons.org/licenses/by/4.0/" ${LINK}>https://creativecommons.org/licenses/by/4.0/</a><br/>\n# second <strong>line</strong></span>`,
    );
    expect(renderToStaticMarkup(createElement(TaskLinkifiedText, { text: "- a\n| b |\n| - |\n\n1. c" }))).toBe('<span class="block">- a<br/>\n| b |<br/>\n| - |</span>\n<span class="block">1. c</span>');
  });
});
