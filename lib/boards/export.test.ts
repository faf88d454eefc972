/**
 * The paper tables of a board (board-export.ts): columns of a one-dataset board and of the
 * macro-averaged board of a phase with several datasets, bold for the best ranked value (ties
 * all bold, baselines and disqualified runs never), dashes for rank-less rows and missing
 * scores, escaping of every name (LaTeX and Markdown), the comment lines, and the disqualified
 * block of `disqualifiedApart`. The LaTeX is checked structurally (balanced braces, every row's
 * column count equals the `tabular` spec's, every row ends with `\\`), and, where pdflatex is
 * installed, compiled in a minimal document with booktabs (the log must name no missing
 * character). Boards are built by hand: the builders are pure.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { boardExportColumns, boardLatex, boardMarkdown, latexEscape, markdownEscape, partitionDisqualified, type ExportBoard } from "./export";
import type { BoardMetricsJson } from "./scores";
import type { LeaderboardRow } from "./types";

const NASTY = "R&D_50% {x} #1 $5 ~a^b \\c <d> |e| --f";

/** Scores with the CoNLL parts' F1 and the CoNLL F1. */
function scores(conll: number, parts: [number, number, number] = [conll, conll, conll]): BoardMetricsJson {
  const count = (f1: number) => ({ recall: f1, precision: f1, f1, recall_num: null, recall_den: null, precision_num: null, precision_den: null });
  return { muc: count(parts[0]), bcub: count(parts[1]), ceafe: count(parts[2]), conll: { f1: conll } };
}

let serial = 0;

/** A board row: `rank`, the ranking `value`, scores and flags. */
function row(rank: number | null, value: number | null, fields: Partial<LeaderboardRow> = {}): LeaderboardRow {
  serial += 1;
  return {
    rank,
    value,
    team: { id: `t${serial}`, name: `Team ${serial}` },
    systemName: `sys-${serial}`,
    submissionId: `s${serial}`,
    submittedAt: new Date(Date.UTC(2025, 0, 1)),
    isBaseline: false,
    track: null,
    paperUrl: null,
    codeUrl: null,
    goldVersion: 1,
    scorerVersion: "0.1.0",
    scores: value === null ? {} : scores(value),
    variants: {},
    missing: false,
    datasets: {},
    disqualified: null,
    ...fields,
  };
}

/** A one-dataset board ranked by CoNLL F1 with `rows`. */
function board(rows: LeaderboardRow[], fields: Partial<ExportBoard> = {}): ExportBoard {
  return {
    task: { slug: "litbank", title: "LitBank coreference" },
    phase: { name: "test", selectionRule: "BEST" },
    evaluation: { label: "CoNLL-2012 (reference scorer)", variants: [] },
    metric: "conll",
    variant: null,
    track: null,
    datasets: [{ name: "main" }],
    dataset: null,
    rankDataset: null,
    allRuns: false,
    generatedAt: new Date("2025-06-01T12:00:00.000Z"),
    rows,
    ...fields,
  };
}

/** A macro-averaged board of a phase with datasets en, cs and de: Alpha 1st (left de out), Beta 2nd, a baseline, a disqualified run. */
function macroBoard(): { board: ExportBoard; rows: Record<string, LeaderboardRow> } {
  const per = (en: number, cs: number, de: number | null) => ({
    en: { missing: false, goldVersion: 1, conllF1: en },
    cs: { missing: false, goldVersion: 1, conllF1: cs },
    de: de === null ? { missing: true, goldVersion: null, conllF1: 0 } : { missing: false, goldVersion: 1, conllF1: de },
  });
  const rows = {
    cheat: row(null, 0.95, { disqualified: { reason: "Trained on test", at: new Date() }, datasets: per(0.95, 0.95, 0.95), team: { id: "g", name: "Gamma" }, systemName: "cheat" }),
    alpha: row(1, 0.6, { datasets: per(0.9, 0.9, null), team: { id: "a", name: "Alpha" }, systemName: "a1" }),
    beta: row(2, 0.5, { datasets: per(0.5, 0.5, 0.5), team: { id: "b", name: "Beta" }, systemName: "b1" }),
    base: row(null, 0.3, { isBaseline: true, datasets: per(0.3, 0.3, 0.3), team: { id: "o", name: "Organizers" }, systemName: "base" }),
  };
  return { board: board(Object.values(rows), { datasets: [{ name: "en" }, { name: "cs" }, { name: "de" }] }), rows };
}

