// The owner web app (App Router, sources under src/app). It is served only by src/main.ts, which
// prepares Next with this folder's built output; pages reach the API in-process through
// src/server-api.ts, so no server package is bundled into the pages (type imports only; the
// browser-safe @secondshift/vocabulary is the one they import at run time).
// Plain JavaScript: the production image loads it at start without a TypeScript compiler.

/** @type {import("next").NextConfig} */
const config = {
  poweredByHeader: false,
  reactStrictMode: true,
  // `npm run typecheck` (tsc) checks the app; the build does not repeat it. The pages have
  // their own TypeScript project (DOM, JSX, Next's globals); tsconfig.json is the Node side.
  typescript: { ignoreBuildErrors: true, tsconfigPath: "tsconfig.next.json" },
  // Shared with main.ts at run time (TRPCError identity between the caller and the pages).
  serverExternalPackages: ["@trpc/server"],
  // The one workspace package the pages import at run time (browser-safe, TypeScript source).
  transpilePackages: ["@secondshift/vocabulary"],
};

export default config;
