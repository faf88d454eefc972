/**
 * A CRAC-style task end to end (issue 10, evaluation profiles and the document check):
 * - a task with the `crac` evaluation profile and a CorefUD CoNLL-U gold key;
 * - a run whose document is misnamed is refused with 409 and its warnings before it counts
 *   (no run stored), then accepted when the warnings are acknowledged; its page shows the
 *   scorer's stored warnings and the evaluation it was scored with;
 * - the same misnamed run through the web form: the warnings, then "Submit anyway";
 * - the leaderboard has a column per CRAC variant and re-ranks by a variant (page, JSON, CSV),
 *   and the stored scores equal the scorer's for each setting.
 */
import { expect, test } from "@playwright/test";
import { KEY_CONLLU, RESPONSE_CONLLU } from "../lib/worker/scoring-job.fixtures";
import { evaluate } from "../scoring/evaluate";
import { readCorpus } from "../scoring/formats/index";
import { EVALUATION_PROFILES, presetOptions } from "../scoring/presets";
import { bearer, signInPage } from "./helpers/accounts";
import { setupScenario, type Scenario } from "./helpers/scenario";
import { openPhase, postRun, waitScored } from "./helpers/tasks";

const GOLD_NAME = "en_gum-corefud-test.conllu";
/** The response with its second document misnamed: `d2` becomes `d2x`. */
const MISNAMED = RESPONSE_CONLLU.replace("# newdoc id = d2", "# newdoc id = d2x");

type Users = "organizer" | "participant" | "rival";
let scenario: Scenario<Users>;
let phaseId = "";

