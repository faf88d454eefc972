/**
 * Results you can dig into, on the demo task (LitBank demo, three baselines scored by the
 * worker): the significance markers and intervals on the leaderboard, the pronoun disclosure
 * table of a run, the compare page, a document's error view for an organizer, and a
 * participant refused the error view on the test phase (participantAnalysis NONE).
 *
 * Every expected number is computed here, independently of the server, with the scoring
 * library on the same demo files: `evaluate`, the paired bootstrap (same default seed and
 * sample count), the error analysis and the disclosure.
 *
 * The LitBank demo files ship with the repository (lib/demo/data/litbank/), so this runs
 * everywhere, without shared data or network.
 */
import { expect, test, type Page } from "@playwright/test";
import { evaluate, readConll2012, type Corpus, type Report } from "../scoring/index";
import {
  analyzeDocumentErrors,
  analyzeErrors,
  disclosureTable,
  ENGLISH_PRONOUNS,
  ERROR_KINDS,
  pairedBootstrap,
  pronounDisclosure,
  reportDocuments,
} from "../scoring/analysis/index";
import { BASELINES, runBaseline } from "../lib/demo/baselines";
import { concatenateKey, loadLitbankDemo } from "../lib/demo/litbank";
import { bearer, createToken, createUser, signInPage, type TestUser } from "./helpers/accounts";
import { queryDb, runScript } from "./helpers/server";
import { addOrganizer, waitForSignificance, waitScored } from "./helpers/tasks";
import { writeConll2012 } from "../scoring/formats/write-conll2012";

const DEMO_SLUG = "litbank-demo";

// The demo's LitBank files ship with the repository (lib/demo/data/litbank/).
test.describe.configure({ mode: "serial" });

interface DemoRun {
  id: string;
  systemName: string;
  response: Corpus;
  report: Report;
}

let phaseId: string;
let key: Corpus;
let runs: DemoRun[];
let organizer: TestUser;
let participant: TestUser;
let participantToken: string;

const boardPath = () => `/tasks/${DEMO_SLUG}/phases/${phaseId}/leaderboard`;
const formatP = (p: number) => (p < 0.001 ? "< 0.001" : p.toFixed(3));

test.beforeAll(async () => {
  test.setTimeout(240_000);
  // The LitBank demo task, loaded as `npm run demo` loads it (in this process; the site's
  // worker scores its baselines).
  await runScript("e2e/helpers/seed.ts", ["litbank-demo"]);
  const [phase] = await queryDb<{ id: string }>(
    "SELECT p.id::text AS id FROM phases p JOIN tasks t ON t.id = p.task_id WHERE t.slug = $1 AND p.name = 'test'",
    [DEMO_SLUG],
  );
  phaseId = phase.id;
  await expect
    .poll(async () => (await queryDb<{ n: string }>("SELECT count(*)::text AS n FROM submissions WHERE phase_id = $1 AND status = 'SCORED'", [phaseId]))[0].n, {
      timeout: 180_000,
      intervals: [500, 1000, 2000],
    })
    .toBe(String(BASELINES.length));

  const demo = await loadLitbankDemo();
  key = readConll2012(concatenateKey(demo.files), "litbank-demo.conll");
  const rows = await queryDb<{ id: string; system_name: string }>("SELECT id::text AS id, system_name FROM submissions WHERE phase_id = $1", [phaseId]);
  runs = BASELINES.map((b) => {
    // The demo uploads exactly this file; parse it as the server does.
    const response = readConll2012(writeConll2012(runBaseline(b, key)), `${b.id}.conll`);
    const row = rows.find((r) => r.system_name === b.systemName)!;
    return { id: row.id, systemName: b.systemName, response, report: evaluate(key, response) };
  });

  const [task] = await queryDb<{ id: string }>("SELECT id::text AS id FROM tasks WHERE slug = $1", [DEMO_SLUG]);
  const admin = await createUser({ admin: true, label: "demo-admin" });
  organizer = await createUser({ label: "demo-organizer" });
  await addOrganizer(task, organizer, { as: admin });
  participant = await createUser({ label: "demo-participant" });
  participantToken = await createToken(participant);
});

/** The demo runs in board order (CoNLL F1 descending, earlier first on ties: all are baselines). */
function boardOrder(): DemoRun[] {
  return [...runs].sort((a, b) => b.report.metrics.conll!.f1 - a.report.metrics.conll!.f1 || runs.indexOf(a) - runs.indexOf(b));
}

