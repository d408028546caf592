#!/usr/bin/env bash
# Assembles the service image's /app from this workspace (after `npm ci` and `npm run
# db:generate`): the bundled entry points (scripts/bundle.mjs), the production dependencies only
# (`npm ci --omit=dev` from the same lockfile, so every package sits where the bundles expect
# it), the Prisma schema and migrations, and the health check. Used by both image builds: the
# air-gapped one (scripts/build-images.sh) and the registry one (docker/app.Dockerfile).
#
# usage: scripts/stage-app.sh OUT_DIR
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: scripts/stage-app.sh OUT_DIR}
mkdir -p "$out"
out=$(cd "$out" && pwd)

node "$root/scripts/bundle.mjs" "$out"

# Production dependencies, installed once per lockfile (and version of this script) into a cache and hard-linked from there
# (a rebuild after a code change — the upgrade path — then takes seconds).
deps_key=$(cd "$root" && cat package-lock.json scripts/versions.env scripts/stage-app.sh | sha256sum | cut -c1-16)
cache=${SECONDSHIFT_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/secondshift}
deps="$cache/app-deps-$deps_key"
if [ ! -d "$deps/node_modules" ]; then
  rm -rf "$cache"/app-deps-* && mkdir -p "$deps.partial"
  # The lockfile is a workspace lockfile: npm ci needs every workspace's package.json beside it.
  cp "$root/package.json" "$root/package-lock.json" "$deps.partial/"
  patterns=$(cd "$root" && node -p 'require("./package.json").workspaces.join(" ")')
  for pattern in $patterns; do
    for manifest in "$root"/$pattern/package.json; do
      [ -f "$manifest" ] || continue
      dir=$(dirname "${manifest#"$root"/}")
      mkdir -p "$deps.partial/$dir"
      cp "$manifest" "$deps.partial/$dir/"
    done
  done
  # No install scripts: nothing here needs one, and Prisma's would try to download engines.
  (cd "$deps.partial" && npm ci --omit=dev --ignore-scripts --prefer-offline --no-audit --no-fund --loglevel=error >/dev/null)
  # Workspace packages are inside the bundles; their links would only point at bare manifests.
  rm -rf "$deps.partial/node_modules/@secondshift" "$deps.partial/node_modules/.bin"
  # `--omit=dev` keeps "devOptional" packages: development tools that are only *optional* peers
  # in production (the prisma CLI and typescript for @prisma/client, and their trees). Nothing
  # at run time needs them; drop them (and ~250 MB with them). TypeScript is also a required
  # peer of tRPC's packages, for their types only: it is never loaded at run time either.
  (cd "$deps.partial" && node -e '
    const { rmSync } = require("node:fs");
    const { packages } = require("./package-lock.json");
    for (const [path, entry] of Object.entries(packages))
      if (path && (entry.devOptional || path === "node_modules/typescript"))
        rmSync(path, { recursive: true, force: true });')
  mv "$deps.partial" "$deps"
fi
cp -al "$deps"/. "$out"/ 2>/dev/null || cp -a "$deps"/. "$out"/

mkdir -p "$out/prisma"
cp "$root/prisma/schema.prisma" "$out/prisma/"
cp -r "$root/prisma/migrations" "$out/prisma/"
cp "$root/docker/app/healthcheck.mjs" "$out/"
echo "staged the service app in $out ($(du -sh "$out" | cut -f1))"
