/**
 * HTML of a React element tree as a string, inside a Server Component (issue 26 §3: a board's
 * table is rendered once per board version and reused as a fragment).
 *
 * React's own `renderToStaticMarkup` cannot be used there: Next.js aliases it to an error in the
 * server component layer. This renderer covers what a static fragment needs (host elements,
 * plain function components, text, fragments), gives byte for byte what `renderToStaticMarkup`
 * of react-dom 19 gives for them (`static-markup.test.tsx` compares the two on the leaderboard
 * tables), and refuses everything else with an error naming it: client components, async
 * components, hooks' machinery (context, Suspense, memo, lazy), event handlers, refs, style
 * objects, form controls, SVG and document-level tags. A fragment that needs one of those is not
 * static.
 */
import { Fragment, isValidElement, type ReactElement, type ReactNode } from "react";

/** Elements written without a closing tag (`<br/>`, as react-dom's static markup writes them). */
const VOID = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "keygen", "link", "meta", "param", "source", "track", "wbr"]);

/**
 * Tags refused: form controls (React maps their `value`/`defaultValue`), SVG and MathML (their
 * attribute names differ), and what React hoists or treats as raw text (document-level tags,
 * scripts, styles).
 */
const REFUSED_TAGS = new Set(["input", "select", "option", "textarea", "svg", "math", "html", "head", "body", "title", "meta", "link", "base", "script", "style", "noscript", "template"]);

/** Props written under another name (react-dom's aliases for the HTML attributes a static fragment may use). */
const ALIASES: Record<string, string> = { className: "class", htmlFor: "for", tabIndex: "tabindex", acceptCharset: "accept-charset", httpEquiv: "http-equiv" };

/** HTML attributes that are present or absent: `true` writes `name=""`, `false` leaves them out. */
const BOOLEAN_ATTRIBUTES = new Set(["hidden", "disabled", "open", "inert", "reversed", "default"]);

/** Props that are not attributes. */
const NOT_ATTRIBUTES = new Set(["children", "dangerouslySetInnerHTML", "suppressHydrationWarning", "suppressContentEditableWarning"]);

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;" };

/** Text or an attribute value with `& < > " '` escaped, as react-dom escapes them. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** Where in the tree a problem is: the tags and components around it, e.g. "table > tbody > BoardRow". */
type Path = readonly string[];

/** An error naming the unsupported thing and where it is. */
function refuse(what: string, path: Path): Error {
  return new Error(`renderStaticMarkup: ${what} is not static markup${path.length > 0 ? ` (at ${path.join(" > ")})` : ""}`);
}

/** One attribute ` name="value"`, or "" when React leaves it out. */
function attribute(tag: string, name: string, value: unknown, path: Path): string {
  if (value === null || value === undefined) return "";
  if (/^on[A-Z]/.test(name)) throw refuse(`the event handler ${name}`, path);
  if (name === "ref") throw refuse("a ref", path);
  if (name === "style") throw refuse("a style object", path);
  const dataOrAria = name.startsWith("data-") || name.startsWith("aria-");
  if (typeof value === "boolean") {
    if (dataOrAria) return ` ${name}="${value}"`;
    if (BOOLEAN_ATTRIBUTES.has(name)) return value ? ` ${name}=""` : "";
    throw refuse(`the boolean value of ${name}`, path);
  }
  if (typeof value !== "string" && typeof value !== "number") throw refuse(`a ${typeof value} as the value of ${name}`, path);
  // react-dom leaves out an empty src, and an empty href but on <a>: refused rather than copied.
  if ((name === "src" || (name === "href" && tag !== "a")) && value === "") throw refuse(`an empty ${name}`, path);
  return ` ${ALIASES[name] ?? name}="${escapeHtml(String(value))}"`;
}

/** A host element (`<td …>…</td>`). */
function hostElement(tag: string, props: Record<string, unknown>, path: Path): string {
  const here = [...path, tag];
  if (REFUSED_TAGS.has(tag)) throw refuse(`<${tag}>`, path);
  let html = `<${tag}`;
  for (const [name, value] of Object.entries(props)) if (!NOT_ATTRIBUTES.has(name)) html += attribute(tag, name, value, here);
  const inner = props.dangerouslySetInnerHTML as { __html?: unknown } | null | undefined;
  if (VOID.has(tag)) {
    if (props.children != null || inner != null) throw refuse(`content in the void element <${tag}>`, path);
    return `${html}/>`;
  }
  if (inner != null) {
    if (props.children != null) throw refuse("both children and dangerouslySetInnerHTML", here);
    if (typeof inner.__html !== "string") throw refuse("dangerouslySetInnerHTML without an __html string", here);
    return `${html}>${inner.__html}</${tag}>`;
  }
  return `${html}>${render(props.children as ReactNode, here)}</${tag}>`;
}

/** A function component's output (it is called with its props, as React calls it). */
function functionComponent(type: (props: unknown) => unknown, props: unknown, path: Path): string {
  const name = (type as { displayName?: string }).displayName ?? (type.name || "anonymous component");
  const marked = type as unknown as { $$typeof?: symbol; prototype?: { isReactComponent?: unknown } };
  if (marked.$$typeof !== undefined) throw refuse(`the client component ${name}`, path);
  if (marked.prototype?.isReactComponent) throw refuse(`the class component ${name}`, path);
  const output = type(props);
  if (output instanceof Promise) throw refuse(`the async component ${name}`, path);
  return render(output as ReactNode, [...path, name]);
}

/** The HTML of any node. */
function render(node: ReactNode, path: Path): string {
  if (node === null || node === undefined || typeof node === "boolean") return "";
  if (typeof node === "string") return escapeHtml(node);
  if (typeof node === "number" || typeof node === "bigint") return String(node);
  if (Array.isArray(node)) return node.map((child) => render(child as ReactNode, path)).join("");
  if (isValidElement(node)) {
    const { type, props } = node as ReactElement<Record<string, unknown>>;
    if (typeof type === "string") return hostElement(type, props, path);
    if (type === Fragment) return render(props.children as ReactNode, path);
    if (typeof type === "function") return functionComponent(type as (props: unknown) => unknown, props, path);
    throw refuse("a special element (context, Suspense, memo, lazy or forwardRef)", path);
  }
  if (typeof (node as { then?: unknown }).then === "function") throw refuse("a promise", path);
  if (typeof (node as Iterable<unknown>)[Symbol.iterator] === "function") return render([...(node as Iterable<ReactNode>)], path);
  throw refuse(`a ${typeof node}`, path);
}

/**
 * The HTML of `node`, as `renderToStaticMarkup` of react-dom 19 writes it: no React markers, text
 * and attribute values escaped (`& < > " '`), `className` as `class`, void elements as `<br/>`,
 * `null`/`undefined`/booleans as nothing. Function components are called with their props (they
 * must be synchronous and use no hooks).
 *
 * @param node host elements, function components, fragments, arrays, strings and numbers
 * @returns the HTML text
 * @throws Error naming the node and where it is, for anything that is not static markup (see
 *   the module comment): render such a part as a normal component instead
 */
export function renderStaticMarkup(node: ReactNode): string {
  return render(node, []);
}
