/**
 * One look per run, shared by every chart of a page: a colour and a marker shape, chosen from
 * the run's position in board order (its rank order: 0 for the first run listed). Both
 * leaderboard charts (the F1 bars and the precision–recall scatter) look a run up by its id in
 * the same {@link runStyles} map, so a run has the same colour in each, even where one chart
 * leaves runs out (the scatter skips runs without recall and precision).
 *
 * The colours are the Okabe–Ito palette (Okabe & Ito 2008, "Color Universal Design"), safe for
 * colour-blind readers, darkened where the original is too light on white, plus two darker
 * Tailwind shades in place of its yellow and sky blue. Every colour has a contrast ratio of at
 * least 3:1 against white, as WCAG 2.1 success criterion 1.4.11 (non-text contrast) asks of
 * the parts of a chart a reader must see. In dark mode (prefers-color-scheme) a run takes the
 * colour at the same position of {@link RUN_PALETTE_DARK}, the Okabe–Ito originals (a light
 * grey for its black), 3:1 or more against the dark chart surface: a run's colour is the CSS
 * variable `--run-colour-N`, which app/globals.css sets to one palette or the other
 * (app/theme-contrast.test.ts checks that both lists and the stylesheet agree). Colour is never the only signal: each chart names
 * its runs in text (axis labels, legend, tooltip, data table), and the scatter also varies the
 * marker shape. With 8 colours and 7 shapes, position `i` gets colour `i mod 8` and shape
 * `i mod 7`, so the first 56 runs all differ in colour or shape.
 */

/** The run colours in light mode, in order (hex, `#rrggbb`; ratios against white). */
export const RUN_PALETTE = [
  "#0072B2", // Okabe–Ito blue (5.2:1)
  "#D55E00", // Okabe–Ito vermillion (3.9:1)
  "#008463", // Okabe–Ito bluish green #009E73, darkened (4.7:1)
  "#B8558E", // Okabe–Ito reddish purple #CC79A7, darkened (4.4:1)
  "#9E6A00", // Okabe–Ito orange #E69F00, darkened (4.6:1)
  "#6D28D9", // Tailwind violet-700, for Okabe–Ito's sky blue (7.1:1)
  "#3F3F46", // Tailwind zinc-700, for Okabe–Ito's black (10.4:1)
  "#4D7C0F", // Tailwind lime-700, for Okabe–Ito's yellow (5.0:1)
] as const;

/**
 * The run colours in dark mode, position by position (hex, `#rrggbb`): Okabe & Ito's own
 * colours, each in the place of its darkened or replaced light-mode stand-in, and zinc-300 for
 * its black. Ratios against the dark chart surface (`--color-white` in dark mode, #111114).
 */
export const RUN_PALETTE_DARK = [
  "#0072B2", // Okabe–Ito blue (3.6:1)
  "#D55E00", // Okabe–Ito vermillion (4.9:1)
  "#009E73", // Okabe–Ito bluish green (5.5:1)
  "#CC79A7", // Okabe–Ito reddish purple (6.2:1)
  "#E69F00", // Okabe–Ito orange (8.4:1)
  "#56B4E9", // Okabe–Ito sky blue (8.2:1)
  "#D4D4D8", // Tailwind zinc-300, for Okabe–Ito's black (12.7:1)
  "#F0E442", // Okabe–Ito yellow (14.2:1)
] as const;

/**
 * The CSS colour of palette position `i`: the variable app/globals.css sets to
 * `RUN_PALETTE[i]`, or `RUN_PALETTE_DARK[i]` in dark mode (usable in SVG `fill`/`stroke`).
 */
function paletteColour(i: number): string {
  return `var(--run-colour-${i})`;
}

/** Marker shapes of the scatter chart, in order (recharts' symbol names). */
export const RUN_SHAPES = ["circle", "square", "triangle", "diamond", "cross", "star", "wye"] as const;

/** A marker shape. */
export type RunShape = (typeof RUN_SHAPES)[number];

/** Area in square pixels of a legend's or table's marker ({@link SWATCH_PATHS}). */
export const SWATCH_SIZE = 56;

/**
 * Each marker shape's SVG path around (0, 0) at {@link SWATCH_SIZE}: what recharts' `Symbols`
 * draws (d3-shape's symbols) with its coordinates rounded to 2 decimals (hundredths of a pixel
 * in a 14-pixel swatch; d3 writes 16 digits, which made a 50-run legend 6 kB larger), written
 * out once instead of computed for each marker of each page view (a board's legend has one per
 * run). run-colours.test.ts checks them against `Symbols`, rounded the same way.
 */