test("the demo leaderboard marks runs not significantly different from the run above, and shows 95 % intervals on demand", async ({ page }) => {
  await page.goto(boardPath());
  // Computed by the worker once the runs are scored, and stored; the page only reads it.
  await waitForSignificance(page);
  const ordered = boardOrder();
  const rows = page.getByTestId("board-row");
  await expect(rows).toHaveCount(ordered.length);
  await expect(page.getByTestId("significance-note")).toContainText("paired bootstrap");
  let markers = 0;
  for (let i = 0; i < ordered.length; i++) {
    const row = rows.nth(i);
    await expect(row).toHaveAttribute("data-submission-id", ordered[i].id);
    if (i === 0) {
      await expect(row).not.toHaveAttribute("data-p-value", /./);
      await expect(row.getByTestId("not-significant")).toHaveCount(0);
      continue;
    }
    const expected = pairedBootstrap(reportDocuments(ordered[i - 1].report), reportDocuments(ordered[i].report)).metrics.find((m) => m.metric === "conll")!;
    const shown = Number(await row.getAttribute("data-p-value"));
    expect(shown).toBeCloseTo(expected.pValue, 9);
    const marked = expected.pValue >= 0.05;
    if (marked) markers++;
    await expect(row.getByTestId("not-significant")).toHaveCount(marked ? 1 : 0);
    if (marked) await expect(row.getByTestId("not-significant")).toHaveAttribute("title", new RegExp(`p = ${formatP(expected.pValue).replace(/[.<]/g, "\\$&")}`));
  }
  test.info().annotations.push({ type: "markers", description: `${markers} of ${ordered.length - 1} runs not significantly different from the run above` });

  await page.getByTestId("toggle-ci").click();
  await expect(page).toHaveURL(/[?&]ci=1/);
  const cells = page.getByTestId("cell-ci");
  await expect(cells).toHaveCount(ordered.length);
  for (let i = 0; i < ordered.length; i++) {
    const text = (await cells.nth(i).textContent()) ?? "";
    const [lo, hi] = text.split("–").map((x) => Number(x.trim()));
    const value = ordered[i].report.metrics.conll!.f1 * 100;
    expect(lo).toBeLessThanOrEqual(value + 0.005);
    expect(hi).toBeGreaterThanOrEqual(value - 0.005);
    expect(hi).toBeGreaterThan(lo);
  }

  // Column headers link to the metric explanation pages.
  await page.getByTestId("metric-link-muc").click();
  await expect(page).toHaveURL(/\/metrics\/muc$/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("MUC");
});

test("a demo run's page shows the pronoun standard disclosure with the resolution rate", async ({ page }) => {
  const run = runs.find((r) => r.systemName.includes("pronoun")) ?? runs[0];
  const expected = disclosureTable(pronounDisclosure(key, run.response, ENGLISH_PRONOUNS), []);
  await page.goto(`/submissions/${run.id}`);
  const table = page.getByTestId("disclosure-table");
  await expect(table).toBeVisible();
  // Transposed (issue 12 §5): one row per pronoun type (the total last), one column per line.
  const pronouns = (await table.locator("tbody th").allTextContents()).map((t) => t.trim());
  expect(pronouns).toEqual(expected.columns);
  for (const id of ["raw", "non-referential", "referential", "evaluation", "correct"]) {
    const row = expected.rows.find((r) => r.id === id)!;
    const cells = (await table.getByTestId(`disclosure-${id}`).allTextContents()).map((t) => t.trim());
    expect(cells, id).toEqual(row.values.map((v) => (v === null ? "—" : v.toLocaleString("en"))));
  }
  const rr = expected.rows.find((r) => r.id === "rr")!;
  const rrCells = (await table.getByTestId("disclosure-rr").allTextContents()).map((t) => t.trim());
  expect(rrCells).toEqual(rr.values.map((v) => (v === null ? "—" : (v * 100).toFixed(2))));
  // The total RR is correct / C over every column.
  const total = (id: string) => expected.rows.find((r) => r.id === id)!.values.at(-1)!;
  expect(rr.values.at(-1)).toBeCloseTo(total("correct") / total("referential"), 12);
});

test("an organizer opens a document's error view from a demo run", async ({ page }) => {
  const run = runs.find((r) => r.systemName.includes("exact string")) ?? runs[0];
  const totals = analyzeErrors(key, run.response).totals;
  await signInPage(page, organizer);
  await page.goto(`/submissions/${run.id}`);
  for (const kind of ERROR_KINDS) {
    await expect(page.getByTestId(`error-total-${kind}`)).toContainText(totals[kind].toLocaleString("en"));
  }
  const documentLinks = page.getByTestId("error-documents").getByRole("link");
  await expect(documentLinks).toHaveCount(key.documents.length);
  const docId = (await documentLinks.first().textContent())!.trim();
  await documentLinks.first().click();
  await expect(page).toHaveURL(new RegExp(`/submissions/${run.id}/documents/`));

  const keyDoc = key.documents.find((d) => d.id === docId)!;
  const responseDoc = run.response.documents.find((d) => d.id === docId)!;
  const expected = analyzeDocumentErrors(keyDoc.entities, responseDoc.entities);
  const counts = page.getByTestId("doc-error-counts");
  await expect(counts).toBeVisible();
  for (const kind of ERROR_KINDS) await expect(counts).toContainText(String(expected.counts[kind]));
  // The text is there: four tokens of one sentence in a row that end no mention (mention ends carry the entity number).
  const ends = new Set([...keyDoc.entities, ...responseDoc.entities].flat().map(([, e]) => e));
  const starts = new Set(keyDoc.sentenceStarts);
  const start = keyDoc.tokens.findIndex(
    (_, i) => i + 4 <= keyDoc.tokens.length && [0, 1, 2, 3].every((k) => !ends.has(i + k) && (k === 0 || !starts.has(i + k))),
  );
  await expect(page.getByTestId("doc-key")).toContainText(keyDoc.tokens.slice(start, start + 4).join(" "));
  // Every distinct key span is highlighted in the key column.
  const spans = new Set(keyDoc.entities.flat().map(([s, e]) => `k-${s}-${e}`));
  await expect(page.getByTestId("doc-key").locator('[id^="k-"]')).toHaveCount(spans.size);
  // An error links to its place in the text.
  const errorLink = page.getByTestId("doc-errors").locator('a[href^="#"]:visible').first(); // groups of over 50 errors start folded
  const target = (await errorLink.getAttribute("href"))!;
  await errorLink.click();
  await expect(page).toHaveURL(new RegExp(`${target}$`));
  await expect(page.locator(target)).toBeInViewport();
});

test("a participant is refused the error view on a test phase, even for their own run", async ({ page, request }) => {
  // The participant submits the singletons baseline's output as their own run.
  const singletons = BASELINES.find((b) => b.id === "singletons") ?? BASELINES[0];
  const text = writeConll2012(runBaseline(singletons, key));
  const response = await request.post(`/api/v1/phases/${phaseId}/submissions`, {
    headers: bearer(participantToken),
    multipart: { file: { name: "mine.conll", mimeType: "text/plain", buffer: Buffer.from(text) }, systemName: "my singletons" },
  });
  expect(response.status(), await response.text()).toBe(202);
  const id = ((await response.json()) as { id: string }).id;
  await waitScored(request, id, participantToken);

  await signInPage(page, participant);
  await page.goto(`/submissions/${id}`);
  await expect(page.getByTestId("errors-hidden")).toBeVisible();
  await expect(page.getByTestId("error-totals")).toHaveCount(0);
  const docId = key.documents[0].id;
  const own = await page.goto(`/submissions/${id}/documents/${encodeURIComponent(docId)}`);
  expect(own?.status()).toBe(404);
  await expect(page.getByTestId("doc-text")).toHaveCount(0);
  const other = await page.goto(`/submissions/${runs[0].id}/documents/${encodeURIComponent(docId)}`);
  expect(other?.status()).toBe(404);

  // The API says the same, and lets the organizer in.
  const api = (sid: string) => `/api/v1/submissions/${sid}/documents/${encodeURIComponent(docId)}`;
  expect((await request.get(api(id), { headers: bearer(participantToken) })).status()).toBe(404);
  const organizerToken = await createToken(organizer);
  const allowed = await request.get(api(id), { headers: bearer(organizerToken) });
  expect(allowed.status(), await allowed.text()).toBe(200);
});

test("the compare page gives per-metric deltas with p-values and per-document deltas", async ({ page }) => {
  const [a, b] = boardOrder();
  const expected = pairedBootstrap(reportDocuments(a.report), reportDocuments(b.report));
  await signInPage(page, organizer);
  await page.goto(`/compare?a=${a.id}&b=${b.id}`);
  const metrics = page.getByTestId("compare-metrics");
  await expect(metrics).toBeVisible();
  const conll = expected.metrics.find((m) => m.metric === "conll")!;
  const conllRow = metrics.getByTestId("compare-metric-conll");
  await expect(conllRow.getByTestId("compare-p")).toHaveText(formatP(conll.pValue));
  await expect(conllRow).toContainText((conll.a * 100).toFixed(2));
  await expect(conllRow).toContainText((conll.b * 100).toFixed(2));
  const points = (Math.abs(conll.delta) * 100).toFixed(2);
  await expect(conllRow.getByTestId("compare-delta")).toHaveText(Number(points) === 0 ? "0.00" : `${conll.delta > 0 ? "+" : "-"}${points}`);
  await expect(conllRow).toHaveAttribute("data-significant", String(conll.pValue < 0.05));

  // Per-document deltas on the primary metric (CoNLL F1), largest first, linked to the document views.
  const docs = a.report.perDocument.map((d, i) => {
    const x = d.scores.conll!.f1;
    const y = b.report.perDocument[i].scores.conll!.f1;
    return { id: d.id, delta: x - y };
  });
  docs.sort((x, y) => Math.abs(y.delta) - Math.abs(x.delta) || x.id.localeCompare(y.id));
  const rows = page.getByTestId("compare-documents").locator("tbody tr");
  await expect(rows).toHaveCount(docs.length);
  await expect(rows.first()).toContainText(docs[0].id);
  await expect(rows.first().locator(`a[href*="/submissions/${a.id}/documents/"]`)).toHaveCount(1);

  // A reader who may not see per-document scores gets the metrics but not the documents.
  await page.context().clearCookies();
  await page.goto(`/compare?a=${a.id}&b=${b.id}`);
  await expect(page.getByTestId("compare-metrics")).toBeVisible();
  await expect(page.getByTestId("compare-documents")).toHaveCount(0);
});
