// Compiles each service entry point to one JavaScript file with esbuild, so the images run
// plain `node` (no tsx, no TypeScript sources). Workspace packages (@secondshift/*, which export
// .ts sources) are bundled in; npm dependencies stay external and load from the production
// node_modules at run time (Prisma's query compiler and schema engine wasm, pg, pino's workers…).
//
// usage: node scripts/bundle.mjs OUT_DIR      writes OUT_DIR/dist/<entry>.mjs
import { rm } from "node:fs/promises";
import { isBuiltin } from "node:module";
import { join, relative, resolve, sep } from "node:path";
import { build } from "esbuild";

const root = resolve(import.meta.dirname, "..");
const out = process.argv[2];
if (!out) {
  console.error("usage: node scripts/bundle.mjs OUT_DIR");
  process.exit(2);
}

const entries = {
  web: "apps/web/src/main.ts",
  worker: "apps/worker/src/main.ts",
  gateway: "apps/gateway/src/main.ts",
  migrate: "docker/app/migrate.mjs",
  "rotate-keys": "packages/db/src/scripts/rotate-keys.ts",
  // The thread `.secondshift.yaml` files are read in (packages/config, off-thread.ts finds it
  // beside the bundle that starts it).
  "repo-config-parser": "packages/config/src/repo-config/parse-thread.ts",
};

const rootModules = join(root, "node_modules") + sep;

/**
 * Bare imports stay external unless they name a workspace package. A dependency that npm
 * installed inside a workspace (packages/config/node_modules/ajv, because the root holds another
 * major version) is imported by its path relative to the app root instead, since the bundle
 * resolves from /app/dist and the production install keeps the same layout (same lockfile).
 */
const externalNpmPackages = {
  name: "external-npm-packages",
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.pluginData === "inner" || args.path.startsWith("@secondshift/")) return undefined;
      if (isBuiltin(args.path)) return { path: args.path, external: true };
      const found = await b.resolve(args.path, {
        kind: args.kind,
        resolveDir: args.resolveDir,
        pluginData: "inner",
      });
      if (found.errors.length > 0) return { errors: found.errors };
      if (found.path.startsWith(rootModules)) return { path: args.path, external: true };
      return { path: `../${relative(root, found.path).split(sep).join("/")}`, external: true };
    });
  },
};

const dist = join(resolve(out), "dist");
await rm(dist, { recursive: true, force: true });
const started = Date.now();
await build({
  absWorkingDir: root,
  entryPoints: Object.fromEntries(Object.entries(entries).map(([n, f]) => [n, join(root, f)])),
  outdir: dist,
  outExtension: { ".js": ".mjs" },
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node24",
  sourcemap: "linked",
  legalComments: "none",
  logLevel: "warning",
  plugins: [externalNpmPackages],
});
console.log(
  `bundled ${Object.keys(entries).join(", ")} into ${dist} in ${Date.now() - started} ms`,
);
