/**
 * Checks every page kind shares (issue 12 §3, §7; issue 24 §5): axe-core's WCAG 2.0/2.1 A and
 * AA rules with no violation, in the light and the dark colour scheme (the app follows
 * prefers-color-scheme), no sideways scroll of the page itself (wide tables scroll inside
 * their own container), and the page frame's skip link ahead of everything else, to the
 * page's one `<main id="main">`.
 */
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

/** The axe rule tags of WCAG 2.0 and 2.1, levels A and AA. */
export const WCAG_21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

/**
 * The WCAG 2.0/2.1 A and AA rules of axe-core that read colours: text contrast (1.4.3) and
 * links told apart from the text around them by colour alone (1.4.1). The dark scheme changes
 * colours only (app/globals.css turns the palette's custom properties around; no markup, no
 * layout and no script reads the scheme), so these are the only rules whose outcome it can
 * change; every other rule sees the same document and the same boxes in both schemes.
 */
export const COLOUR_RULES = ["color-contrast", "link-in-text-block"];

/** Which of the WCAG 2.0/2.1 A and AA rules axe runs: `only` these, or all `without` these (default: all). */
export interface RuleSelection {
  only?: readonly string[];
  without?: readonly string[];
}

/**
 * The helpers that axe-core's build (Babel) gives classes with private fields (`#r`, and private
 * methods): each field is a WeakMap from the objects to their values, each class's methods a
 * WeakSet of its objects. The `Color` class of axe's contrast rules has six such fields and
 * private methods, and the rule makes a new Color for every colour of every layer behind every
 * text node: its constructor's seven WeakMap and WeakSet insertions, and the collector's work on
 * those tables, were a third of the rule's time on a 50-row board page (823 ms of the
 * constructor alone, and 413 ms of garbage collection, out of 3.8 s, profiled in Chromium here).
 */
const AXE_PRIVATE_FIELD_HELPERS =
  'function me(e,t,n){ge(e,t),t.set(e,n)}function he(e,t){ge(e,t),t.add(e)}function ge(e,t){if(t.has(e))throw new TypeError("Cannot initialize the same private elements twice on an object")}function ve(e,t){return e.get(ye(e,t))}function be(e,t,n){e.set(ye(e,t),n)}function ye(e,t,n){if("function"==typeof e?e===t:e.has(t))return arguments.length<3?t:n;throw new TypeError("Private element is not present on this object")}';

/**
 * The same helpers keeping each field's value in a property of the object, under a symbol of
 * that field's own (kept on its WeakMap), and a class's brand the same way: the values each
 * object's fields hold, read and written by the same code, without the tables. The symbols are
 * never enumerated, stringified or compared by axe; what is lost is only the privacy, which
 * nothing here relies on. Only three classes use these helpers (colorjs' `ColorSpace` and
 * `Color`, and axe's `Color`), and none of their WeakMaps is used outside them.
 */
const PROPERTY_FIELD_HELPERS =
  'function cbPk(m){return m.cbPk||(m.cbPk=Symbol())}function me(e,t,n){e[cbPk(t)]=n}function he(e,t){e[cbPk(t)]=!0}function ge(e,t){}function ve(e,t){return t[cbPk(e)]}function be(e,t,n){t[cbPk(e)]=n}function ye(e,t,n){if("function"==typeof e?e===t:cbPk(e)in Object(t))return arguments.length<3?t:n;throw new TypeError("Private element is not present on this object")}';

/**
 * axe-core's browser build (the same axe-core @axe-core/playwright runs), read once per test
 * process, with its private-field helpers replaced ({@link PROPERTY_FIELD_HELPERS}). Throws when
 * they are not found exactly once (another axe-core release): the patch is then to be redone
 * for it, not skipped.
 */
const AXE_SOURCE = (() => {
  const file = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
  const parts = readFileSync(file, "utf8").split(AXE_PRIVATE_FIELD_HELPERS);
  if (parts.length !== 2) throw new Error(`${file}: its private-field helpers were found ${parts.length - 1} times, not once (e2e/helpers/a11y.ts patches them)`);
  return parts.join(PROPERTY_FIELD_HELPERS);
})();

