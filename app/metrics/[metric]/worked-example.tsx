/**
 * The "Worked example" section of a metric's page: the example's key and responses as
 * coloured mention chips, each response's overlap table, scores (the scorer's numerators and
 * denominators, reduced fractions and percentages) and the papers' figures next to them, all
 * computed by the scorer when the page is rendered (`lib/content/worked-examples.ts`).
 */
import { Fragment } from "react";
import { fractionText, type ScorePart } from "@/lib/content/exact-fractions";
import type { ExampleMention, ExampleResponse, FigureCheck, ScoreRow, WorkedExample } from "@/lib/content/worked-examples";
import { formatPercent } from "../../_components/board-numbers";
import { Markdown } from "../../_components/markdown";
import { Card, Table } from "../../_components/ui";

/** The worked example's card: where it comes from, its sentences, key, responses and takeaway. */
export function WorkedExampleCard({ example }: { example: WorkedExample }) {
  const keyNames = example.key.map((_, k) => `K${k + 1}`);
  return (
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
        <Markdown source={example.notation} className="text-xs text-zinc-500" />

        <section aria-labelledby="example-key" className="space-y-2">
          <h3 id="example-key" className="text-sm font-semibold text-zinc-900">
            Key <span className="font-normal text-zinc-500">({example.keySpec})</span>
          </h3>
          <EntityGroups entities={example.key} prefix="K" keyNames={keyNames} testId="example-key" />
        </section>

        {example.responses.map((response, i) => (
          <ResponseSection key={i} index={i} response={response} keyNames={keyNames} />
        ))}

        <Markdown source={example.takeaway} className="max-w-3xl space-y-3 text-sm text-zinc-800" testId="example-takeaway" />
      </div>
    </Card>
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
      <span className="text-[10px] tabular-nums">{mention.position}</span>
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
