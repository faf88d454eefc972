/**
 * The colours of both schemes (light, and dark through prefers-color-scheme in
 * app/globals.css) against WCAG 2.1 AA: every text and background pair the app uses has a
 * contrast ratio of at least 4.5:1 (success criterion 1.4.3), every border, ring or outline
 * that carries meaning and every chart colour at least 3:1 against what it sits on (1.4.11).
 *
 * The colours are resolved as the browser resolves them: Tailwind's palette from
 * node_modules/tailwindcss/theme.css (oklch), then the overrides of app/globals.css (the dark
 * block redefines the palette variables the utilities read). The pairs are the app's own, from
 * a search of its class names (`grep -rhoE "(bg|text|border|ring|…)-[a-z]+-[0-9]+" app`, and
 * which classes share an element or sit on which background); a test below fails when the app
 * starts using a colour scale the dark scheme does not turn around.
 */
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REFERENCE_HEX, REFERENCE_HEX_DARK, RUN_PALETTE, RUN_PALETTE_DARK } from "./_components/charts/run-colours";

const APP = path.dirname(new URL(import.meta.url).pathname);

// ---------------------------------------------------------------------------------------------
// Colour arithmetic

/** An sRGB colour, gamma-encoded, each channel in [0, 1]. */
type Rgb = [number, number, number];

/** A 3×3 matrix times a vector. */
function times(m: readonly (readonly number[])[], v: readonly number[]): Rgb {
  return m.map((row) => row[0]! * v[0]! + row[1]! * v[1]! + row[2]! * v[2]!) as Rgb;
}

// OKLCH → sRGB as CSS Color Module Level 4 defines it (https://www.w3.org/TR/css-color-4/,
// §9 "Device-independent Colors: Oklab and Oklch" and §18 "Sample code for color conversions",
// whose matrices these are): OKLCH → OKLab (polar to rectangular), OKLab → non-linear LMS →
// (cubed) linear LMS → CIE XYZ (D65) → linear-light sRGB → gamma-encoded sRGB. A colour outside
// sRGB is clipped channel by channel, as a browser shows it on an sRGB screen.
const OKLAB_TO_LMS = [
  [1.0, 0.3963377773761749, 0.2158037573099136],
  [1.0, -0.1055613458156586, -0.0638541728258133],
  [1.0, -0.0894841775298119, -1.2914855480194092],
];
const LMS_TO_XYZ = [
  [1.2268798758459243, -0.5578149944602171, 0.2813910456659647],
  [-0.0405757452148008, 1.112286803280317, -0.0717110580655164],
  [-0.0763729366746601, -0.4214933324022432, 1.5869240198367816],
];
const XYZ_TO_LINEAR_SRGB = [
  [12831 / 3959, -329 / 214, -1974 / 3959],
  [-851781 / 878810, 1648619 / 878810, 36519 / 878810],
  [705 / 12673, -2585 / 12673, 705 / 667],
];

/** The sRGB transfer function (linear light → gamma-encoded), CSS Color 4's `gam_sRGB`. */
function encode(linear: number): number {
  return linear > 0.0031308 ? 1.055 * linear ** (1 / 2.4) - 0.055 : 12.92 * linear;
}

/** `oklch(L C H)` (L from 0 to 1, H in degrees) as clipped sRGB. */
export function oklchToSrgb(l: number, c: number, h: number): Rgb {
  const radians = (h * Math.PI) / 180;
  const lms = times(OKLAB_TO_LMS, [l, c * Math.cos(radians), c * Math.sin(radians)]).map((x) => x ** 3);
  return times(XYZ_TO_LINEAR_SRGB, times(LMS_TO_XYZ, lms)).map((x) => Math.min(1, Math.max(0, encode(x)))) as Rgb;
}

/** A number of an `oklch()`: `none` is 0; a percentage of L is divided by 100. */
function component(text: string, percentScale: number): number {
  if (text === "none") return 0;
  return text.endsWith("%") ? (Number(text.slice(0, -1)) / 100) * percentScale : Number(text);
}