/** The body lines of the first `tabular` (comments dropped) and its column count from the spec. */
function tabular(latex: string): { columns: number; lines: string[] } {
  const all = latex.split("\n");
  const begin = all.findIndex((l) => l.startsWith("\\begin{tabular}{"));
  const end = all.indexOf("\\end{tabular}");
  expect(begin).toBeGreaterThanOrEqual(0);
  expect(end).toBeGreaterThan(begin);
  const spec = /^\\begin\{tabular\}\{([lcr]+)\}$/.exec(all[begin])![1];
  return { columns: spec.length, lines: all.slice(begin + 1, end).filter((l) => !l.startsWith("%")) };
}

/** Cells of a row line: split on `&` not escaped, a `\multicolumn{n}` counting n. */
function columnCount(line: string): number {
  const body = line.replace(/ \\\\$/, "");
  const parts = body.split(/(?<!\\)&/);
  const spans = [...body.matchAll(/\\multicolumn\{(\d+)\}/g)].reduce((sum, m) => sum + Number(m[1]) - 1, 0);
  return parts.length + spans;
}

/** True when the braces not escaped as `\{` `\}` pair up. */
function bracesBalanced(text: string): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "\\") {
      i++; // the escaped character (or the command's first letter) is not a brace of the structure
      continue;
    }
    if (c === "{") depth++;
    if (c === "}" && --depth < 0) return false;
  }
  return depth === 0;
}

/** The structural checks of a LaTeX table; returns its row lines (not the rules). */
function checkLatexStructure(latex: string): string[] {
  const code = latex
    .split("\n")
    .filter((l) => !l.startsWith("%"))
    .join("\n");
  expect(bracesBalanced(code), code).toBe(true);
  const { columns, lines } = tabular(latex);
  expect(lines[0]).toBe("\\toprule");
  expect(lines).toContain("\\midrule");
  expect(lines).toContain("\\bottomrule");
  const rows = lines.filter((l) => !/^\\(toprule|midrule|bottomrule)$/.test(l));
  expect(rows.length).toBeGreaterThan(0);
  for (const line of rows) {
    expect(line.endsWith(" \\\\"), line).toBe(true);
    expect(columnCount(line), line).toBe(columns);
  }
  return rows;
}

/** The Markdown table rows (lines starting with `|`) of the first table, split into cells on unescaped pipes. */
function markdownRows(markdown: string, table = 0): string[][] {
  const blocks: string[][] = [];
  let current: string[] | null = null;
  for (const line of markdown.split("\n")) {
    if (line.startsWith("|")) {
      if (!current) blocks.push((current = []));
      current.push(line);
    } else current = null;
  }
  return blocks[table]!.map((line) =>
    line
      .slice(2, -2)
      .split(/(?<!\\) \| /)
      .map((c) => c.trim()),
  );
}

const PDFLATEX = spawnSync("which", ["pdflatex"]).status === 0;

