/**
 * Tracks of a phase end to end (issue 10 §5):
 * - an organizer adds two tracks ("LLM" and "unconstrained") on the manage page;
 * - an upload without a track is refused with a 422 on `track` naming the tracks (nothing
 *   stored), and two teams upload runs in different tracks through the API (`track` by name
 *   or id); each run's API answer carries its track;
 * - the leaderboard's track switch shows each track ranked separately (a team's best in each
 *   track), and the JSON and CSV follow the chosen track.
 */
import { expect, test } from "@playwright/test";
import { bearer, signInPage } from "./helpers/accounts";
import { setupScenario, type Scenario } from "./helpers/scenario";
import { openPhase, postRun, SMALL_KEY, SMALL_RESPONSE, waitScored } from "./helpers/tasks";

type Users = "organizer" | "alpha" | "beta";
let scenario: Scenario<Users>;
let phaseId = "";
let board = "";
/** Track ids by name, read from `GET /api/v1/phases/{id}` after the organizer added them. */
const trackIds: Record<string, string> = {};

/** The cells of one CSV line (no quoted commas in this test's values). */
const cells = (line: string) => line.split(",");

test.describe.serial("tracks of a phase", () => {
  test.beforeAll(async () => {
    scenario = await setupScenario<Users>({
      users: { organizer: {}, alpha: { token: true }, beta: { token: true } },
      teams: { "Team Alpha": ["alpha"], "Team Beta": ["beta"] },
      task: { phases: [openPhase("test")], organizers: ["organizer"], gold: [{ phase: "test", text: SMALL_KEY, as: "organizer" }] },
    });
    phaseId = scenario.task!.phases.test.id;
    board = `/tasks/${scenario.task!.slug}/phases/${phaseId}/leaderboard`;
  });

  test("an organizer adds two tracks on the manage page", async ({ page, request }) => {
    await signInPage(page, scenario.users.organizer);
    await page.goto(`/tasks/${scenario.task!.slug}/manage/phases`);
    const phase = page.getByRole("region", { name: "Phase test" });
    await expect(phase.getByTestId("no-tracks")).toBeVisible();
    const add = phase.getByRole("form", { name: "Add a track" });
    for (const [name, description] of [
      ["LLM", "Systems built on large language models"],
      ["unconstrained", "Any system"],
    ]) {
      await add.getByLabel("Name").fill(name);
      await add.getByLabel("Description").fill(description);
      await add.getByRole("button", { name: "Add track" }).click();
      await expect(phase.getByText(`Track “${name}” added.`)).toBeVisible();
    }
    await expect(phase.getByTestId("manage-track")).toHaveCount(2);
    await expect(phase.getByRole("form", { name: "Track LLM" }).getByLabel("Name")).toHaveValue("LLM");

    const answer = await request.get(`/api/v1/phases/${phaseId}`);
    expect(answer.status()).toBe(200);
    const { phase: view } = (await answer.json()) as { phase: { tracks: { id: string; name: string; position: number }[] } };
    expect(view.tracks.map((t) => [t.name, t.position])).toEqual([
      ["LLM", 0],
      ["unconstrained", 1],
    ]);
    for (const t of view.tracks) trackIds[t.name] = t.id;
  });

  test("uploads must name a track; two teams upload runs in different tracks through the API", async ({ request }) => {
    const alpha = scenario.users.alpha.token!;
    const beta = scenario.users.beta.token!;
    const refused = await request.post(`/api/v1/phases/${phaseId}/submissions`, {
      headers: bearer(alpha),
      multipart: { file: { name: "out.conll", mimeType: "text/plain", buffer: Buffer.from(SMALL_RESPONSE) }, systemName: "no track" },
    });
    expect(refused.status()).toBe(422);
    const body = (await refused.json()) as { error: { fieldErrors: { path: string; message: string }[] } };
    expect(body.error.fieldErrors[0].path).toBe("track");
    expect(body.error.fieldErrors[0].message).toContain('"LLM", "unconstrained"');

    // LLM: Beta perfect, Alpha partial. Unconstrained: Alpha perfect, Beta partial.
    const runs = [
      await postRun(request, phaseId, alpha, SMALL_RESPONSE, "alpha-llm", "out.conll", { track: "LLM" }),
      await postRun(request, phaseId, alpha, SMALL_KEY, "alpha-open", "out.conll", { track: trackIds.unconstrained }),
      await postRun(request, phaseId, beta, SMALL_KEY, "beta-llm", "out.conll", { track: trackIds.LLM }),
      await postRun(request, phaseId, beta, SMALL_RESPONSE, "beta-open", "out.conll", { track: "unconstrained" }),
    ];
    for (const [i, id] of runs.entries()) await waitScored(request, id, i < 2 ? alpha : beta);
    const run = (await (await request.get(`/api/v1/submissions/${runs[0]}`, { headers: bearer(alpha) })).json()) as { track: { id: string; name: string } | null };
    expect(run.track).toEqual({ id: trackIds.LLM, name: "LLM" });

    // Nothing was stored for the refused upload.
    const all = (await (await request.get(`/api/v1/phases/${phaseId}/leaderboard?all=1&track=unconstrained`)).json()) as { rows: { systemName: string }[] };
    expect(all.rows.map((r) => r.systemName).sort()).toEqual(["alpha-open", "beta-open"]);
  });

  test("the leaderboard's track switch shows each track ranked separately; JSON and CSV follow it", async ({ page, request }) => {
    await page.goto(board);
    await expect(page.getByTestId("board-track")).toHaveText("LLM");
    const tracks = page.getByRole("navigation", { name: "Track" });
    await expect(tracks.getByRole("link", { name: "LLM" })).toHaveAttribute("aria-current", "page");
    await expect(page.getByTestId("board-system")).toHaveText(["beta-llm", "alpha-llm"]);
    await expect(page.getByTestId("board-rank")).toHaveText(["1", "2"]);

    await tracks.getByRole("link", { name: "unconstrained" }).click();
    await expect(page).toHaveURL(new RegExp(`track=${trackIds.unconstrained}`));
    await expect(page.getByTestId("board-track")).toHaveText("unconstrained");
    await expect(page.getByTestId("board-system")).toHaveText(["alpha-open", "beta-open"]);
    await expect(page.getByTestId("board-rank")).toHaveText(["1", "2"]);

    // The choice survives the other controls: all runs, then the track switch again.
    await page.getByRole("link", { name: "All runs" }).click();
    await expect(page).toHaveURL(/all=1/);
    await expect(page.getByTestId("board-track")).toHaveText("unconstrained");
    await page.getByRole("navigation", { name: "Track" }).getByRole("link", { name: "LLM" }).click();
    await expect(page).toHaveURL(/all=1/);
    await expect(page.getByTestId("board-system")).toHaveText(["beta-llm", "alpha-llm"]);

    const json = (await (await request.get(`/api/v1/phases/${phaseId}/leaderboard?track=${trackIds.unconstrained}`)).json()) as {
      track: { name: string };
      tracks: { name: string }[];
      rows: { systemName: string; rank: number; track: { name: string } }[];
    };
    expect(json.track.name).toBe("unconstrained");
    expect(json.tracks.map((t) => t.name)).toEqual(["LLM", "unconstrained"]);
    expect(json.rows.map((r) => [r.systemName, r.rank, r.track.name])).toEqual([
      ["alpha-open", 1, "unconstrained"],
      ["beta-open", 2, "unconstrained"],
    ]);
    const csv = await (await request.get(`/api/v1/phases/${phaseId}/leaderboard?track=LLM&format=csv`)).text();
    const [header, ...lines] = csv.trim().split("\r\n").map(cells);
    expect(header[header.length - 1]).toBe("track");
    const system = header.indexOf("system");
    expect(lines.map((l) => [l[system], l[l.length - 1]])).toEqual([
      ["beta-llm", "LLM"],
      ["alpha-llm", "LLM"],
    ]);

    const unknown = await request.get(`/api/v1/phases/${phaseId}/leaderboard?track=closed`);
    expect(unknown.status()).toBe(422);
  });
});
