/**
 * The permalink page of a final results snapshot, rendered to HTML as Next renders its server
 * component (for an anonymous reader, against the test database): a disqualified run with the
 * top score is not in the ranking table but in a table of its own under a "Disqualified"
 * heading after it (issue 24 §2), and the page links the LaTeX and Markdown tables beside the
 * CSV and JSON downloads. Runs and scores are written straight to the database as the worker
 * writes them; the snapshot is published by the service.
 */
import { describe, expect, it, vi } from "vitest";

// Anonymous requests read the session cookie; there is none outside a request.
vi.mock("next/headers", () => ({ cookies: async () => ({ getAll: () => [] }) }));

import { renderToReadableStream } from "react-dom/server";
import { useTestDatabase } from "@/lib/db/test-db";
import { publishSnapshot } from "@/lib/boards/snapshot-publish";
import { insertScores, insertSubmission, makeTaskWithPhase, makeTeam, makeUser } from "@/lib/tasks/test-fixtures";
import { packFile } from "@/lib/storage";
import SnapshotPage from "./page";

const testDb = useTestDatabase();

const DAY = 24 * 3600_000;

/** The page's HTML for an anonymous reader. */
async function pageHtml(slug: string, phaseId: string, number: string): Promise<string> {
  const element = await SnapshotPage({ params: Promise.resolve({ slug, phaseId, number }) });
  const stream = await renderToReadableStream(element);
  await stream.allReady;
  return new Response(stream).text();
}

describe("the final results page", () => {
  it("lists a disqualified run with the top score after the ranking, under a Disqualified heading; links the LaTeX and Markdown tables", async () => {
    const db = testDb.prisma;
    const organizer = await makeUser(db, "Page Organizer");
    const u1 = await makeUser(db, "Page U1");
    const u2 = await makeUser(db, "Page U2");
    const { task, phase, dataset } = await makeTaskWithPhase(db, {
      organizerIds: [organizer.id],
      phase: { opensAt: new Date(Date.now() - 10 * DAY), closesAt: new Date(Date.now() - 3600_000) },
    });
    const gold = packFile(new TextEncoder().encode(`gold of ${phase.id}`));
    await db.goldKey.create({ data: { phaseId: phase.id, datasetId: dataset.id, version: 1, fileName: "key.conll", ...gold, documentCount: 1, uploadedById: organizer.id, active: true } });
    const alpha = await makeTeam(db, "Alpha", [u1.id]);
    const gamma = await makeTeam(db, "Gamma", [u2.id]);
    const honest = await insertSubmission(db, { phaseId: phase.id, teamId: alpha.id, submitterId: u1.id, systemName: "honest-sys" });
    await insertScores(db, honest.id, phase.id, { conll: 0.7 });
    const cheat = await insertSubmission(db, { phaseId: phase.id, teamId: gamma.id, submitterId: u2.id, systemName: "cheat-sys" });
    await insertScores(db, cheat.id, phase.id, { conll: 0.95 });
    await db.submission.update({ where: { id: cheat.id }, data: { disqualifiedAt: new Date(), disqualifiedReason: "Trained on the test set.", disqualifiedById: organizer.id } });
    const snapshot = await publishSnapshot(organizer.viewer, phase.id);

    const html = await pageHtml(task.slug, phase.id, String(snapshot.number));
    const ranking = html.indexOf('data-testid="leaderboard-table"');
    const heading = html.indexOf(">Disqualified</h3>");
    const disqualified = html.indexOf('data-testid="snapshot-disqualified"');
    expect(ranking).toBeGreaterThan(0);
    expect(disqualified).toBeGreaterThan(ranking);
    expect(heading).toBeGreaterThan(disqualified);
    // The ranking table holds the honest run (rank 1) and not the disqualified one; that is in the table under the heading.
    const rankingTable = html.slice(ranking, disqualified);
    expect(rankingTable).toContain(`data-submission-id="${honest.id}"`);
    expect(rankingTable).not.toContain(`data-submission-id="${cheat.id}"`);
    const after = html.slice(heading);
    expect(after).toContain(`data-submission-id="${cheat.id}"`);
    expect(after).toMatch(/data-testid="disqualified-reason">disqualified: (<!-- -->)?Trained on the test set\.</);
    expect(after.indexOf(`data-submission-id="${cheat.id}"`)).toBeLessThan(after.indexOf('id="snapshot-changes"'));

    for (const [testId, href] of [
      ["download-csv", snapshot.links.csv],
      ["download-json", snapshot.links.json],
      ["download-latex", snapshot.links.latex],
      ["download-markdown", snapshot.links.markdown],
    ]) {
      expect(html).toMatch(new RegExp(`<a href="${href!.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}" download="" [^>]*data-testid="${testId}"`));
    }
    expect(snapshot.links.latex).toBe(`/api/v1/phases/${phase.id}/results/1/latex`);
    expect(snapshot.links.markdown).toBe(`/api/v1/phases/${phase.id}/results/1/markdown`);
  });
});