export const SWATCH_PATHS: Readonly<Record<RunShape, string>> = {
  circle: "M4.22,0A4.22,4.22,0,1,1,-4.22,0A4.22,4.22,0,1,1,4.22,0",
  square: "M-3.74,-3.74h7.48v7.48h-7.48Z",
  triangle: "M0,-6.57L5.69,3.28L-5.69,3.28Z",
  diamond: "M0,-6.96L4.02,0L0,6.96L-4.02,0Z",
  cross: "M-5.02,-1.67L-1.67,-1.67L-1.67,-5.02L1.67,-5.02L1.67,-1.67L5.02,-1.67L5.02,1.67L1.67,1.67L1.67,5.02L-1.67,5.02L-1.67,1.67L-5.02,1.67Z",
  star: "M0,-7.06L1.59,-2.18L6.72,-2.18L2.57,0.83L4.15,5.71L0,2.7L-4.15,5.71L-2.57,0.83L-6.72,-2.18L-1.59,-2.18Z",
  wye: "M2.02,1.17L2.02,5.2L-2.02,5.2L-2.02,1.17L-5.52,-0.85L-3.5,-4.35L0,-2.33L3.5,-4.35L5.52,-0.85Z",
};

/** The colour of a single series (e.g. a team's progress line): the palette's first (a CSS colour). */
export const SERIES_COLOUR: string = paletteColour(0);

/**
 * The colour of reference lines (e.g. "best so far") in light mode: Tailwind zinc-600, 7.7:1
 * on white; {@link REFERENCE_HEX_DARK} in dark mode.
 */
export const REFERENCE_HEX = "#52525B";

/** The colour of reference lines in dark mode: Tailwind zinc-400, 7.3:1 on the dark chart surface. */
export const REFERENCE_HEX_DARK = "#A1A1AA";

/** The colour of reference lines, as a CSS colour: `--run-colour-reference`, {@link REFERENCE_HEX} or {@link REFERENCE_HEX_DARK}. */
export const REFERENCE_COLOUR = "var(--run-colour-reference)";

/** How a run is drawn. */
export interface RunStyle {
  /** the run's position in board order, from 0 */
  position: number;
  /** its colour, a CSS colour (`var(--run-colour-N)`: `RUN_PALETTE[N]`, or `RUN_PALETTE_DARK[N]` in dark mode) */
  colour: string;
  /** its marker shape (scatter charts) */
  shape: RunShape;
}

/**
 * The style of the run at a position in board order.
 *
 * @param position 0 for the first run; a whole number ≥ 0
 * @returns colour `var(--run-colour-(position mod 8))` (`RUN_PALETTE[position mod 8]` in light mode), shape `RUN_SHAPES[position mod 7]`
 * @throws RangeError when `position` is negative or not a whole number
 */
export function runStyle(position: number): RunStyle {
  if (!Number.isInteger(position) || position < 0) throw new RangeError(`A run's position is a whole number ≥ 0, not ${position}.`);
  return { position, colour: paletteColour(position % RUN_PALETTE.length), shape: RUN_SHAPES[position % RUN_SHAPES.length] };
}

/**
 * The style of each run of a page, by run id: the one function every chart of the page uses,
 * so a run looks the same in all of them.
 *
 * @param ids the runs' ids in board order (rank order); a repeated id keeps its first position
 * @returns run id → its {@link RunStyle} (position = index of its first occurrence among the distinct ids)
 */
export function runStyles(ids: readonly string[]): Map<string, RunStyle> {
  const styles = new Map<string, RunStyle>();
  for (const id of ids) if (!styles.has(id)) styles.set(id, runStyle(styles.size));
  return styles;
}

/** WCAG relative luminance of an sRGB `#rrggbb` colour, in [0, 1]. */
function luminance(hex: string): number {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!match) throw new RangeError(`Not a #rrggbb colour: ${hex}`);
  const [r, g, b] = match.slice(1).map((h) => {
    const c = parseInt(h, 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/**
 * The WCAG 2.1 contrast ratio of two colours: (L1 + 0.05) / (L2 + 0.05), L1 the lighter's
 * relative luminance.
 *
 * @param a a colour, `#rrggbb`
 * @param b another, `#rrggbb`
 * @returns a ratio from 1 (same luminance) to 21 (black on white)
 * @throws RangeError for a string that is not `#rrggbb`
 */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}