/**
 * A CSS colour as sRGB: `#rgb`, `#rrggbb` or `oklch(L C H)` (what Tailwind's theme and
 * app/globals.css use).
 * @throws Error for any other form, so that a new kind of value cannot slip past the test
 */
export function parseColour(css: string): Rgb {
  const text = css.trim().toLowerCase();
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/.exec(text);
  if (hex) {
    const digits = hex[1]!.length === 3 ? [...hex[1]!].map((d) => d + d).join("") : hex[1]!;
    return [0, 2, 4].map((i) => parseInt(digits.slice(i, i + 2), 16) / 255) as Rgb;
  }
  const oklch = /^oklch\(\s*(\S+)\s+(\S+)\s+(\S+)\s*\)$/.exec(text);
  if (oklch) return oklchToSrgb(component(oklch[1]!, 1), component(oklch[2]!, 0.4), component(oklch[3]!, 1));
  throw new Error(`Not a colour this test reads: ${css}`);
}

/** sRGB as `#rrggbb`. */
function toHex(rgb: Rgb): string {
  return `#${rgb.map((x) => Math.round(x * 255).toString(16).padStart(2, "0")).join("")}`;
}

/**
 * WCAG 2.1's relative luminance of an sRGB colour
 * (https://www.w3.org/TR/WCAG21/#dfn-relative-luminance).
 */
