#!/usr/bin/env node
/**
 * Builds the compiled `corefboard` CLI: `scoring/cli/main.ts` and everything it imports (the
 * scoring library and commander) bundled by esbuild into one ES module for Node 20,
 * `scoring/cli/dist/corefboard.mjs`, which exports `main` as `main.ts` does. Next to it,
 * `inputs.json` lists the repository's source files in the bundle (paths relative to the
 * repository root): `scoring/cli/bin.mjs` runs the bundle only while none of them is newer than
 * it, and the TypeScript sources through tsx otherwise, so an edit never runs stale code.
 *
 * Run by `npm install` (postinstall) and `npm run build:cli`; by hand:
 *   node scripts/build-cli.mjs [OUTDIR]    (default scoring/cli/dist, git-ignored)
 *
 * Why: starting tsx costs about 0.2 s of the CLI's whole-process time; the bundle starts in a
 * few tens of milliseconds. esbuild only strips types (`npm run typecheck` checks them).
 * Exits 1, printing esbuild's errors, when the sources do not bundle.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const outdir = resolve(process.argv[2] ?? join(root, "scoring", "cli", "dist"));
const outfile = join(outdir, "corefboard.mjs");

mkdirSync(outdir, { recursive: true });
let result;
try {
  result = await build({
    absWorkingDir: root,
    entryPoints: [join(root, "scoring", "cli", "main.ts")],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    // commander is CommonJS: its `require("node:events")` and the like need a real `require`
    // inside an ES module.
    banner: { js: 'import { createRequire as __corefboardCreateRequire } from "node:module";\nconst require = __corefboardCreateRequire(import.meta.url);' },
    legalComments: "eof",
    metafile: true,
    logLevel: "warning",
  });
} catch {
  // esbuild has printed the errors with their locations.
  console.error("build-cli: the corefboard CLI was not built; `corefboard` will run through tsx");
  process.exit(1);
}

const inputs = Object.keys(result.metafile.inputs)
  .map((p) => relative(root, resolve(root, p)).split("\\").join("/"))
  .filter((p) => !p.startsWith("node_modules/") && !p.startsWith(".."))
  .sort();
writeFileSync(join(outdir, "inputs.json"), `${JSON.stringify(inputs, null, 1)}\n`);
const bytes = result.metafile.outputs[relative(root, outfile).split("\\").join("/")]?.bytes;
console.log(`build-cli: ${relative(process.cwd(), outfile) || outfile} (${inputs.length} sources${bytes ? `, ${Math.round(bytes / 1024)} KiB` : ""})`);
