/**
 * The metric pages' prose, in Markdown files under `lib/content/metrics/`: one per metric
 * (`<metric>.md`, e.g. `bcub.md`) and `examples.md` for what every worked example shares.
 *
 * A metric's file reads
 *
 * ```
 * # <name>                        the page's title (plain text)
 * <definition>                    one line of plain text: what the metric measures
 * ## Definition                   a few paragraphs
 * ## How Corefboard computes it   the scorer's conventions, as a list
 * ## Worked example               what to look at in the example's numbers
 * ```
 *
 * and `examples.md` has a title, a line, and the sections `Paper notation`, `CorefUD notation`
 * and `Bagga and Baldwin without figures`. A line starting with `## ` starts a section; the
 * sections are Markdown, which the pages render with the site's renderer
 * (`app/_components/markdown.tsx`). `{{NAME}}` stands for one of the scorer's constants
 * ({@link VALUES}), so that a text cannot contradict the scorer.
 *
 * The files are read with `fs` when a page is rendered, relative to the working directory:
 * the repository root wherever the site runs (Vitest, `next dev`, `next build` and
 * `next start`, which scripts/serve.ts starts in the root), as `lib/scorer/bundle.ts` finds the
 * scorer's bundle. Webpack does not bundle them.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { MAPPED_F_THRESHOLD } from "../../scoring/analysis/mapped-cluster-f";
import type { LeaderboardMetric } from "../validations/metrics";

/** Where the texts are, relative to the repository root. */
const TEXT_DIR = path.join("lib", "content", "metrics");

/** The values a text may name as `{{NAME}}`, as the text shows them. */
const VALUES: Record<string, string> = { MAPPED_F_THRESHOLD: String(MAPPED_F_THRESHOLD) };

/** A metric's sections, in the order its file must have them. */
const METRIC_SECTIONS = ["Definition", "How Corefboard computes it", "Worked example"] as const;

/** The sections of `examples.md`, in order. */
const EXAMPLE_SECTIONS = ["Paper notation", "CorefUD notation", "Bagga and Baldwin without figures"] as const;

/** A text file split at its headings. */
interface TextFile<S extends string> {
  /** The `# ` title. */
  title: string;
  /** The one line between the title and the first section. */
  lead: string;
  /** Each section's Markdown, trimmed, by its `## ` heading. */
  sections: Record<S, string>;
}

/** Text files read so far, by absolute path: they are part of the release and do not change while the site runs. */
const read = new Map<string, TextFile<string>>();

/**
 * Reads a text of {@link TEXT_DIR}, fills in its `{{NAME}}` values and splits it at its headings,
 * once per process (kept in {@link read}).
 *
 * @param name the file's name, e.g. `bcub.md`
 * @param headings the `## ` headings the file must have, in this order and no others
 * @throws Error when the file cannot be read (e.g. the working directory is not the
 *   repository root), names an unknown value, or lacks the title, the one-line lead or a section
 */
function readTextFile<S extends string>(name: string, headings: readonly S[]): TextFile<S> {
  const absolute = path.join(process.cwd(), TEXT_DIR, name);
  const known = read.get(absolute);
  if (known) return known as TextFile<S>;
  const parsed = parseTextFile(name, headings, absolute);
  read.set(absolute, parsed);
  return parsed;
}

/** Reads and checks one text file (see {@link readTextFile}). */
function parseTextFile<S extends string>(name: string, headings: readonly S[], absolute: string): TextFile<S> {
  const file = path.join(TEXT_DIR, name);
  let text: string;
  try {
    text = readFileSync(absolute, "utf8");
  } catch (error) {
    throw new Error(`cannot read ${file} in ${process.cwd()} (the site runs in the repository root): ${(error as Error).message}`);
  }
  text = text.replace(/\r\n?/g, "\n").replace(/\{\{(\w+)\}\}/g, (whole, key: string) => {
    if (!Object.hasOwn(VALUES, key)) throw new Error(`${file}: unknown value ${whole}`);
    return VALUES[key];
  });
  const [head, ...parts] = text.split(/^## /m);
  const title = /^# (.+)\n/.exec(head);
  const lead = title ? head.slice(title[0].length).trim() : "";
  if (!title || lead === "" || lead.includes("\n")) throw new Error(`${file} must start with a "# " title and one line of text`);
  const found = parts.map((part) => part.slice(0, part.indexOf("\n")).trim());
  if (found.join("\n") !== headings.join("\n")) throw new Error(`${file} must have the sections ${headings.map((h) => `"## ${h}"`).join(", ")}, in this order (it has ${found.map((h) => `"## ${h}"`).join(", ") || "none"})`);
  const sections = Object.fromEntries(parts.map((part, i) => [headings[i], part.slice(part.indexOf("\n")).trim()])) as Record<S, string>;
  return { title: title[1].trim(), lead, sections };
}

/** A metric page's prose. */
export interface MetricText {
  /** Full name, e.g. "B³ (B-cubed)" (plain text). */
  name: string;
  /** One line: what the metric measures (plain text). */
  definition: string;
  /** A few paragraphs (Markdown). */
  description: string;
  /** How the reference scorer (and so Corefboard) computes it where papers leave room (Markdown, a list). */
  conventions: string;
  /** What the reader should look at in the worked example's numbers (Markdown). */
  takeaway: string;
}

/**
 * A metric's prose, from `lib/content/metrics/<metric>.md` (see the module comment).
 *
 * @throws Error when the file cannot be read or is not laid out as the module comment says
 */
export function readMetricText(metric: LeaderboardMetric): MetricText {
  const { title, lead, sections } = readTextFile(`${metric}.md`, METRIC_SECTIONS);
  return {
    name: title,
    definition: lead,
    description: sections["Definition"],
    conventions: sections["How Corefboard computes it"],
    takeaway: sections["Worked example"],
  };
}

/** What the worked examples of every metric share (Markdown). */
export interface SharedExampleTexts {
  /** How a page writes the mentions of a paper example (one-token letters). */
  paperNotation: string;
  /** How a page writes the mentions of a CorefUD example (word sets with positions). */
  corefudNotation: string;
  /** Said after the takeaway of a metric that Bagga & Baldwin's example shows without their figures. */
  baggaBaldwinNote: string;
}

/**
 * The worked examples' shared prose, from `lib/content/metrics/examples.md`.
 *
 * @throws Error when the file cannot be read or is not laid out as the module comment says
 */
export function readExampleTexts(): SharedExampleTexts {
  const { sections } = readTextFile("examples.md", EXAMPLE_SECTIONS);
  return {
    paperNotation: sections["Paper notation"],
    corefudNotation: sections["CorefUD notation"],
    baggaBaldwinNote: sections["Bagga and Baldwin without figures"],
  };
}
