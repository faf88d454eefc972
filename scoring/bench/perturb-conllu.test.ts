/**
 * The CorefUD perturbation generator: deterministic, changes only MISC's coreference values,
 * writes well-formed brackets that the CoNLL-U reader reads back, keeps heads inside their
 * mentions and discontinuous mentions as they are.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readCorefUD } from "../formats/conllu.js";
import { dataDir } from "../test/data-dir.js";
import { perturbCorefUD } from "./perturb-conllu.js";

/** A synthetic document: `sentences` sentences of 12 words, an empty node after word 6 of every
 * other sentence, mentions with a `head` field over 1-4 words, entities spread over sentences. */
function synthetic(sentences: number, headField = true): string {
  const out = ["# newdoc id = synthetic", `# global.Entity = ${headField ? "eid-etype-head-other" : "eid-etype-other"}`];
  let entity = 0;
  for (let s = 0; s < sentences; s++) {
    out.push(`# sent_id = synthetic-${s + 1}`, `# text = sentence ${s + 1}`);
    const misc = new Map<string, string>();
    const add = (id: string, value: string) => misc.set(id, (misc.get(id) ?? "") + value);
    // Three mentions per sentence: words 1-3 (head 3), 5 (one word), 8-11 (head 2), one nested 9-10.
    const e1 = `e${entity++ % 50}`;
    const e2 = `e${entity++ % 50}`;
    const e3 = `e${entity++ % 50}`;
    add("1", `(${e1}-person${headField ? "-3" : ""}-`);
    add("3", `${e1})`);
    add("5", `(${e2}-thing${headField ? "-1" : ""}-)`);
    add("8", `(${e3}-place${headField ? "-2" : ""}-`);
    add("9", `(e${(entity + 3) % 50}-place${headField ? "-1" : ""}-`);
    add("10", `e${(entity + 3) % 50})`);
    add("11", `${e3})`);
    for (let w = 1; w <= 12; w++) {
      const id = String(w);
      out.push(`${id}\tw${w}\tw\tX\t_\t_\t${w === 1 ? 0 : 1}\tdep\t${w === 1 ? "0:root" : "1:dep"}\t${misc.has(id) ? `Entity=${misc.get(id)}|SpaceAfter=No` : "_"}`);
      if (w === 6 && s % 2 === 0) out.push(`6.1\tpro\t_\tPRON\t_\t_\t_\t_\t6:nsubj\t_`);
    }
    out.push("");
  }
  return `${out.join("\n")}\n`;
}

interface Checked {
  label: string;
  sentence: number;
  /** Node positions (line order within the sentence) of the opening and closing bracket. */
  start: number;
  end: number;
  attrs: string[];
}

/**
 * An independent check of the brackets: every closing bracket closes an open mention of its label
 * in the same sentence, and every mention is closed by the end of its sentence.
 */
function checkBrackets(text: string): Checked[] {
  const mentions: Checked[] = [];
  let sentence = 0;
  let node = 0;
  let open = new Map<string, Checked[]>();
  const endSentence = () => {
    for (const [label, stack] of open) expect(stack, `mention ${label} left open in sentence ${sentence}`).toEqual([]);
    open = new Map();
    node = 0;
    sentence++;
  };
  for (const line of text.split("\n")) {
    if (line === "") {
      endSentence();
      continue;
    }
    if (line.startsWith("#")) continue;
    const cols = line.split("\t");
    if (cols[0].includes("-")) continue;
    const entity = cols[9].split("|").find((i) => i.startsWith("Entity="));
    if (entity) {
      for (const chunk of entity.slice(7).match(/\([^()]+\)?|[^()]+\)/g) ?? []) {
        if (chunk.startsWith("(")) {
          const attrs = chunk.replace(/[()]/g, "").split("-");
          const m: Checked = { label: attrs[0], sentence, start: node, end: node, attrs };
          mentions.push(m);
          if (!chunk.endsWith(")")) open.set(m.label, [...(open.get(m.label) ?? []), m]);
        } else {
          const label = chunk.slice(0, -1);
          const stack = open.get(label) ?? [];
          const m = stack.pop();
          expect(m, `${label}) closes nothing in sentence ${sentence}`).toBeDefined();
          m!.end = node;
        }
      }
    }
    node++;
  }
  return mentions;
}