/** One axe violation as the failure message shows it. */
interface Violation {
  id: string;
  impact: string | null | undefined;
  help: string;
  /** selectors of up to three offending elements */
  targets: string[];
}

/**
 * Runs in the page, once axe-core is injected: axe's colour parser (`Color#parseString`, which
 * the contrast rule calls for every colour of every element behind every text node) keeps what
 * it made of each colour string and gives it again, instead of building colorjs objects and
 * converting them to sRGB anew each time. The colour of a string is the same whenever it is
 * read, so the rules see the same colours; a string it cannot parse still throws (never kept).
 * About half of the contrast rule's time on a 50-row board page (3.1 s against 7.0 s, dark
 * scheme, measured in Chromium here).
 *
 * It also reads a missing component (`none`, CSS Color 4) as 0, which is what it means outside
 * colour interpolation: axe-core 4.13 cannot parse it (dequelabs/axe-core#4269) and then skips
 * its colour-contrast and link-in-text-block rules for the whole page, reported as an error
 * among the "incomplete" results, never as a violation. Tailwind's zinc-50, the page background
 * of the light scheme, is `oklch(98.5% 0 none)`: without this those two rules never ran in the
 * light scheme.
 */
function memoizeAxeColourParsing(): void {
  interface AxeColour {
    r: number;
    g: number;
    b: number;
    alpha: number;
    parseString(text: string): AxeColour;
  }
  const Colour = (window as unknown as { axe: { commons: { color: { Color: { prototype: AxeColour } } } } }).axe.commons.color.Color;
  const parse = Colour.prototype.parseString;
  const known = new Map<string, [number, number, number, number]>();
  Colour.prototype.parseString = function (this: AxeColour, text: string): AxeColour {
    const channels = known.get(text);
    if (channels) {
      [this.r, this.g, this.b, this.alpha] = channels;
      return this;
    }
    parse.call(this, text.replace(/\bnone\b/g, "0"));
    known.set(text, [this.r, this.g, this.b, this.alpha]);
    return this;
  };
}

/**
 * axe-core's WCAG 2.0/2.1 A and AA violations on the page as it is.
 *
 * A page without frames gets axe-core injected once per document (a later check of the same
 * document, e.g. after a resize, reuses it, and its colour parser's memory:
 * {@link memoizeAxeColourParsing}) and runs `axe.run` asking for violations only:
 * the same rules and the same violations as `@axe-core/playwright`, whose `analyze()`
 * injects the 0.5 MB script again on every call and returns every passing node too, which
 * took 2–3 times as long here (about 1.3 s a page against 0.5 s on the 2-core CI machine).
 * A page with frames goes through `AxeBuilder`, which injects axe into each frame. Either way a
 * rule that axe could not run (an error, which axe files under "incomplete") is returned as a
 * violation: a rule skipped is not a rule passed.
 */
async function axeViolations(page: Page, select: RuleSelection = {}): Promise<Violation[]> {
  const { only: rules, without = [] } = select;
  if (page.frames().length > 1) {
    const builder = new AxeBuilder({ page }).withTags(WCAG_21_AA);
    if (rules) builder.withRules([...rules]);
    if (without.length > 0) builder.disableRules([...without]);
    const results = await builder.setLegacyMode(true).options({ resultTypes: ["violations"] }).analyze();
    const errors = results.incomplete.filter((r) => (r as { error?: unknown }).error).map((r) => ({ id: r.id, impact: "error", help: `axe could not run it: ${JSON.stringify((r as { error?: { message?: string } }).error?.message)}`, targets: [] }));
    return [...errors, ...results.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.slice(0, 3).map((n) => n.target.join(" ")) }))];
  }
  if (!(await page.evaluate(() => "axe" in window))) {
    await page.evaluate(AXE_SOURCE);
    await page.evaluate(memoizeAxeColourParsing);
  }
  return page.evaluate(
    async ({ tags, rules, without }) => {
      type AxeRun = (context: Document, options: object) => Promise<{ violations: { id: string; impact?: string | null; help: string; nodes: { target: unknown[] }[] }[]; incomplete: { id: string; error?: { message?: string } }[] }>;
      const axe = (window as unknown as { axe: { run: AxeRun } }).axe;
      const runOnly = rules ? { type: "rule", values: rules } : { type: "tag", values: tags };
      const disabled = Object.fromEntries(without.map((id) => [id, { enabled: false }]));
      const results = await axe.run(document, { runOnly, rules: disabled, resultTypes: ["violations"] });
      const errors = results.incomplete.filter((r) => r.error).map((r) => ({ id: r.id, impact: "error", help: `axe could not run it: ${r.error?.message}`, targets: [] as string[] }));
      return [...errors, ...results.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.slice(0, 3).map((n) => n.target.map(String).join(" ")) }))];
    },
    { tags: WCAG_21_AA, rules: rules ? [...rules] : null, without: [...without] },
  );
}

