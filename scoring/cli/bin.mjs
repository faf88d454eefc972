#!/usr/bin/env node
// Entry point of `npx corefboard`: loads the TypeScript CLI through tsx (no build step).
import { register } from "tsx/esm/api";

register();
const { main } = await import("./main.ts");
process.exitCode = await main(process.argv.slice(2), {
  stdout: (s) => process.stdout.write(s),
  stderr: (s) => process.stderr.write(s),
});
