// The owner web app (App Router, sources under src/app). It is served only by src/main.ts, which
// prepares Next with this folder's built output; pages reach the API in-process through
// src/server-api.ts, so no workspace package is bundled into the pages (type imports only).
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
};

export default config;
