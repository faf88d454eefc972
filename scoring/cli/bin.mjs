#!/usr/bin/env node
// Entry point of the `corefboard` command (the package's `bin`; `npm run score`).
//
// It runs the compiled CLI, `dist/corefboard.mjs` (one ES module bundled by
// `scripts/build-cli.mjs` at `npm install`), when that bundle is there and none of the sources
// it lists in `dist/inputs.json` is newer than it. Otherwise (no build yet, or a source edited
// since) it loads the TypeScript CLI through tsx, which is slower to start but always current.
// Both print exactly the same. COREFBOARD_CLI_DIST names another bundle folder (for tests).
import { readFileSync, statSync } from "node:fs";
import { setFlagsFromString } from "node:v8";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const root = new URL("../../", import.meta.url);
const dist = process.env.COREFBOARD_CLI_DIST
  ? pathToFileURL(`${resolve(process.env.COREFBOARD_CLI_DIST)}/`)
  : new URL("./dist/", import.meta.url);
const bundle = new URL("corefboard.mjs", dist);

/** True when the bundle exists and no source it was built from changed after it. */
function bundleIsCurrent() {
  try {
    const built = statSync(bundle).mtimeMs;
    const inputs = JSON.parse(readFileSync(new URL("inputs.json", dist), "utf8"));
    return Array.isArray(inputs) && inputs.every((path) => statSync(new URL(path, root)).mtimeMs <= built);
  } catch {
    return false;
  }
}

// Reading a file keeps most of what it allocates (words, mentions), so V8's young generation,
// which starts at 1 MB and grows 2x per step, copies the same objects in scavenge after
// scavenge. Growing it to its usual maximum (16 MiB a semi-space) in one step instead cut the
// garbage collector's scavenges on the 108 GUM documents from 28-32 to about 18, and the whole
// run by about 10 % (npm run bench, case e). Only the pace of growth changes, not the maximum.
setFlagsFromString("--semi-space-growth-factor=16");

let main;
if (bundleIsCurrent()) {
  ({ main } = await import(bundle.href));
} else {
  const { register } = await import("tsx/esm/api");
  register();
  ({ main } = await import("./main.ts"));
}
process.exitCode = await main(process.argv.slice(2), {
  stdout: (s) => process.stdout.write(s),
  stderr: (s) => process.stderr.write(s),
});
