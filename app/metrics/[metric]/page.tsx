import type { Metadata } from "next";
import Link from "../../_components/link";
import { notFound } from "next/navigation";
import { createElement, Fragment, type ReactNode } from "react";
import {
  fractionText,
  getMetricExplanation,
  mathText,
  type Citation,
  type ExampleMention,
  type ExampleResponse,
  type FigureCheck,
  type MathNode,
  type ScorePart,
  type ScoreRow,
} from "@/lib/content/metrics-explained";
import { formatPercent } from "../../_components/board-numbers";
import { Breadcrumbs, Card, Table } from "../../_components/ui";

type Params = Promise<{ metric: string }>;

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
  const example = explanation.example();
  const keyNames = example.key.map((_, k) => `K${k + 1}`);

  return (
    <div className="space-y-6">
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

      <Card title="Definition">
        <div className="max-w-3xl space-y-3 text-sm text-zinc-800">
          {explanation.description.map((paragraph, i) => (
            <p key={i}>{paragraph}</p>
          ))}
        </div>
      </Card>

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

      <Card
        title="How Corefboard computes it"
        description={
          explanation.scorer === "corefud"
            ? "The conventions of the CorefUD scorer (v1.2, the CRAC shared task's official scorer), which Corefboard's scorer matches."
            : "The conventions of the CoNLL reference scorer, which Corefboard's scorer matches."
        }
      >
        <ul className="list-disc space-y-1.5 pl-5 text-sm text-zinc-800" data-testid="metric-conventions">
          {explanation.conventions.map((convention, i) => (
            <li key={i}>{convention}</li>
          ))}
        </ul>
      </Card>

      <Card
        title="Worked example"
        description={
          <>
            {example.source} Every number below was computed by Corefboard&apos;s scorer when this page was rendered.
          </>
        }
      >
        <div className="space-y-6" data-testid="metric-example">
          <p className="max-w-3xl text-sm text-zinc-800">{example.description}</p>
          {example.sentences && (
            <pre className="relative overflow-x-auto rounded bg-zinc-50 px-3 py-2 text-sm text-zinc-800" data-testid="example-sentences">
              {example.sentences.join("\n")}
            </pre>
          )}
          <p className="text-xs text-zinc-500">{example.notation}</p>

          <section aria-labelledby="example-key" className="space-y-2">
            <h3 id="example-key" className="text-sm font-semibold text-zinc-900">
              Key <span className="font-normal text-zinc-500">({example.keySpec})</span>
            </h3>
            <EntityGroups entities={example.key} prefix="K" keyNames={keyNames} testId="example-key" />
          </section>

          {example.responses.map((response, i) => (
            <ResponseSection key={i} index={i} response={response} keyNames={keyNames} />
          ))}

          <p className="max-w-3xl text-sm text-zinc-800" data-testid="example-takeaway">
            {example.takeaway}
          </p>
        </div>
      </Card>

      <Card title="Source">
        <ol className="list-decimal space-y-2 pl-5 text-sm text-zinc-800" data-testid="metric-citations">
          {explanation.citations.map((citation, i) => (
            <li key={i}>
              <CitationText citation={citation} />
            </li>
          ))}
        </ol>
      </Card>

      <p className="text-sm">
        <Link href="/metrics" className="text-zinc-700 underline">
          All metrics
        </Link>
      </p>
    </div>
  );
}

/** Classes of the key entities' colours, in order (whole class names, so Tailwind keeps them). */
const ENTITY_COLOURS = [
  "border-sky-300 bg-sky-100 text-sky-900",
  "border-amber-300 bg-amber-100 text-amber-900",
  "border-emerald-300 bg-emerald-100 text-emerald-900",
  "border-rose-300 bg-rose-100 text-rose-900",
  "border-violet-300 bg-violet-100 text-violet-900",
  "border-teal-300 bg-teal-100 text-teal-900",
];

/** A mention that no key entity holds. */
const NO_KEY_COLOUR = "border-dashed border-zinc-400 bg-white text-zinc-600";

/** A formula as MathML (block by default). */
function MathFormula({ node, inline = false }: { node: MathNode; inline?: boolean }) {
  return createElement("math", { display: inline ? "inline" : "block", title: mathText(node) }, renderMath(node));
}