test.describe.serial("CRAC evaluation profile", () => {
  test.beforeAll(async () => {
    scenario = await setupScenario<Users>({
      users: { organizer: {}, participant: { token: true }, rival: { token: true } },
      teams: { "Team P": ["participant"], "Team R": ["rival"] },
      task: {
        evaluationProfile: "crac",
        phases: [openPhase("test")],
        organizers: ["organizer"],
        gold: [{ phase: "test", text: KEY_CONLLU, fileName: GOLD_NAME, as: "organizer" }],
      },
    });
    phaseId = scenario.task!.phases.test.id;
  });

  test("a misnamed document is warned about before the run counts, then accepted when acknowledged", async ({ request }) => {
    const token = scenario.users.participant.token!;
    const refused = await request.post(`/api/v1/phases/${phaseId}/submissions`, {
      headers: bearer(token),
      multipart: { file: { name: GOLD_NAME, mimeType: "text/plain", buffer: Buffer.from(MISNAMED) }, systemName: "misnamed" },
    });
    expect(refused.status()).toBe(409);
    const body = (await refused.json()) as { error: { warnings: { code: string; document?: string }[] } };
    expect(body.error.warnings.map((w) => [w.code, w.document])).toEqual(
      expect.arrayContaining([
        ["response-only-document", "d2x"],
        ["missing-document", "d2"],
      ]),
    );
    const id = await postRun(request, phaseId, token, MISNAMED, "misnamed", GOLD_NAME, { acknowledgeWarnings: true });
    await waitScored(request, id, token);
    const run = (await (await request.get(`/api/v1/submissions/${id}`, { headers: bearer(token) })).json()) as {
      evaluation: { profile: string; variants: { id: string }[] };
      warnings: { code: string; document?: string }[];
    };
    expect(run.evaluation.profile).toBe("crac");
    expect(run.evaluation.variants.map((v) => v.id)).toEqual(["partial", "exact", "singletons"]);
    expect(run.warnings.map((w) => w.code)).toEqual(expect.arrayContaining(["missing-document", "response-only-document"]));
    // The refused upload was not stored: the board of all runs has this one run of that name.
    const all = (await (await request.get(`/api/v1/phases/${phaseId}/leaderboard?all=1`)).json()) as { rows: { systemName: string }[] };
    expect(all.rows.filter((r) => r.systemName === "misnamed")).toHaveLength(1);
  });

  test("the web form shows the warnings and submits anyway; the run page shows them and the setting", async ({ page }) => {
    await signInPage(page, scenario.users.participant);
    await page.goto(`/tasks/${scenario.task!.slug}/phases/${phaseId}/submit`);
    await page.getByLabel("System output file").setInputFiles({ name: GOLD_NAME, mimeType: "text/plain", buffer: Buffer.from(MISNAMED) });
    await page.getByLabel("System name").fill("misnamed via form");
    await page.getByRole("button", { name: "Upload and score" }).click();
    const warnings = page.getByTestId("upload-warnings");
    await expect(warnings).toBeVisible();
    await expect(warnings).toContainText("d2x");
    await page.getByTestId("submit-anyway").click();
    await expect(page).toHaveURL(/\/submissions\/[0-9a-f-]{36}$/);
    await expect(page.getByTestId("run-warnings")).toContainText("d2", { timeout: 60_000 });
    await expect(page.getByTestId("scored-with")).toContainText("CRAC");
  });

  test("the leaderboard shows each CRAC variant and re-ranks by one (page, JSON and CSV); scores equal the scorer's", async ({ page, request }) => {
    const rival = scenario.users.rival.token!;
    const id = await postRun(request, phaseId, rival, RESPONSE_CONLLU, "rival full", GOLD_NAME);
    await waitScored(request, id, rival);

    // The stored scores are the scorer's, in every setting.
    const key = readCorpus(KEY_CONLLU, `gold/${GOLD_NAME}`);
    const response = readCorpus(RESPONSE_CONLLU, GOLD_NAME);
    const crac = EVALUATION_PROFILES.crac;
    const board = `/api/v1/phases/${phaseId}/leaderboard`;
    const json = (await (await request.get(board)).json()) as {
      rows: { submissionId: string; metrics: { conll?: { f1: number } }; variants: Record<string, { conll?: { f1: number } }> }[];
    };
    const row = json.rows.find((r) => r.submissionId === id)!;
    expect(row.metrics.conll!.f1).toBeCloseTo(evaluate(key, response, presetOptions(crac.primary)).metrics.conll!.f1, 9);
    for (const v of crac.variants) {
      expect(row.variants[v.id].conll!.f1, v.id).toBeCloseTo(evaluate(key, response, presetOptions(v.preset)).metrics.conll!.f1, 9);
    }

    // Page: a column per variant; re-rank by partial match with the setting select.
    await page.goto(`/tasks/${scenario.task!.slug}/phases/${phaseId}/leaderboard`);
    for (const v of crac.variants) await expect(page.getByTestId(`col-variant-${v.id}`)).toBeVisible();
    // Choosing a setting submits the board's GET form.
    await page.locator("#board-variant").selectOption("partial");
    await expect(page).toHaveURL(/variant=partial/);
    await expect(page.getByTestId("ranked-by")).toContainText("partial match");

    // JSON and CSV follow the choice.
    const ranked = (await (await request.get(`${board}?variant=exact`)).json()) as { variant: string; rows: { value: number | null; variants: Record<string, { conll?: { f1: number } }> }[] };
    expect(ranked.variant).toBe("exact");
    for (const r of ranked.rows) if (r.value !== null) expect(r.value).toBe(r.variants.exact.conll!.f1);
    const csv = await (await request.get(`${board}?variant=exact&format=csv`)).text();
    const [header, ...lines] = csv.trim().split(/\r?\n/);
    const columns = header.split(",");
    for (const v of crac.variants) expect(columns).toContain(`${v.id}_conll_f1`);
    const exactAt = columns.indexOf("exact_conll_f1");
    const values = lines.map((l) => Number(l.split(",")[exactAt]));
    expect(values).toEqual([...values].sort((a, b) => b - a));
    expect((await request.get(`${board}?variant=nonsense`)).status()).toBe(422);
  });
});