describe("perturbCorefUD", () => {
  const key = synthetic(60);

  it("is deterministic for a seed and differs between seeds", () => {
    const a = perturbCorefUD(key, { seed: 7 });
    expect(perturbCorefUD(key, { seed: 7 })).toEqual(a);
    expect(perturbCorefUD(key, { seed: 8 }).text).not.toBe(a.text);
  });

  it("changes only the coreference items of MISC", () => {
    const { text } = perturbCorefUD(key, { seed: 1 });
    const keyLines = key.split("\n");
    const outLines = text.split("\n");
    expect(outLines).toHaveLength(keyLines.length);
    let changed = 0;
    keyLines.forEach((line, i) => {
      if (line.startsWith("#") || line === "") return expect(outLines[i]).toBe(line);
      const a = line.split("\t");
      const b = outLines[i].split("\t");
      expect(b.slice(0, 9)).toEqual(a.slice(0, 9));
      const rest = (misc: string) => misc.split("|").filter((x) => x !== "_" && !x.startsWith("Entity="));
      expect(rest(b[9])).toEqual(rest(a[9]));
      if (a[9] !== b[9]) changed++;
    });
    expect(changed).toBeGreaterThan(10);
  });

  it("drops, moves, merges, splits and adds mentions at about the asked rates", () => {
    const { stats } = perturbCorefUD(synthetic(400), { seed: 3 });
    expect(stats.documents).toBe(1);
    expect(stats.keyMentions).toBe(1600);
    // 10 % drop: 160 expected; a binomial(1600, 0.1) is within 110..210 with overwhelming odds.
    expect(stats.dropped).toBeGreaterThan(110);
    expect(stats.dropped).toBeLessThan(210);
    expect(stats.shrunk + stats.extended).toBeGreaterThan(40);
    expect(stats.spurious).toBeGreaterThan(40);
    expect(stats.mergedEntities + stats.splitEntities).toBeGreaterThan(0);
    expect(stats.zeros).toBeGreaterThan(20); // 200 empty nodes at 30 %
  });

  it("writes balanced brackets within sentences, heads inside their mentions", () => {
    const { text, stats } = perturbCorefUD(key, { seed: 11, zeroRate: 1 });
    const mentions = checkBrackets(text);
    expect(mentions).toHaveLength(stats.responseMentions);
    for (const m of mentions) {
      const head = Number(m.attrs[2]);
      expect(Number.isInteger(head) && head >= 1 && head <= m.end - m.start + 1, `head ${m.attrs[2]} of ${JSON.stringify(m)}`).toBe(true);
    }
    // zeroRate 1: every empty node (30 of them) carries a one-node mention.
    expect(stats.zeros).toBe(30);
    // Two mentions of one entity never cross.
    const byLabel = new Map<string, Checked[]>();
    for (const m of mentions) byLabel.set(`${m.label}/${m.sentence}`, [...(byLabel.get(`${m.label}/${m.sentence}`) ?? []), m]);
    for (const list of byLabel.values()) {
      for (const a of list) for (const b of list) expect(a.start < b.start && b.start <= a.end && a.end < b.end).toBe(false);
    }
  });

  it("keeps the same head word when it moves a boundary", () => {
    // Only boundary changes: every mention keeps its head word, so the multiset of
    // (sentence, head node) pairs is unchanged.
    const only = { seed: 5, dropRate: 0, boundaryRate: 1, mergeRate: 0, splitRate: 0, spuriousRate: 0, zeroRate: 0 };
    const { text, stats } = perturbCorefUD(key, only);
    expect(stats.shrunk + stats.extended).toBeGreaterThan(60);
    const heads = (t: string) =>
      checkBrackets(t)
        .map((m) => `${m.sentence}:${m.start + Number(m.attrs[2]) - 1}`)
        .sort();
    expect(heads(text)).toEqual(heads(key));
  });

  it("reads back with the CorefUD reader: every mention, heads inside, zeros on empty nodes", () => {
    const { text, stats } = perturbCorefUD(key, { seed: 2 });
    const corpus = readCorefUD(text, "response.conllu");
    expect(corpus.documents.map((d) => d.id)).toEqual(["synthetic"]);
    const entities = corpus.documents[0].corefud!.entities;
    const mentions = entities.flat();
    expect(mentions).toHaveLength(stats.responseMentions);
    for (const m of mentions) expect(m.nodes).toContain(m.head);
    expect(mentions.filter((m) => m.zero)).toHaveLength(stats.zeros);
    expect(stats.zeros).toBeGreaterThan(0);
  });

  it("keeps discontinuous mentions and renames them with their entity", () => {
    const text = [
      "# newdoc id = d",
      "# global.Entity = eid-etype-head-other",
      "1\ta\t_\t_\t_\t_\t0\t_\t_\tEntity=(e1[1/2]-x-1-)",
      "2\tb\t_\t_\t_\t_\t0\t_\t_\t_",
      "3\tc\t_\t_\t_\t_\t0\t_\t_\tEntity=(e1[2/2]-x-1-",
      "4\td\t_\t_\t_\t_\t0\t_\t_\tEntity=e1[2/2])",
      "5\te\t_\t_\t_\t_\t0\t_\t_\tEntity=(e1-x-1-)",
      "",
      "",
    ].join("\n");
    for (let seed = 0; seed < 20; seed++) {
      const out = perturbCorefUD(text, { seed, dropRate: 1, boundaryRate: 1, spuriousRate: 0 });
      const lines = out.text.split("\n");
      // The one-word mention e1 on word 5 is dropped (rate 1); the discontinuous one stays.
      expect(lines[2]).toMatch(/Entity=\(e1\[1\/2\]-x-1-\)$/);
      expect(lines[4]).toMatch(/Entity=\(e1\[2\/2\]-x-1-$/);
      expect(lines[5]).toMatch(/Entity=e1\[2\/2\]\)$/);
      expect(lines[6].endsWith("\t_")).toBe(true);
    }
  });

  it("throws on a mention that crosses a sentence boundary", () => {
    const text = "# newdoc id = d\n# global.Entity = eid-etype\n1\ta\t_\t_\t_\t_\t0\t_\t_\tEntity=(e1-x\n\n1\tb\t_\t_\t_\t_\t0\t_\t_\tEntity=e1)\n";
    expect(() => perturbCorefUD(text, { seed: 1 })).toThrow(/line 5: mention e1 opened at line 3 crosses a sentence boundary/);
  });

  const data = dataDir();
  const gum = data ? join(data, "gum", "corefud-conllu") : null;
  it.skipIf(!gum)("perturbs GUM documents into files the CorefUD reader reads", () => {
    const files = readdirSync(gum!).filter((f) => f.endsWith(".conllu")).sort().slice(0, 4);
    const text = files.map((f) => readFileSync(join(gum!, f), "utf8")).join("");
    const { text: out, stats } = perturbCorefUD(text, { seed: 9 });
    expect(stats.documents).toBe(4);
    checkBrackets(out);
    const corpus = readCorefUD(out, "gum-response.conllu");
    expect(corpus.documents).toHaveLength(4);
    expect(corpus.documents.reduce((n, d) => n + d.corefud!.entities.flat().length, 0)).toBe(stats.responseMentions);
    expect(stats.responseMentions).toBeGreaterThan(stats.keyMentions * 0.8);
  });
});
