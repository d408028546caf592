#!/usr/bin/env bash
# Assembles the service image's /app from this workspace (after `npm ci` and `npm run
# db:generate`): the bundled entry points (scripts/bundle.mjs), the owner web app's built Next.js
# output (`next build`, served by dist/web.mjs from /app/.next), the production dependencies only
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
# The web app's pages: built once per source change (turbo's cache), then its output without the
# build cache. dist/web.mjs prepares Next with /app as its folder (apps/web/src/next-app.ts).
(cd "$root" && TURBO_TELEMETRY_DISABLED=1 npx turbo run build --filter=@secondshift/web --output-logs=errors-only)
rm -rf "$out/.next"
mkdir -p "$out/.next"
(cd "$root/apps/web/.next" && tar --exclude=./cache --exclude=./node_modules -cf - .) |
  (cd "$out/.next" && tar -xf -)
cp "$root/apps/web/next.config.mjs" "$out/"
# The pages reach their external server packages (next.config.mjs serverExternalPackages)
# through links .next/node_modules/<package>-<hash> into the workspace's node_modules; in /app
# they point at /app/node_modules instead (as many ../ as the link is deep, plus one).
(cd "$root/apps/web/.next" && find node_modules -type l 2>/dev/null) | while read -r link; do
  target=$(readlink "$root/apps/web/.next/$link")
  ups=$(printf '%s' "$link" | tr -cd / | wc -c)
  mkdir -p "$out/.next/$(dirname "$link")"
  ln -sfn "$(printf '../%.0s' $(seq 0 "$ups"))node_modules/${target##*node_modules/}" "$out/.next/$link"
done

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
  # Next's compiler (@next/swc-*, ~100 MB) is an optional dependency used by `next build` and
  # the development server; serving a built app with a JavaScript config never loads it.
  rm -rf "$deps.partial"/node_modules/@next/swc-*
  mv "$deps.partial" "$deps"
fi
cp -al "$deps"/. "$out"/ 2>/dev/null || cp -a "$deps"/. "$out"/

mkdir -p "$out/prisma"
cp "$root/prisma/schema.prisma" "$out/prisma/"
cp -r "$root/prisma/migrations" "$out/prisma/"
cp "$root/docker/app/healthcheck.mjs" "$out/"
echo "staged the service app in $out ($(du -sh "$out" | cut -f1))"