/** Compiles `body` in a minimal article with booktabs; returns the log (throws with it when pdflatex fails). */
function compile(body: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), "board-export-"));
  try {
    writeFileSync(path.join(dir, "t.tex"), `\\documentclass{article}\n\\usepackage{booktabs}\n\\begin{document}\n${body}\\end{document}\n`);
    try {
      execFileSync("pdflatex", ["-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape", "t.tex"], { cwd: dir, stdio: "pipe", timeout: 60_000 });
    } catch {
      throw new Error(readFileSync(path.join(dir, "t.log"), "utf8").slice(-3000));
    }
    return readFileSync(path.join(dir, "t.log"), "utf8");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("escaping", () => {
  it("latexEscape escapes \\ & % $ # _ { } ~ ^, puts < > | in math mode, breaks -- and flattens line breaks", () => {
    expect(latexEscape(NASTY)).toBe(
      "R\\&D\\_50\\% \\{x\\} \\#1 \\$5 \\textasciitilde{}a\\textasciicircum{}b \\textbackslash{}c $<$d$>$ $|$e$|$ -{}-f",
    );
    expect(latexEscape("two\nlines\r\tx")).toBe("two lines  x");
    expect(latexEscape("Škoda – café")).toBe("Škoda – café");
  });

  it("markdownEscape escapes pipes and the characters of Markdown's inline syntax, one line", () => {
    expect(markdownEscape("a|b *c* _d_ `e` [f](g) <h> ~~i~~ &amp; \\j")).toBe("a\\|b \\*c\\* \\_d\\_ \\`e\\` \\[f\\](g) \\<h\\> \\~\\~i\\~\\~ \\&amp; \\\\j");
    expect(markdownEscape("x\ny")).toBe("x y");
  });
});

describe("boardExportColumns", () => {
  it("a one-dataset board: the ranking column, then MUC, B³, CEAFe (CoNLL is the ranking column); MUC-ranked boards add CoNLL; metrics no row has are left out", () => {
    const rows = [row(1, 0.8), row(2, 0.7)];
    expect(boardExportColumns(board(rows)).map((c) => c.header)).toEqual(["CoNLL", "MUC", "B³", "CEAFe"]);
    expect(boardExportColumns(board(rows, { metric: "muc" })).map((c) => c.header)).toEqual(["MUC", "B³", "CEAFe", "CoNLL"]);
    const onlyConll = [row(1, 0.8, { scores: { conll: { f1: 0.8 } } })];
    expect(boardExportColumns(board(onlyConll, { metric: "lea" })).map((c) => c.header)).toEqual(["LEA", "CoNLL"]);
    // A variant: the ranking column names it; the primary CoNLL F1 stays a column of its own.
    const variant = board(rows, { variant: "partial", evaluation: { label: "CRAC", variants: [{ id: "partial", label: "Partial match" }] } });
    expect(boardExportColumns(variant).map((c) => c.header)).toEqual(["CoNLL (Partial match)", "MUC", "B³", "CEAFe", "CoNLL"]);
  });

  it("a phase with several datasets: the macro-average first, then one column per dataset; a rankDataset board by another metric adds its ranking value", () => {
    const { board: macro } = macroBoard();
    expect(boardExportColumns(macro).map((c) => c.header)).toEqual(["Macro avg.", "en", "cs", "de"]);
    const byMuc = { ...macro, metric: "muc" as const, rankDataset: "cs" };
    expect(boardExportColumns(byMuc).map((c) => c.header)).toEqual(["Macro avg. MUC", "cs MUC", "en (CoNLL)", "cs (CoNLL)", "de (CoNLL)"]);
    // A dataset's own board is a one-dataset table.
    expect(boardExportColumns({ ...macro, dataset: { name: "cs" } }).map((c) => c.header)).toEqual(["CoNLL", "MUC", "B³", "CEAFe"]);
    // A variant's board: the dataset columns are the variant's CoNLL F1 (the board carries them so), and say so;
    // ranked by one dataset's CoNLL F1 in it, that dataset's column is the ranking value (no extra column).
    const evaluation = { label: "CRAC", variants: [{ id: "partial", label: "Partial match" }] };
    const partial = { ...macro, variant: "partial", evaluation };
    expect(boardExportColumns(partial).map((c) => c.header)).toEqual(["Macro avg. CoNLL (Partial match)", "en (CoNLL, Partial match)", "cs (CoNLL, Partial match)", "de (CoNLL, Partial match)"]);
    expect(boardExportColumns({ ...partial, rankDataset: "cs" }).map((c) => c.header)).toEqual(["Macro avg. CoNLL (Partial match)", "en (CoNLL, Partial match)", "cs (CoNLL, Partial match)", "de (CoNLL, Partial match)"]);
    expect(boardLatex(partial)).toContain("% Metric: ranked by CoNLL F1; Macro avg. = mean over the datasets; dataset columns: CoNLL F1, variant Partial match");
  });
});

describe("boardLatex", () => {
  it("a one-dataset board: booktabs tabular, percentages, best ranked value bold (ties all bold), baselines and rank-less rows with --, names escaped, facts in comments", () => {
    const rows = [
      row(null, 0.99, { isBaseline: true, systemName: "oracle", team: { id: "o", name: "Org" } }),
      row(1, 0.81234, { scores: scores(0.81234, [0.9, 0.7, 0.6]), team: { id: "x", name: NASTY }, systemName: "sys_1" }),
      row(1, 0.81234, { scores: scores(0.81234, [0.85, 0.75, 0.6]) }),
      row(3, 0.5, { scores: { conll: { f1: 0.5 } } }),
      row(null, null, { scores: {} }),
    ];
    const latex = boardLatex(board(rows));
    const lines = checkLatexStructure(latex);
    expect(latex).toMatch(/^% Corefboard leaderboard: LitBank coreference \(litbank\)\n% Phase: test\n/);
    for (const fact of ["% Setting: CoNLL-2012 (reference scorer); primary setting", "% Metric: ranked by CoNLL F1", "% Runs: one run per team (each team's best run)", "% Generated: 2025-06-01T12:00:00.000Z"]) {
      expect(latex).toContain(fact);
    }
    expect(latex).toContain("\\begin{tabular}{rllrrrr}");
    expect(lines[0]).toBe("Rank & Team & System & CoNLL & MUC & B\\textsuperscript{3} & CEAF\\textsubscript{e} \\\\");
    // The baseline's 99.00 is not bold (unranked); the tie at 81.23 is bold twice; MUC's best 90.00, B³'s 75.00, CEAFe's tie 60.00.
    expect(lines[1]).toBe("-- & Org & oracle (baseline) & 99.00 & 99.00 & 99.00 & 99.00 \\\\");
    expect(lines[2]).toBe(`1 & ${latexEscape(NASTY)} & sys\\_1 & \\textbf{81.23} & \\textbf{90.00} & 70.00 & \\textbf{60.00} \\\\`);
    expect(lines[3]).toMatch(/^1 & Team \d+ & sys-\d+ & \\textbf\{81\.23\} & 85\.00 & \\textbf\{75\.00\} & \\textbf\{60\.00\} \\\\$/);
    expect(lines[4]).toMatch(/^3 & Team \d+ & sys-\d+ & 50\.00 & -- & -- & -- \\\\$/);
    expect(lines[5]).toMatch(/^-- & Team \d+ & sys-\d+ & -- & -- & -- & -- \\\\$/);
    expect(latex).toContain("\\bottomrule\n\\end{tabular}\n");
  });

  it("a phase with several datasets: macro-average first, a left-out dataset 0.00 with a dagger and a note; a disqualified run inline by default, apart under its heading on request", () => {
    const { board: macro } = macroBoard();
    const inline = boardLatex(macro);
    const lines = checkLatexStructure(inline);
    expect(lines[0]).toBe("Rank & Team & System & Macro avg. & en & cs & de \\\\");
    expect(lines[1]).toBe("-- & Gamma & cheat (disqualified) & 95.00 & 95.00 & 95.00 & 95.00 \\\\");
    expect(lines[2]).toBe("1 & Alpha & a1 & \\textbf{60.00} & \\textbf{90.00} & \\textbf{90.00} & 0.00$^\\dagger$ \\\\");
    expect(lines[3]).toBe("2 & Beta & b1 & 50.00 & 50.00 & 50.00 & \\textbf{50.00} \\\\");
    expect(lines[4]).toBe("-- & Organizers & base (baseline) & 30.00 & 30.00 & 30.00 & 30.00 \\\\");
    expect(lines[5]).toBe("\\multicolumn{7}{l}{\\footnotesize $^\\dagger$ no file for this dataset in the run: it counts as 0.} \\\\");
    expect(inline).toContain("% Metric: ranked by CoNLL F1; Macro avg. = mean over the datasets; dataset columns: CoNLL F1, primary setting");

    const apart = boardLatex(macro, { disqualifiedApart: true, notes: ["Source: x.json, sha256 abc"] });
    const rows = checkLatexStructure(apart);
    expect(rows.map((l) => (l.startsWith("\\multicolumn") ? l : l.split(" & ")[2]))).toEqual(["System", "a1", "b1", "base (baseline)", "\\multicolumn{7}{l}{\\textit{Disqualified}} \\\\", "cheat", expect.stringContaining("footnotesize")]);
    expect(apart).toContain("\\midrule\n% Disqualified: unranked, listed after the ranking\n\\multicolumn{7}{l}{\\textit{Disqualified}} \\\\\n% Gamma / cheat: Trained on test\n-- & Gamma & cheat & 95.00");
    expect(apart).toContain("% Source: x.json, sha256 abc\n");
  });

  it("a board without ranked rows has nothing bold; an empty board is a header-only tabular", () => {
    const unranked = boardLatex(board([row(null, 0.7, { own: true }), row(null, 0.6, { isBaseline: true })]));
    checkLatexStructure(unranked);
    expect(unranked).not.toContain("\\textbf");
    const empty = boardLatex(board([]));
    expect(checkLatexStructure(empty)).toEqual(["Rank & Team & System & CoNLL \\\\"]);
    expect(empty).toContain("% No run is on this board.");
  });

  it("comment lines cannot be broken out of by a name with a line break", () => {
    const latex = boardLatex(board([row(1, 0.5)], { task: { slug: "s", title: "Evil\n\\input{/etc/passwd}" } }));
    expect(latex).toContain("% Corefboard leaderboard: Evil \\input{/etc/passwd} (s)\n");
    expect(latex.split("\n").filter((l) => l.includes("\\input"))).toEqual(["% Corefboard leaderboard: Evil \\input{/etc/passwd} (s)"]);
  });

  it.skipIf(!PDFLATEX)("compiles with pdflatex in a minimal document with booktabs, every special character printable", () => {
    const { board: macro } = macroBoard();
    const rows = [row(1, 0.8, { team: { id: "n", name: NASTY }, systemName: `${NASTY} Škoda café` }), row(null, 0.4, { isBaseline: true })];
    const body = [boardLatex(board(rows)), boardLatex(macro, { disqualifiedApart: true }), boardLatex(board([]))].join("\n\\bigskip\n\n");
    const log = compile(body);
    expect(log).not.toMatch(/Missing character|Undefined control sequence|! /);
    expect(log).toMatch(/Output written on t\.pdf \(1 page/);
  });
});

describe("boardMarkdown", () => {
  it("a GitHub pipe table with the same columns, bold best, dashes, pipes in names escaped, facts in an HTML comment", () => {
    const rows = [row(1, 0.8, { team: { id: "p", name: "Pipe|Team" }, systemName: "a*b*" }), row(2, 0.7), row(null, 0.75, { isBaseline: true })];
    const markdown = boardMarkdown(board(rows, { track: { name: "open--track" }, page: { team: "Pipe" } }));
    expect(markdown.startsWith("<!--\nCorefboard leaderboard: LitBank coreference (litbank)\nPhase: test\nTrack: open-track\n")).toBe(true);
    expect(markdown).toContain(`Runs: one run per team (each team's best run); teams whose name contains "Pipe"`);
    expect(markdown.match(/-->/g)).toHaveLength(1);
    const table = markdownRows(markdown);
    expect(table[0]).toEqual(["Rank", "Team", "System", "CoNLL", "MUC", "B³", "CEAFe"]);
    expect(table[1]).toEqual(["---:", ":---", ":---", "---:", "---:", "---:", "---:"]);
    expect(table[2]).toEqual(["1", "Pipe\\|Team", "a\\*b\\*", "**80.00**", "**80.00**", "**80.00**", "**80.00**"]);
    expect(table[3]).toEqual(["2", expect.stringMatching(/^Team \d+$/), expect.stringMatching(/^sys-\d+$/), "70.00", "70.00", "70.00", "70.00"]);
    expect(table[4]).toEqual(["–", expect.any(String), expect.stringMatching(/ \(baseline\)$/), "75.00", "75.00", "75.00", "75.00"]);
    expect(table.every((cells) => cells.length === 7)).toBe(true);
  });

  it("several datasets, a left-out dataset with a dagger and its note; disqualified runs apart in a table of their own with the reason", () => {
    const { board: macro } = macroBoard();
    const inline = markdownRows(boardMarkdown(macro));
    expect(inline.map((cells) => cells[2])).toEqual(["System", ":---", "cheat (disqualified)", "a1", "b1", "base (baseline)"]);
    expect(inline[3]).toEqual(["1", "Alpha", "a1", "**60.00**", "**90.00**", "**90.00**", "0.00†"]);

    const apart = boardMarkdown(macro, { disqualifiedApart: true });
    expect(markdownRows(apart).map((cells) => cells[2])).toEqual(["System", ":---", "a1", "b1", "base (baseline)"]);
    expect(apart).toContain("\n**Disqualified** (unranked, listed after the ranking)\n");
    expect(apart.indexOf("**Disqualified**")).toBeGreaterThan(apart.indexOf("| 1 | Alpha |"));
    expect(markdownRows(apart, 1)).toEqual([
      ["Rank", "Team", "System", "Macro avg.", "en", "cs", "de", "Reason"],
      ["---:", ":---", ":---", "---:", "---:", "---:", "---:", ":---"],
      ["–", "Gamma", "cheat", "95.00", "95.00", "95.00", "95.00", "Trained on test"],
    ]);
    expect(apart.trimEnd().endsWith("† no file for this dataset in the run: it counts as 0.")).toBe(true);
  });
});

describe("partitionDisqualified", () => {
  it("keeps the board's order within each part", () => {
    const a = { id: "a", disqualified: null };
    const b = { id: "b", disqualified: { reason: "x" } };
    const c = { id: "c" };
    const d = { id: "d", disqualified: { reason: "y" } };
    expect(partitionDisqualified<{ id: string; disqualified?: unknown }>([b, a, d, c])).toEqual({ listed: [a, c], disqualified: [b, d] });
  });
});
