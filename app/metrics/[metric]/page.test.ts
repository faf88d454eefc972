/**
 * A metric's page rendered to HTML as Next renders its server component: the prose of
 * `lib/content/metrics/<metric>.md` comes out as elements (paragraphs, the conventions' list
 * items, the takeaway), next to the worked example the scorer computed; an unknown metric is a 404.
 */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { getMetricExplanation, METRIC_IDS } from "@/lib/content/metrics-explained";
import MetricPage from "./page";

/** Text as React writes it in HTML. */
const escaped = (text: string) => text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;" })[c]!);

/** The page's HTML for a metric id. */
async function pageHtml(metric: string): Promise<string> {
  return renderToStaticMarkup(createElement("div", null, await MetricPage({ params: Promise.resolve({ metric }) })));
}

describe("the metric page", () => {
  it.each(METRIC_IDS)("renders the Markdown of %s.md as paragraphs, a list and a takeaway", async (metric) => {
    const explanation = getMetricExplanation(metric)!;
    const html = await pageHtml(metric);
    expect(html).toContain(`<p class="text-sm text-zinc-700" data-testid="metric-definition">${escaped(explanation.definition)}</p>`);
    const definition = /<div class="max-w-3xl space-y-3 text-sm text-zinc-800">(.*?)<\/div>/s.exec(html)?.[1] ?? "";
    expect(definition.match(/<p>/g)).toHaveLength(explanation.description.split("\n\n").length);
    const conventions = /<ul class="list-disc space-y-1.5 pl-5 text-sm text-zinc-800" data-testid="metric-conventions">(.*?)<\/ul>/s.exec(html)?.[1] ?? "";
    expect(conventions.match(/<li>/g)).toHaveLength(explanation.conventions.split("\n").length);
    expect(html).toMatch(/<div class="max-w-3xl space-y-3 text-sm text-zinc-800" data-testid="example-takeaway"><p>\S[^<]*<\/p><\/div>/);
    expect(html).toMatch(/<div class="text-xs text-zinc-500"><p>(Each element is a one-token mention|A mention is a set of nodes)/);
    expect(html).not.toMatch(/\{\{|style=/);
  });

  it("is a 404 for an unknown metric", async () => {
    await expect(pageHtml("nope")).rejects.toThrow(/NEXT_HTTP_ERROR_FALLBACK;404|NEXT_NOT_FOUND/);
  });
});
