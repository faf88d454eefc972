// Preloaded into one extra run of the CLI by `npm run bench` (`node --import`): at exit, writes
// the process's peak resident memory to stderr as `corefboard-bench-max-rss-kib <KiB>`, which
// the benchmark reads (Node's spawnSync gives no resource usage of its child).
process.on("exit", () => {
  process.stderr.write(`\ncorefboard-bench-max-rss-kib ${process.resourceUsage().maxRSS}\n`);
});