export function relativeLuminance([r, g, b]: Rgb): number {
  const linear = (c: number) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/** WCAG 2.1's contrast ratio (https://www.w3.org/TR/WCAG21/#dfn-contrast-ratio), from 1 to 21. */
export function contrast(a: Rgb, b: Rgb): number {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

/** `top` at opacity `alpha` over `bottom` (source-over, in gamma-encoded sRGB as browsers blend). */
function over(top: Rgb, alpha: number, bottom: Rgb): Rgb {
  return top.map((c, i) => c * alpha + bottom[i]! * (1 - alpha)) as Rgb;
}

// ---------------------------------------------------------------------------------------------
// The stylesheets

/** CSS without its comments. */
function withoutComments(css: string): string {
  return css.replace(/\/\*[\s\S]*?\*\//g, "");
}

/** The custom properties declared in `css` (`--name: value;`), later ones winning. */
function customProperties(css: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const m of css.matchAll(/(--[\w-]+)\s*:\s*([^;{}]+);/g)) found.set(m[1]!, m[2]!.trim());
  return found;
}

/** The bodies of the `@media (prefers-color-scheme: dark)` blocks of `css` (braces matched). */
function darkBlocks(css: string): { bodies: string[]; rest: string } {
  const bodies: string[] = [];
  let rest = "";
  let from = 0;
  for (const m of css.matchAll(/@media\s*\(\s*prefers-color-scheme\s*:\s*dark\s*\)\s*\{/g)) {
    if (m.index! < from) continue;
    let depth = 1;
    let i = m.index! + m[0].length;
    for (; depth > 0 && i < css.length; i++) depth += css[i] === "{" ? 1 : css[i] === "}" ? -1 : 0;
    rest += css.slice(from, m.index);
    bodies.push(css.slice(m.index! + m[0].length, i - 1));
    from = i;
  }
  return { bodies, rest: rest + css.slice(from) };
}

const require = createRequire(import.meta.url);
const THEME_CSS = readFileSync(path.join(path.dirname(require.resolve("tailwindcss")), "..", "theme.css"), "utf8");
const GLOBALS_CSS = withoutComments(readFileSync(path.join(APP, "globals.css"), "utf8"));

/** Tailwind's own values (`--color-zinc-600` …). */
const TAILWIND = customProperties(withoutComments(THEME_CSS));
const { bodies: DARK_BODIES, rest: GLOBALS_LIGHT } = darkBlocks(GLOBALS_CSS);
/** What app/globals.css declares outside dark mode. */
const LIGHT_OVERRIDES = customProperties(GLOBALS_LIGHT);
/** What app/globals.css declares for dark mode. */
const DARK_OVERRIDES = customProperties(DARK_BODIES.join("\n"));

type Scheme = "light" | "dark";

/** The value of a custom property in a scheme, with `var()` references followed. */
function variable(name: string, scheme: Scheme, depth = 0): string {
  const value = (scheme === "dark" ? DARK_OVERRIDES.get(name) : undefined) ?? LIGHT_OVERRIDES.get(name) ?? TAILWIND.get(name);
  if (value === undefined) throw new Error(`${name} is not defined (${scheme})`);
  const reference = /^var\(\s*(--[\w-]+)\s*\)$/.exec(value);
  if (!reference) return value;
  if (depth > 10) throw new Error(`${name}: var() loop`);
  return variable(reference[1]!, scheme, depth + 1);
}

/**
 * A colour as the app writes it, in a scheme: a Tailwind colour name (`zinc-600`, `white`),
 * optionally with an opacity over another (`white/70 over red-50`).
 */
function colour(name: string, scheme: Scheme): Rgb {
  const composite = /^([a-z]+(?:-\d+)?)\/(\d+) over ([a-z]+(?:-\d+)?)$/.exec(name);
  if (composite) return over(colour(composite[1]!, scheme), Number(composite[2]) / 100, colour(composite[3]!, scheme));
  return parseColour(variable(`--color-${name}`, scheme));
}

// ---------------------------------------------------------------------------------------------
// The pairs the app uses

/** The colour scales the dark block turns around: every scale the app's classes use. */
const DARK_SCALES = ["zinc", "red", "amber", "emerald", "sky", "rose", "indigo", "violet", "teal"];

/** A foreground on a background, with where it is used. */
type Pair = [foreground: string, background: string, where: string];

/**
 * Text on its background (4.5:1). The page is zinc-50, cards and inputs white; tinted boxes,
 * badges and table rows carry their own background class.
 */
const TEXT_PAIRS: Pair[] = [
  // Grey text on the page, on cards, on table heads and boxes (zinc-50).
  ...["zinc-500", "zinc-600", "zinc-700", "zinc-800", "zinc-900", "zinc-950"].flatMap((text): Pair[] => [
    [text, "white", "cards, inputs, the header"],
    [text, "zinc-50", "the page, table heads, read-only fields, the document view's head"],
  ]),
  ["zinc-600", "zinc-100", "task-phase-badge"],
  ["zinc-700", "zinc-100", "badges, run-warnings, hover on buttons"],
  ["zinc-800", "zinc-100", "run-status-label, task-markdown code"],
  ["zinc-800", "zinc-200", "task-card, submission and console badges"],
  ["zinc-500", "amber-50", "metric page: — in the main score row"],
  ["zinc-700", "amber-50", "board-table and metric page rows marked amber"],
  ["zinc-900", "amber-50", "metric page: the main score row"],
  ["zinc-700", "sky-50", "board-table: your team's rows"],
  ["zinc-900", "sky-50", "board-table: your team's rows"],
  ["zinc-900", "sky-50", "document view: the error a link points to"],
  ["white", "zinc-700", "badges, hover of the primary button"],
  ["white", "zinc-900", "primary button, header"],
  ["white", "red-700", "delete-account button"],
  ["white", "red-600", "delete-account button, hover"],
  ["red-700", "white", "error text, danger buttons"],
  ["red-700", "red-50", "danger button, hover"],
  ["red-800", "white", "phase-actions, board-table"],
  ["red-800", "red-50", "error notices, run-status-label"],
  ["red-800", "white/70 over red-50", "run-failure: the file's line"],
  ["red-900", "red-100", "submission and console badges"],
  ["amber-800", "white", "board-table, run-datasets"],
  ["amber-900", "white", "warnings outside a box"],
  ["amber-900", "amber-50", "upload form, notices"],
  ["amber-950", "amber-50", "upload form"],
  ["amber-900", "amber-100", "badges"],
  ["emerald-700", "white", "account, gold versions, metric page"],
  ["emerald-800", "white", "task-card, console"],
  ["emerald-800", "emerald-50", "task-phase-badge"],
  ["emerald-900", "emerald-50", "run-status-label, notices"],
  ["emerald-900", "emerald-100", "badges"],
  ["sky-700", "white", "phase-submissions-table"],
  ["sky-800", "white", "board-table, board-significance"],
  ["sky-900", "white", "board-table"],
  ["sky-800", "sky-50", "task-phase-badge"],
  ["sky-900", "sky-50", "run-status-label"],
  ["sky-950", "sky-50", "phase-date-preview"],
  ["sky-900", "sky-100", "badges, metric page entity K1"],
  ["amber-900", "amber-100", "metric page entity K2"],
  ["emerald-900", "emerald-100", "metric page entity K3"],
  ["rose-900", "rose-100", "board-table badge, metric page entity K4"],
  ["violet-900", "violet-100", "metric page entity K5"],
  ["teal-900", "teal-100", "metric page entity K6"],
  ["indigo-900", "indigo-100", "board-table and team badges"],
];

/** Borders, rings and outlines that carry meaning, on what surrounds them (3:1). */
const UI_PAIRS: Pair[] = [
  ["zinc-500", "white", "focused input's border (focus:border-zinc-500), board-table's ? marker"],
  ["red-500", "white", "invalid input's border, team-members' focus ring"],
  ["zinc-700", "white", "scroll-table's focus ring"],
  ["zinc-900", "zinc-50", "skip link's focus ring"],
  ["zinc-900", "white", "skip link's focus ring, over the header"],
  ["sky-700", "white", "document view: focus and target outline"],
  ["red-700", "white", "document view: a mention that differs"],
];

const SCHEMES: Scheme[] = ["light", "dark"];

/** The pairs under `min` in a scheme, as readable lines. */
function failures(pairs: Pair[], scheme: Scheme, min: number): string[] {
  return pairs.flatMap(([fg, bg, where]) => {
    const ratio = contrast(colour(fg, scheme), colour(bg, scheme));
    return ratio < min ? [`${fg} on ${bg} (${where}): ${ratio.toFixed(2)}:1`] : [];
  });
}

// ---------------------------------------------------------------------------------------------

describe("colour arithmetic", () => {
  it("gives WCAG's contrast for known pairs", () => {
    expect(contrast(parseColour("#000"), parseColour("#fff"))).toBeCloseTo(21, 6);
    expect(contrast(parseColour("#767676"), parseColour("#ffffff"))).toBeGreaterThanOrEqual(4.5);
    expect(contrast(parseColour("#777777"), parseColour("#ffffff"))).toBeLessThan(4.5);
  });

  it("converts oklch to the sRGB Tailwind publishes for its palette", () => {
    // Tailwind's docs list these hex equivalents of its v4 oklch colours.
    expect(toHex(parseColour(TAILWIND.get("--color-zinc-500")!))).toBe("#71717b");
    expect(toHex(parseColour(TAILWIND.get("--color-zinc-900")!))).toBe("#18181b");
    expect(toHex(parseColour(TAILWIND.get("--color-red-700")!))).toBe("#c10007");
    expect(toHex(parseColour(TAILWIND.get("--color-sky-700")!))).toBe("#0069a8");
    // `none` hue, percentages, and the ends of the lightness axis.
    expect(toHex(parseColour("oklch(98.5% 0 none)"))).toBe("#fafafa");
    expect(toHex(parseColour("oklch(1 0 0)"))).toBe("#ffffff");
    expect(toHex(parseColour("oklch(0% 0 0)"))).toBe("#000000");
    // sRGB's red is oklch(62.8% 0.2577 29.23) (CSS Color 4's examples).
    expect(toHex(parseColour("oklch(62.8% 0.2577 29.23)"))).toBe("#ff0000");
  });

  it("refuses colour forms it does not read", () => {
    expect(() => parseColour("rgb(1 2 3)")).toThrow();
    expect(() => parseColour("red")).toThrow();
  });
});

describe("app/globals.css", () => {
  it("has a dark block that turns every used scale around (50 ↔ 950 … 400 ↔ 600), zinc-500 lighter, white dark and black white", () => {
    const steps = [50, 100, 200, 300, 400, 500, 600, 700, 800, 900, 950];
    for (const scale of DARK_SCALES) {
      steps.forEach((step, i) => {
        const mirror = steps[steps.length - 1 - i]!;
        if (step === 500) return;
        expect(variable(`--color-${scale}-${step}`, "dark"), `${scale}-${step}`).toBe(TAILWIND.get(`--color-${scale}-${mirror}`));
      });
      if (scale !== "zinc") expect(variable(`--color-${scale}-500`, "dark")).toBe(TAILWIND.get(`--color-${scale}-500`));
    }
    expect(relativeLuminance(colour("zinc-500", "dark"))).toBeGreaterThan(relativeLuminance(parseColour(TAILWIND.get("--color-zinc-500")!)));
    // The cards' surface is darker than zinc-100's tint and lighter than the page.
    const l = (name: string) => relativeLuminance(colour(name, "dark"));
    expect(l("white")).toBeLessThan(l("zinc-100"));
    expect(l("white")).toBeGreaterThan(l("zinc-50"));
    expect(toHex(colour("black", "dark"))).toBe("#ffffff");
    // Light mode is Tailwind's own palette.
    expect(colour("white", "light")).toEqual(parseColour("#fff"));
    expect(variable("--color-zinc-600", "light")).toBe(TAILWIND.get("--color-zinc-600"));
  });

  it("turns around every colour scale the app's classes and styles use (a new scale needs its dark values)", () => {
    const used = new Set<string>();
    const classes = /(?:\b(?:bg|text|border|ring|outline|fill|stroke|from|via|to|divide|decoration|accent|placeholder|caret|shadow)-|--color-)([a-z]+)-(?:50|[1-9]00|950)\b/g;
    const files = readdirSync(APP, { recursive: true, withFileTypes: true }).filter((e) => e.isFile() && /\.(tsx?|css)$/.test(e.name) && !e.name.endsWith(".test.ts"));
    for (const file of files) for (const m of readFileSync(path.join(file.parentPath, file.name), "utf8").matchAll(classes)) used.add(m[1]!);
    expect(used.size).toBeGreaterThan(5);
    expect([...used].filter((scale) => !DARK_SCALES.includes(scale)).sort()).toEqual([]);
  });

  for (const scheme of SCHEMES) {
    it(`keeps every text pair the app uses at 4.5:1 or more, ${scheme}`, () => {
      expect(failures(TEXT_PAIRS, scheme, 4.5)).toEqual([]);
    });

    it(`keeps borders, rings and outlines that carry meaning at 3:1 or more, ${scheme}`, () => {
      expect(failures(UI_PAIRS, scheme, 3)).toEqual([]);
    });
  }

  it("sets the chart run colours to run-colours.ts's palettes, each 3:1 or more on the chart's surface in its scheme", () => {
    const palettes: Record<Scheme, readonly string[]> = { light: [...RUN_PALETTE, REFERENCE_HEX], dark: [...RUN_PALETTE_DARK, REFERENCE_HEX_DARK] };
    for (const scheme of SCHEMES) {
      const names = [...RUN_PALETTE.map((_, i) => `--run-colour-${i}`), "--run-colour-reference"];
      names.forEach((name, i) => {
        const value = variable(name, scheme);
        expect(value.toLowerCase(), `${name} (${scheme})`).toBe(palettes[scheme][i]!.toLowerCase());
        expect(contrast(parseColour(value), colour("white", scheme)), `${name} (${scheme}) on the chart`).toBeGreaterThanOrEqual(3);
      });
    }
  });

  it("is checked by a test that fails: a pair under the threshold is reported", () => {
    expect(failures([["zinc-400", "white", "a grey too light"]], "light", 4.5)).toEqual([expect.stringMatching(/^zinc-400 on white \(a grey too light\): 2\.\d\d:1$/)]);
    expect(failures([["zinc-600", "white", "made light in dark mode"]], "dark", 4.5)).toEqual([]);
  });
});