/**
 * Runs axe (WCAG 2.0/2.1 A and AA rules) on the page as it is and expects no violation; the
 * failure lists each rule with its help text and up to three of its elements.
 *
 * @param what names the page in the failure message
 * @param select which of those rules (default: all of them)
 */
export async function expectNoAxeViolations(page: Page, what: string, select: RuleSelection = {}): Promise<void> {
  const found = (await axeViolations(page, select)).map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.targets.join("; ")}`);
  expect(found, `axe on ${what}`).toEqual([]);
}

/**
 * The page's width beyond the viewport (0: it does not scroll sideways), with the outermost
 * elements that stick out (for the failure message).
 */
export async function sidewaysOverflow(page: Page): Promise<{ pixels: number; culprits: string[] }> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const culprits: string[] = [];
    for (const element of Array.from(document.body.querySelectorAll("*"))) {
      if (element.getBoundingClientRect().right <= width + 0.5) continue;
      // Inside a container that scrolls (or clips) sideways, it does not widen the page.
      let clipped = false;
      for (let up = element.parentElement; up && up !== document.body; up = up.parentElement) if (getComputedStyle(up).overflowX !== "visible") clipped = true;
      if (clipped) continue;
      // Only the outermost: an element whose parent sticks out too is left out.
      const parent = element.parentElement;
      if (parent && parent !== document.body && parent.getBoundingClientRect().right > width + 0.5) continue;
      culprits.push(`<${element.tagName.toLowerCase()} class="${element.getAttribute("class") ?? ""}"> ${(element.textContent ?? "").trim().slice(0, 60)}`);
    }
    return { pixels: document.documentElement.scrollWidth - width, culprits: culprits.slice(0, 5) };
  });
}

/** Asserts that the page does not scroll sideways, naming what sticks out when it does. */
export async function expectNoSidewaysScroll(page: Page, what: string): Promise<void> {
  const { pixels, culprits } = await sidewaysOverflow(page);
  expect(pixels, `${what} is ${pixels} px too wide: ${culprits.join(" | ")}`).toBe(0);
}

/** The id of the page frame's `<main>` (app/layout.tsx), the skip link's target. */
export const MAIN_ID = "main";

/** The skip link's text (app/layout.tsx). */
export const SKIP_LINK_TEXT = "Skip to main content";

/**
 * Expects the page to have exactly one `<main>`, with id {@link MAIN_ID}, and the skip link to
 * it as the first element Tab reaches (the first focusable element in document order that is
 * not taken out of the tab order). Reads the DOM only; the keyboard itself is tried once in
 * e2e/a11y.spec.ts.
 */
export async function expectSkipLinkFirst(page: Page, what: string): Promise<void> {
  const found = await page.evaluate(() => {
    const mains = Array.from(document.querySelectorAll("main, [role=main]")).map((m) => m.id);
    const focusable = "a[href], button, input, select, textarea, summary, iframe, [tabindex], [contenteditable=true]";
    const first = Array.from(document.querySelectorAll<HTMLElement>(focusable)).find(
      (el) => el.tabIndex >= 0 && !el.matches(":disabled") && !(el instanceof HTMLInputElement && el.type === "hidden"),
    );
    return { mains, first: first ? { text: first.textContent?.trim() ?? "", href: first.getAttribute("href") } : null };
  });
  expect(found.mains, `${what}: one <main id="${MAIN_ID}">`).toEqual([MAIN_ID]);
  expect(found.first, `${what}: the first element Tab reaches`).toEqual({ text: SKIP_LINK_TEXT, href: `#${MAIN_ID}` });
}

