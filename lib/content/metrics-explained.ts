/**
 * What each metric means, for the metric explanation pages (`app/metrics/`): its name, a
 * one-line definition, a description and the reference scorer's conventions (Markdown, in
 * `lib/content/metrics/<metric>.md`, read by `metric-texts.ts`), its formulas (`formulas.ts`),
 * the papers it comes from (`citations.ts`), and a worked example from the papers
 * (`scoring/examples/papers.ts`) scored live by `scoring/` (`worked-examples.ts`), with the
 * scorer's exact numerators and denominators and, where the paper prints figures, the
 * comparison with them.
 *
 * The metrics defined by the CorefUD scorer (MOR and the zero anaphor score, flagged `corefud`
 * in the registry) are explained with its conventions and scored on examples in the CorefUD
 * format (`lib/content/corefud-examples.ts`), as the scorer scores CorefUD CoNLL-U files.
 *
 * The ids, labels and which metrics are optional come from `lib/validations/metrics.ts` (on
 * top of the scorer's registry); this file puts each metric's explanation together.
 *
 * Nothing here is a hard-coded score: every number on a page comes from `example()`, which
 * runs the scorer. The exact fractions (e.g. 16/21) are recovered from the scorer's floating
 * counts by continued fractions and kept only when they reproduce the scorer's value.
 */
import { BAGGA_BALDWIN_1998, VILAIN_1995, type PaperExample } from "../../scoring/examples/papers";
import { metricSpec } from "../../scoring/metrics/registry";
import { METRIC_CITATIONS, type Citation } from "./citations";
import { MOR_EXAMPLE, ZERO_EXAMPLE, type CorefUDExample } from "./corefud-examples";
import { METRIC_FORMULAS, type Formula, type FormulaSymbol } from "./formulas";
import { readExampleTexts, readMetricText } from "./metric-texts";
import { scoreCorefUDExample, scoreExample, type WorkedExample } from "./worked-examples";
import { isLeaderboardMetric, METRIC_IDS, METRIC_LABELS, type LeaderboardMetric } from "../validations/metrics";

/** The metrics that have an explanation page, in display order: every leaderboard metric. */
export { METRIC_IDS };

/** One of {@link METRIC_IDS}; also the page's URL segment (`/metrics/<id>`). */
export type MetricId = LeaderboardMetric;

/** True when `id` is one of {@link METRIC_IDS}. */
export function isMetricId(id: string): id is MetricId {
  return isLeaderboardMetric(id);
}

/** Everything a metric's page shows. */
export interface MetricExplanation {
  id: MetricId;
  /** Short name as in table headers, e.g. "B³" (`METRIC_LABELS`). */
  label: string;
  /** Whose conventions it follows: the CoNLL reference scorer's, or the CorefUD scorer's (registry flag `corefud`). */
  scorer: "reference" | "corefud";
  /** Full name, e.g. "B³ (B-cubed)" (plain text). */
  name: string;
  /** One line: what the metric measures (plain text). */
  definition: string;
  /** A few paragraphs (Markdown). */
  description: string;
  formulas: Formula[];
  symbols: FormulaSymbol[];
  /** How the reference scorer (and so Corefboard) computes it where papers leave room (Markdown, a list). */
  conventions: string;
  /** The defining paper first. */
  citations: Citation[];
  /** True for metrics that only some tasks compute (the registry's optional metrics). */
  optional: boolean;
  /** The worked example, scored now by `scoring/`. */
  example(): WorkedExample;
}

/**
 * The example a metric's page works through: one of the papers' (with Bagga & Baldwin's note
 * after the takeaway where the papers print no figures for the metric), or one in the CorefUD format.
 */
type ExampleSource = { paper: PaperExample; baggaBaldwinNote?: true } | { corefud: CorefUDExample };

const VILAIN_FIRST = VILAIN_1995[0];
const VILAIN_COMPLEX = VILAIN_1995[2];

/** Each metric's worked example. */
const EXAMPLES: Record<MetricId, ExampleSource> = {
  mentions: { paper: VILAIN_COMPLEX },
  muc: { paper: VILAIN_FIRST },
  bcub: { paper: BAGGA_BALDWIN_1998 },
  ceafm: { paper: BAGGA_BALDWIN_1998, baggaBaldwinNote: true },
  ceafe: { paper: BAGGA_BALDWIN_1998, baggaBaldwinNote: true },
  lea: { paper: BAGGA_BALDWIN_1998, baggaBaldwinNote: true },
  blanc: { paper: BAGGA_BALDWIN_1998, baggaBaldwinNote: true },
  conll: { paper: BAGGA_BALDWIN_1998, baggaBaldwinNote: true },
  mcf: { paper: BAGGA_BALDWIN_1998, baggaBaldwinNote: true },
  mor: { corefud: MOR_EXAMPLE },
  zero: { corefud: ZERO_EXAMPLE },
};

/** A metric's worked example, scored now, with its takeaway (Markdown) and the notation of its kind of example. */
function workedExample(metric: MetricId, takeaway: string): WorkedExample {
  const source = EXAMPLES[metric];
  const shared = readExampleTexts();
  if ("corefud" in source) return scoreCorefUDExample(source.corefud, metric, { notation: shared.corefudNotation, takeaway });
  const note = source.baggaBaldwinNote ? ` ${shared.baggaBaldwinNote}` : "";
  return scoreExample(source.paper, metric, { notation: shared.paperNotation, takeaway: `${takeaway}${note}` });
}

/**
 * The explanation of a metric.
 *
 * @param id a page id (see {@link METRIC_IDS}); anything else, including inherited object
 *   keys such as "constructor", is unknown
 * @returns the explanation, or null for an unknown id
 * @throws Error when the metric's text (`lib/content/metrics/<id>.md`) cannot be read or is
 *   malformed (see `metric-texts.ts`)
 */
export function getMetricExplanation(id: string): MetricExplanation | null {
  if (!isMetricId(id)) return null;
  const spec = id === "conll" ? null : metricSpec(id);
  const { takeaway, ...text } = readMetricText(id);
  return {
    id,
    label: METRIC_LABELS[id],
    scorer: spec?.corefud ? "corefud" : "reference",
    optional: spec?.optional ?? false,
    ...text,
    ...METRIC_FORMULAS[id],
    citations: METRIC_CITATIONS[id],
    example: () => workedExample(id, takeaway),
  };
}
