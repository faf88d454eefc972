import type { Metadata } from "next";
import Link from "../../_components/link";
import { notFound } from "next/navigation";
import type { Citation } from "@/lib/content/citations";
import { getMetricExplanation, type MetricExplanation } from "@/lib/content/metrics-explained";
import { Markdown } from "../../_components/markdown";
import { Breadcrumbs, Card } from "../../_components/ui";
import { MathFormula } from "./math-formula";
import { WorkedExampleCard } from "./worked-example";

type Params = Promise<{ metric: string }>;

/** The page's title and description: the metric's name and one-line definition, or "Metric not found" for an unknown id. */
export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { metric } = await params;
  const explanation = getMetricExplanation(metric);
  return explanation ? { title: explanation.name, description: explanation.definition } : { title: "Metric not found" };
}

/**
 * A metric's explanation: definition, formulas (MathML), the reference scorer's conventions,
 * a worked example from the papers scored live by the scorer (through lib/content/metrics-explained),
 * and the source papers. Unknown metric ids are a 404.
 */
export default async function MetricPage({ params }: { params: Params }) {
  const { metric } = await params;
  const explanation = getMetricExplanation(metric);
  if (!explanation) notFound();

  return (
    <div className="space-y-6">
      <MetricHeader explanation={explanation} />
      <Card title="Definition">
        <Markdown source={explanation.description} className="max-w-3xl space-y-3 text-sm text-zinc-800" />
      </Card>
      <FormulaCard explanation={explanation} />
      <ConventionsCard explanation={explanation} />
      <WorkedExampleCard example={explanation.example()} />
      <SourceCard citations={explanation.citations} />
      <p className="text-sm">
        <Link href="/metrics" className="text-zinc-700 underline">
          All metrics
        </Link>
      </p>
    </div>
  );
}

/** The page's title, the metric's one-line definition, and whether it is optional. */
function MetricHeader({ explanation }: { explanation: MetricExplanation }) {
  return (
    <header className="space-y-1">
      <Breadcrumbs links={[{ href: "/metrics", label: "Metrics" }]} />
      <h1 className="text-2xl font-semibold tracking-tight">{explanation.name}</h1>
      <p className="text-sm text-zinc-700" data-testid="metric-definition">
        {explanation.definition}
      </p>
      {explanation.optional && (
        <p>
          <span className="rounded bg-zinc-100 px-1.5 py-0.5 text-xs font-medium text-zinc-700">optional metric: only tasks that switch it on compute it</span>
        </p>
      )}
    </header>
  );
}

/** The formulas, each with its label, and the symbols they use. */
function FormulaCard({ explanation }: { explanation: MetricExplanation }) {
  return (
    <Card title="Formula">
      <dl className="space-y-3" data-testid="metric-formulas">
        {explanation.formulas.map((formula) => (
          <div key={formula.label} className="grid items-center gap-x-4 sm:grid-cols-[12rem_1fr]">
            <dt className="text-sm font-medium text-zinc-700">{formula.label}</dt>
            <dd className="relative overflow-x-auto py-1 text-lg">
              <MathFormula node={formula.math} />
            </dd>
          </div>
        ))}
      </dl>
      {explanation.symbols.length > 0 && (
        <div className="mt-5 border-t border-zinc-100 pt-4">
          <h3 className="text-sm font-medium text-zinc-800">where</h3>
          <dl className="mt-2 space-y-1.5 text-sm text-zinc-700">
            {explanation.symbols.map((symbol, i) => (
              <div key={i} className="flex flex-wrap items-baseline gap-x-2">
                <dt className="shrink-0">
                  <MathFormula node={symbol.math} inline />
                </dt>
                <dd>{symbol.meaning}</dd>
              </div>
            ))}
          </dl>
        </div>
      )}
    </Card>
  );
}

/** How the scorer whose conventions apply computes the metric where the papers leave room (a Markdown list). */
function ConventionsCard({ explanation }: { explanation: MetricExplanation }) {
  return (
    <Card
      title="How Corefboard computes it"
      description={
        explanation.scorer === "corefud"
          ? "The conventions of the CorefUD scorer (v1.2, the CRAC shared task's official scorer), which Corefboard's scorer matches."
          : "The conventions of the CoNLL reference scorer, which Corefboard's scorer matches."
      }
    >
      <Markdown
        source={explanation.conventions}
        components={{
          ul: ({ children }) => (
            <ul className="list-disc space-y-1.5 pl-5 text-sm text-zinc-800" data-testid="metric-conventions">
              {children}
            </ul>
          ),
        }}
      />
    </Card>
  );
}

/** The papers, in full. */
function SourceCard({ citations }: { citations: Citation[] }) {
  return (
    <Card title="Source">
      <ol className="list-decimal space-y-2 pl-5 text-sm text-zinc-800" data-testid="metric-citations">
        {citations.map((citation, i) => (
          <li key={i}>
            <CitationText citation={citation} />
          </li>
        ))}
      </ol>
    </Card>
  );
}

/** A full citation: authors, year, title (linked when it has an address), venue; then its role. */
function CitationText({ citation }: { citation: Citation }) {
  const tail = [citation.venue, citation.pages ? `pages ${citation.pages}` : null, citation.address ?? null].filter(Boolean).join(", ");
  return (
    <>
      {citation.authors}. {citation.year}.{" "}
      {citation.url ? (
        <a href={citation.url} className="font-medium underline" rel="noopener noreferrer">
          {citation.title}
        </a>
      ) : (
        <span className="font-medium">{citation.title}</span>
      )}
      . <span className="italic">{tail}</span>. <span className="text-zinc-500">({citation.role})</span>
    </>
  );
}
