/** The submission page's analyses: the error analysis and the pronoun disclosure. */
import type { RunAnalysisView } from "@/lib/runs";
import { RunDisclosureTable, RunErrorSummary } from "@/app/_components/run-analysis";
import { Card } from "@/app/_components/ui";

/** The error analysis (when the run has one) and Byron's pronoun disclosure (when there is one). */
export function AnalysisSections({ analysis }: { analysis: RunAnalysisView }) {
  return (
    <>
      {analysis.available && (
        <Card
          title="Error analysis"
          description="Differences between key and response entities in the categories of Kummerfeld & Klein (2013): a mention off by a boundary, missing and extra mentions and entities, key entities divided across response entities, and response entities conflating key entities."
        >
          <RunErrorSummary analysis={analysis} />
        </Card>
      )}

      {analysis.disclosure && (
        <Card
          title="Pronoun resolution: standard disclosure"
          description="Byron's (2001) standard disclosure of pronoun resolution results, with the resolution rate RR."
        >
          <RunDisclosureTable disclosure={analysis.disclosure} />
        </Card>
      )}
    </>
  );
}
