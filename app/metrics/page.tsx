import type { Metadata } from "next";
import Link from "../_components/link";
import { shortCitation } from "@/lib/content/citations";
import { getMetricExplanation, METRIC_IDS, type MetricExplanation } from "@/lib/content/metrics-explained";
import { Table } from "../_components/ui";

export const metadata: Metadata = {
  title: "Metrics",
  description: "What each coreference metric on Corefboard measures: definitions, formulas, source papers and worked examples.",
};

/** The list of metrics, each with its one-line definition and source, linking to its page. */
export default function MetricsPage() {
  const explanations = METRIC_IDS.map((id) => getMetricExplanation(id)).filter((e): e is MetricExplanation => e !== null);
  return (
    <div className="space-y-6">
      <header className="space-y-2">
        <h1 className="text-2xl font-semibold tracking-tight">Metrics</h1>
        <p className="max-w-3xl text-sm text-zinc-700">
          How Corefboard scores coreference. Each page gives the metric&apos;s definition, its formula, the paper it comes from and a worked example (from
          the papers, or made for the page where the paper prints none), scored live by the same scorer that scores submissions. Scores follow the CoNLL
          reference scorer for CoNLL-2012 input and the CorefUD scorer (the CRAC shared task&apos;s) for CorefUD CoNLL-U input and for its own metrics, MOR
          and the zero anaphor score: count metrics add their numerators and denominators over all documents and divide once, and percentages are shown
          with 2 decimals.
        </p>
      </header>

      <section className="rounded-lg border border-zinc-200 bg-white p-6 shadow-sm">
        <Table columns={["Metric", "What it measures", "Source"]} label="Metrics" testId="metrics-list">
          {explanations.map((e) => (
            <tr key={e.id} data-testid="metric-item" data-metric={e.id}>
              <td className="py-3 pr-4 align-top">
                <Link href={`/metrics/${e.id}`} className="whitespace-nowrap font-medium text-zinc-900 underline">
                  {e.name}
                </Link>
                {e.optional && <span className="ml-2 rounded bg-zinc-100 px-1.5 py-0.5 text-xs font-medium text-zinc-700">optional</span>}
              </td>
              <td className="py-3 pr-4 align-top text-zinc-700">{e.definition}</td>
              <td className="whitespace-nowrap py-3 align-top text-zinc-600">{e.citations[0] ? shortCitation(e.citations[0]) : "—"}</td>
            </tr>
          ))}
        </Table>
      </section>
    </div>
  );
}