/** One MathML element per node; React renders the tags as given, and the browser parses them inside `<math>`. */
function renderMath(node: MathNode, key?: number): ReactNode {
  switch (node.kind) {
    case "mi":
    case "mn":
    case "mo":
    case "mtext":
      return createElement(node.kind, { key }, node.text);
    case "mrow":
      return createElement("mrow", { key }, ...node.children.map((child, i) => renderMath(child, i)));
    case "mfrac":
      return createElement("mfrac", { key }, renderMath(node.num, 0), renderMath(node.den, 1));
    case "msub":
      return createElement("msub", { key }, renderMath(node.base, 0), renderMath(node.sub, 1));
    case "msup":
      return createElement("msup", { key }, renderMath(node.base, 0), renderMath(node.sup, 1));
    case "munder":
      return createElement("munder", { key }, renderMath(node.base, 0), renderMath(node.under, 1));
  }
}

/** Entities as boxes of coloured mention chips; a box with more chips than fit a phone's width wraps them. */
function EntityGroups({ entities, prefix, keyNames, testId }: { entities: ExampleMention[][]; prefix: string; keyNames: string[]; testId: string }) {
  return (
    <ul className="flex flex-wrap gap-2" data-testid={testId}>
      {entities.map((entity, i) => (
        <li
          key={i}
          className="inline-flex max-w-full flex-wrap items-center gap-1.5 rounded-lg border border-zinc-300 bg-zinc-50 px-2 py-1.5"
          aria-label={`${prefix}${i + 1}: ${entity.map((m) => m.token).join(" ")}`}
          data-testid="example-entity"
        >
          <span className="mr-0.5 text-xs font-semibold text-zinc-500">
            {prefix}
            <sub>{i + 1}</sub>
          </span>
          {entity.map((mention, j) => (
            <MentionChip key={j} mention={mention} keyNames={keyNames} />
          ))}
        </li>
      ))}
    </ul>
  );
}

/** One mention: its letter (or words), and its position under it. */
function MentionChip({ mention, keyNames }: { mention: ExampleMention; keyNames: string[] }) {
  const colour = mention.keyEntity === null ? NO_KEY_COLOUR : ENTITY_COLOURS[mention.keyEntity % ENTITY_COLOURS.length];
  const where = mention.keyEntity === null ? "not in the key" : `in key entity ${keyNames[mention.keyEntity]}`;
  return (
    <span
      className={`inline-flex min-w-8 flex-col items-center rounded border px-1.5 py-0.5 leading-tight ${colour}`}
      title={`${mention.token}: ${mention.span ? `span [${mention.span[0]}, ${mention.span[1]}]` : `nodes ${mention.position}`}, ${where}`}
    >
      <span className="font-mono text-sm font-semibold">{mention.token}</span>
      <span className="text-[10px] tabular-nums opacity-75">{mention.position}</span>
    </span>
  );
}

