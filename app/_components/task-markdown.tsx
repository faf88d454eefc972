/**
 * What organizers write, rendered safely with the site's Markdown renderer (`markdown.tsx`:
 * raw HTML shown as text, links to http(s) and mailto addresses only, headings from `<h3>`):
 * task descriptions and rules, and the notes of final results.
 */
import { Markdown } from "./markdown";

/**
 * Renders a Markdown text safely (see the module comment). Empty text renders nothing.
 *
 * @param idPrefix what the ids of its footnotes start with, unique on the page among its texts
 *   (a task page shows the description and the rules), e.g. `rules-`
 */
export function TaskMarkdown({ source, idPrefix }: { source: string; idPrefix: string }) {
  return <Markdown source={source} idPrefix={idPrefix} className="space-y-3 text-sm leading-relaxed text-zinc-800" />;
}

/**
 * Plain text with line breaks kept and http(s) URLs made into links (for licence and source),
 * and Markdown's inline elements (links, emphasis, code); block syntax (`# `, `- `, tables) is
 * shown as written.
 */
export function TaskLinkifiedText({ text }: { text: string }) {
  return <Markdown source={text} inline />;
}