/** The widths every page is checked at: a desktop's and a phone's (below the `sm` breakpoint of 640 px). */
export const DESKTOP_AND_PHONE = [1280, 390] as const;

/** The colour schemes every page is checked in (the app follows `prefers-color-scheme`). */
export type ColourScheme = "light" | "dark";

/** Waits until what re-renders on a resize (a ResizeObserver's callback) has: two frames and a task. */
async function settle(page: Page): Promise<void> {
  await page.evaluate(() => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 0)))));
}

/**
 * Opens `path` once (expecting a 200) at the first width, then checks it at every width, in
 * the order given, in both colour schemes: axe finds no violation, and below 640 px the page
 * does not scroll sideways. On the first load it also checks the skip link and the one
 * `<main>` ({@link expectSkipLinkFirst}).
 *
 * The page is loaded once and the window narrowed, as a reader narrows a desktop window: the
 * layout is CSS (media queries re-apply on resize, and the header's menu is a `<details>`), so
 * the narrowed page is the page a phone loads. What measures itself (the leaderboard's charts,
 * through a ResizeObserver) re-renders before the checks: they wait two frames and a task.
 * The colour scheme is switched on the same page too (`page.emulateMedia`), which re-applies
 * `prefers-color-scheme` at once, as when a reader's system turns dark: light then dark at the
 * first width, dark then light at the next, and so on (one switch per width). The page is
 * left in the light scheme. A navigation costs 0.5–1 s of Chromium's time on the 2-core CI
 * machine; this halves the navigations of the accessibility checks and adds none for dark mode.
 * In the dark scheme axe runs its colour rules ({@link COLOUR_RULES}), the only ones the
 * scheme can change; the light scheme's run at the same width, just before or just after it,
 * runs every rule on the same document and layout. They are about 55–65 % of a full run's time on a board page (160 ms
 * against 305 ms on the GUM demo board, measured in Chromium here).
 *
 * @param what names the page in failure messages (default: the path)
 * @param schemes the colour schemes to check (default: both); a caller that checks the same
 *   kind of page in both elsewhere may check a variant of it (other rows, another page of the
 *   same table) in the light scheme only, and with none (`[]`) a view whose every colour pair
 *   another view it checks shows too (the same cells, with columns added): then axe runs every
 *   rule but {@link COLOUR_RULES}, in the light scheme
 */
export async function expectAccessibleAtWidths(
  page: Page,
  path: string,
  widths: readonly number[] = DESKTOP_AND_PHONE,
  what = path,
  schemes: readonly ColourScheme[] = ["light", "dark"],
): Promise<void> {
  const height = page.viewportSize()?.height ?? 900;
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: widths[0]!, height });
  expect((await page.goto(path))?.status(), `${what}: status`).toBe(200);
  await expectSkipLinkFirst(page, what);
  let scheme: ColourScheme = "light";
  for (const [i, width] of widths.entries()) {
    if (i > 0) {
      await page.setViewportSize({ width, height });
      await settle(page);
    }
    if (width < 640) await expectNoSidewaysScroll(page, `${what} at ${width} px`);
    const both: readonly ColourScheme[] = scheme === "light" ? ["light", "dark"] : ["dark", "light"];
    const order: readonly ColourScheme[] = both.filter((s) => schemes.includes(s));
    if (order.length === 0) await expectNoAxeViolations(page, `${what} at ${width} px, colours not checked`, { without: COLOUR_RULES });
    for (const next of order) {
      if (next !== scheme) {
        await page.emulateMedia({ colorScheme: next });
        scheme = next;
      }
      // A dark-only check (the caller left out light) runs every rule.
      await expectNoAxeViolations(page, `${what} at ${width} px, ${scheme}`, scheme === "dark" && schemes.includes("light") ? { only: COLOUR_RULES } : {});
    }
  }
  if (scheme !== "light") await page.emulateMedia({ colorScheme: "light" });
}