/** One response: its entities, the overlap table, the scores (and the mapping for mapped F). */
function ResponseSection({ index, response, keyNames }: { index: number; response: ExampleResponse; keyNames: string[] }) {
  const headingId = `example-response-${index}`;
  const responseNames = response.entities.map((_, s) => `S${s + 1}`);
  const notes = [...new Set(response.rows.flatMap((row) => row.figures.map((f) => f.note).filter((n): n is string => Boolean(n))))];
  return (
    <section aria-labelledby={headingId} className="space-y-4 rounded-lg border border-zinc-200 p-4" data-testid="example-response">
      <h3 id={headingId} className="text-sm font-semibold text-zinc-900">
        {response.label} <span className="font-normal text-zinc-500">({response.spec})</span>
      </h3>
      <EntityGroups entities={response.entities} prefix="S" keyNames={keyNames} testId={`example-response-${index}-entities`} />

      <div className="max-w-md">
        <Table
          caption={`Mentions shared by each key entity (rows) and ${response.label} entity (columns)`}
          columns={[{ label: "|K ∩ S|" }, ...responseNames.map((name) => ({ label: name, right: true }))]}
        >
          {response.overlap.map((cells, k) => (
            <tr key={k}>
              <th scope="row" className="py-1.5 pr-4 text-left text-xs font-semibold text-zinc-600">
                {keyNames[k]}
              </th>
              {cells.map((n, s) => (
                <td key={s} className={`py-1.5 text-right tabular-nums ${s < cells.length - 1 ? "pr-4" : ""} ${n === 0 ? "text-zinc-500" : "font-medium"}`}>
                  {n}
                </td>
              ))}
            </tr>
          ))}
        </Table>
      </div>

      {response.mapping && (
        <div className="text-sm">
          <h4 className="font-medium text-zinc-800">Mapping</h4>
          <ul className="mt-1 space-y-0.5 text-zinc-700" data-testid="example-mapping">
            {response.mapping.map((line) => (
              <li key={line.response}>
                {responseNames[line.response]} →{" "}
                {line.key === null ? (
                  <span className="text-zinc-500">unmapped</span>
                ) : (
                  <>
                    {keyNames[line.key]}, F = <PartText part={line.f} showExpression={false} />
                  </>
                )}
              </li>
            ))}
          </ul>
        </div>
      )}

      <Table
        caption={`Scores of ${response.label}`}
        columns={["Score", { label: "Recall", right: true }, { label: "Precision", right: true }, { label: "F1", right: true }, "Paper"]}
        testId={`example-scores-${index}`}
      >
        {response.rows.map((row) => (
          <ScoreTableRow key={row.id} row={row} />
        ))}
      </Table>
      {notes.map((note, i) => (
        <p key={i} className="text-xs text-zinc-500">
          * {note}
        </p>
      ))}
    </section>
  );
}

/** A line of the score table. */
function ScoreTableRow({ row }: { row: ScoreRow }) {
  const cell = "py-2 pr-4 text-right align-top";
  return (
    <tr className={row.main ? "bg-amber-50" : ""} data-testid={`score-row-${row.id}`}>
      <th scope="row" className={`py-2 pr-4 text-left align-top ${row.main ? "font-semibold text-zinc-900" : "font-normal text-zinc-700"}`}>
        {row.label}
      </th>
      <td className={cell} data-testid="score-recall">
        {row.recall ? <PartText part={row.recall} /> : <span className="text-zinc-500">—</span>}
      </td>
      <td className={cell} data-testid="score-precision">
        {row.precision ? <PartText part={row.precision} /> : <span className="text-zinc-500">—</span>}
      </td>
      <td className={cell} data-testid="score-f1">
        <PartText part={row.f1} showExpression={row.f1.expression !== "2PR/(P + R)"} />
      </td>
      <td className="py-2 align-top text-xs">
        {row.figures.length === 0 ? <span className="text-zinc-500">—</span> : row.figures.map((figure, i) => <FigureText key={i} figure={figure} />)}
      </td>
    </tr>
  );
}

/**
 * A score as its exact arithmetic: `(64/7)/12 = 16/21 = 76.19%` (the scorer's numerator and
 * denominator, the reduced fraction, the percentage with 2 decimals).
 */
function PartText({ part, showExpression = true }: { part: ScorePart; showExpression?: boolean }) {
  const exact = part.exact ? fractionText(part.exact) : null;
  const steps = [showExpression ? part.expression : null, exact !== null && exact !== part.expression ? exact : null].filter((s): s is string => s !== null);
  return (
    <span className="whitespace-nowrap tabular-nums" title={String(part.value)} data-exact={String(part.value)}>
      {steps.map((step, i) => (
        <Fragment key={i}>
          <span className="text-zinc-600">{step}</span> ={" "}
        </Fragment>
      ))}
      <span className="font-medium text-zinc-900">{formatPercent(part.value)}</span>
    </span>
  );
}

/** A published figure and whether the scorer agrees with it. */
function FigureText({ figure }: { figure: FigureCheck }) {
  return (
    <span className="block whitespace-nowrap" data-testid="paper-figure" data-agrees={figure.agrees ? "true" : "false"}>
      {figure.part === "recall" ? "R" : "P"} {figure.printed}
      {figure.note && "*"}{" "}
      {figure.agrees ? (
        <span className="font-medium text-emerald-700" title={figure.countsExact ? "same counts as the paper" : "same value as the paper"}>
          ✓ matches
        </span>
      ) : (
        <span className="font-medium text-red-700">✗ differs</span>
      )}
    </span>
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
