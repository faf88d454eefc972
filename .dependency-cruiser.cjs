/**
 * The allowed arrows between Corefboard's modules (ARCHITECTURE.md), checked by
 * dependency-cruiser: `npm run boundaries`, and in `npm test` (scripts/test-all.mjs). A forbidden
 * import fails the check with the rule's name and the offending import.
 *
 * Layers of lib/, lowest first. A module may import its own layer's folders and any lower layer,
 * never a higher one. The lowest layer ("infra") is what everything uses: lib/'s root files, the
 * database (lib/db, the generated client) and the request/response schemas (lib/validations).
 */
const LAYERS = [
  ["audit"],
  ["teams"],
  ["accounts"],
  ["auth"],
  ["http", "scorer", "content"],
  ["upload-pool", "uploads"],
  ["tasks"],
  ["boards"],
  ["runs"],
  ["view-models", "routes"],
  ["worker"],
  ["demo", "bench"],
];

/** Test files, fixtures and test helpers: they may reach across layers to set up a case. */
const TEST_FILES = "\\.(test|spec)\\.tsx?$|\\.fixtures\\.ts$|/test-[^/]*\\.ts$|/__mocks__/|^e2e/";

/** The domain folders: each has a public surface, its `index.ts`. */
const DOMAINS = ["tasks", "runs", "boards", "teams", "accounts", "audit", "uploads"];

/** Benchmarks and their seeders: like tests, they may reach behind a domain's surface. */
const BENCH_FILES = "^lib/bench/|(^|/)bench[^/]*\\.ts$";

/** One rule per layer: nothing in it imports a folder of a higher layer. */
const layerRules = LAYERS.slice(0, -1).map((layer, index) => {
  const higher = LAYERS.slice(index + 1).flat();
  return {
    name: `layer-${layer.join("-")}`,
    comment: `lib/{${layer.join(",")}} sits below lib/{${higher.join(",")}} (ARCHITECTURE.md): it may not import them.`,
    severity: "error",
    from: { path: `^lib/(${layer.join("|")})/`, pathNot: TEST_FILES },
    to: { path: `^lib/(${higher.join("|")})/` },
  };
});

/** @type {import("dependency-cruiser").IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "No import cycles between the product's modules, type imports included (the browser tests' helpers are test code).",
      severity: "error",
      from: { pathNot: "^e2e/" },
      to: { circular: true },
    },
    {
      name: "scoring-is-framework-free",
      comment: "scoring/ is a library and CLI of its own: it imports nothing from lib/, app/, Next, React or Prisma.",
      severity: "error",
      from: { path: "^scoring/" },
      to: { path: "^(lib|app)/|node_modules/(next|react|react-dom|next-auth|@prisma|prisma)/" },
    },
    {
      name: "lib-not-app",
      comment: "Data flows app -> lib -> scoring: lib/ never imports app/ (a test may call a route handler).",
      severity: "error",
      from: { path: "^lib/", pathNot: TEST_FILES },
      to: { path: "^app/" },
    },
    {
      name: "app-not-prisma",
      comment: "app/ holds routes and UI only; it reaches the database through lib/'s domain modules (types from lib/db/index.ts are fine).",
      severity: "error",
      from: { path: "^app/", pathNot: TEST_FILES + "|^app/api/v1/test-helpers\\.ts$" },
      to: { path: "^lib/generated/|^lib/db/(?!index\\.ts$)|node_modules/(@prisma|prisma)/" },
    },
    {
      name: "infra-not-domains",
      comment: "lib/'s root files and lib/db, lib/validations are what everything uses: they import no domain folder.",
      severity: "error",
      from: { path: "^lib/([^/]+\\.(ts|mjs)|db/|validations/)", pathNot: TEST_FILES },
      to: { path: `^lib/(${LAYERS.flat().join("|")})/` },
    },
    {
      name: "domain-through-index",
      comment: "Outside a domain folder, the domain is reached through its public surface, lib/<domain>/index.ts (tests and benchmarks may reach the modules behind it).",
      severity: "error",
      from: { path: "^(app|scripts)/", pathNot: `${TEST_FILES}|${BENCH_FILES}` },
      to: { path: `^lib/(${DOMAINS.join("|")})/(?!index\\.ts$)` },
    },
    {
      name: "domain-through-index",
      comment: "Another lib/ folder reaches a domain through its public surface, lib/<domain>/index.ts.",
      severity: "error",
      from: { path: "^lib/([^/]+)/", pathNot: `${TEST_FILES}|${BENCH_FILES}` },
      to: { path: `^lib/(${DOMAINS.join("|")})/(?!index\\.ts$)`, pathNot: "^lib/$1/" },
    },
    ...layerRules,
  ],
  options: {
    // The generated Prisma client is not cruised, but imports of it are seen (app-not-prisma).
    doNotFollow: { path: "^(node_modules|lib/generated)/" },
    exclude: { path: "^(\\.next|scoring/cli/dist)/" },
    // Type-only imports count: a cycle through types is still a cycle.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".mjs", ".js", ".d.ts"],
    },
    cache: false,
  },
};
