/**
 * The metric pages' Markdown texts (`lib/content/metrics/`): every metric's file has its title,
 * its one-line definition and its three sections, the scorer's constants are filled in, and a
 * missing or malformed file is an error that names it.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MAPPED_F_THRESHOLD } from "../../scoring/analysis/mapped-cluster-f";
import { LEADERBOARD_METRICS } from "../validations/metrics";
import { readExampleTexts, readMetricText } from "./metric-texts";

/** Runs `f` with the working directory set to a new folder holding `files` under lib/content/metrics/. */
function inFolder(files: Record<string, string>, f: () => void): void {
  const root = mkdtempSync(path.join(tmpdir(), "metric-texts-"));
  const dir = path.join(root, "lib", "content", "metrics");
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  const cwd = process.cwd();
  process.chdir(root);
  try {
    f();
  } finally {
    process.chdir(cwd);
    rmSync(root, { recursive: true, force: true });
  }
}

describe("readMetricText", () => {
  it.each(LEADERBOARD_METRICS)("reads %s.md: a name, a one-line definition, paragraphs, a list of conventions and a takeaway", (metric) => {
    const text = readMetricText(metric);
    expect(text.name).toMatch(/^\S.*\S$/);
    expect(text.definition).not.toMatch(/\n/);
    expect(text.description.length).toBeGreaterThan(0);
    for (const line of text.conventions.split("\n")) expect(line).toMatch(/^- \S/);
    expect(text.takeaway.length).toBeGreaterThan(0);
    expect(Object.values(text).join("\n")).not.toMatch(/\{\{|\}\}|^#/m);
  });

  it("fills in the scorer's constants", () => {
    const text = readMetricText("mcf");
    expect(text.definition).toContain(`(which must exceed ${MAPPED_F_THRESHOLD})`);
    expect(text.conventions).toContain(`the paper's threshold ${MAPPED_F_THRESHOLD};`);
  });

  it("reads the examples' shared texts", () => {
    const shared = readExampleTexts();
    expect(shared.paperNotation).toMatch(/^Each element is a one-token mention/);
    expect(shared.corefudNotation).toMatch(/^A mention is a set of nodes/);
    expect(shared.baggaBaldwinNote).toMatch(/^Bagga & Baldwin's key and responses/);
  });

  it("names the file it cannot read or that is malformed", () => {
    const file = path.join("lib", "content", "metrics", "muc.md");
    const sections = "## Definition\n\nText.\n\n## How Corefboard computes it\n\n- One.\n\n## Worked example\n\nLook.\n";
    inFolder({}, () => expect(() => readMetricText("muc")).toThrow(`cannot read ${file} in `));
    inFolder({ "muc.md": `# MUC\n\nOne line.\n\n${sections}` }, () => expect(readMetricText("muc")).toEqual({ name: "MUC", definition: "One line.", description: "Text.", conventions: "- One.", takeaway: "Look." }));
    inFolder({ "muc.md": `MUC\n\nOne line.\n\n${sections}` }, () => expect(() => readMetricText("muc")).toThrow(`${file} must start with a "# " title and one line of text`));
    inFolder({ "muc.md": `# MUC\n\nOne\nline.\n\n${sections}` }, () => expect(() => readMetricText("muc")).toThrow(`${file} must start with a "# " title and one line of text`));
    inFolder({ "muc.md": `# MUC\n\nOne line.\n\n${sections.replace("## Worked example", "## Example")}` }, () =>
      expect(() => readMetricText("muc")).toThrow(
        `${file} must have the sections "## Definition", "## How Corefboard computes it", "## Worked example", in this order (it has "## Definition", "## How Corefboard computes it", "## Example")`,
      ),
    );
    inFolder({ "muc.md": `# MUC\n\nOne line {{NOPE}}.\n\n${sections}` }, () => expect(() => readMetricText("muc")).toThrow(`${file}: unknown value {{NOPE}}`));
  });
});
