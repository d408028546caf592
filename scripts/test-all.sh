#!/usr/bin/env bash
# The test command (README): on a Debian 12 machine, as root, installs what is missing, starts
# throwaway PostgreSQL and Redis and (if needed) dockerd with runsc, builds the images (each once,
# reused while its inputs are unchanged), runs type checks, lint and every test suite, then the
# deployment smoke test, stops what it started, prints each phase's wall time and ends with one
# line: `N passed, N failed`. Exits non-zero on any failure.
#
# The checks, the suites and the smoke test run in two lanes side by side (scripts/test-lanes.sh):
# on two cores much of a suite's time is spent waiting on containers, browsers and timers.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
export NEXT_TELEMETRY_DISABLED=1 TURBO_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1 FORCE_COLOR=0

state=$(mktemp -d /tmp/secondshift-test.XXXXXX)
chmod 755 "$state"
results="$root/.test-results"
rm -rf "$results" && mkdir -p "$results"
export PHASES_FILE="$results/phases.tsv" PHASES_T0=$EPOCHREALTIME
# shellcheck source=lib/phases.sh
. scripts/lib/phases.sh

cleanup() {
  bash scripts/services/redis.sh stop "$state/redis"
  bash scripts/services/postgres.sh stop "$state/pg"
  bash scripts/services/dockerd.sh stop "$state/docker"
  rm -rf "$state"
}
trap cleanup EXIT
trap "exit 130" INT TERM

step() { printf '\n=== %s\n' "$*"; }
fail_setup() {
  echo "setup failed: $*" >&2
  node scripts/test-summary.mjs --phases-only 2>/dev/null
  echo "0 passed, 1 failed"
  exit 1
}

step "system packages"
phase "system packages" bash scripts/install-system-deps.sh || fail_setup "installing Debian packages"

# Node 24 (scripts/node.sh): the suites run on the Node the service images run.
step "node"
node_bin=$(phase "node" bash scripts/node.sh) || fail_setup "installing Node (scripts/node.sh)"
export PATH="$node_bin:$PATH"
echo "Node $(node --version), npm $(npm --version)"

step "npm ci"
phase "npm ci" npm ci --no-audit --no-fund --loglevel=error || fail_setup "npm ci"
phase "prisma generate" npm run db:generate --silent >/dev/null || fail_setup "prisma generate"

step "services"
start_services() {
  TEST_DATABASE_URL=$(bash scripts/services/postgres.sh start "$state/pg") || return 1
  TEST_REDIS_URL=$(bash scripts/services/redis.sh start "$state/redis") || return 1
  bash scripts/services/dockerd.sh start "$state/docker"
}
phase "services" start_services || fail_setup "PostgreSQL, Redis or dockerd"
export TEST_DATABASE_URL TEST_REDIS_URL
export TEST_SANDBOX_IMAGE=${TEST_SANDBOX_IMAGE:-secondshift-sandbox:test}
echo "PostgreSQL $TEST_DATABASE_URL, Redis $TEST_REDIS_URL, sandbox image $TEST_SANDBOX_IMAGE"

# The web app's build (the web suite, the e2e journey and the app image use it; cached by its
# inputs on this machine, across clean clones) and the sandbox image (the suites and the smoke
# test share it; reused while docker/sandbox is unchanged). The smoke test builds the
# deployment's images itself, through the operator's scripts, each reused while its inputs are.
step "web build and sandbox image"
export TURBO_CACHE_DIR=${TURBO_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/secondshift/turbo}
mkdir -p "$TURBO_CACHE_DIR" && find "$TURBO_CACHE_DIR" -type f -mtime +3 -delete
phase "web build" npx turbo run build --filter=@secondshift/web --output-logs=errors-only ||
  fail_setup "building the web app"
phase "sandbox image" bash scripts/build-sandbox-image.sh "$TEST_SANDBOX_IMAGE" ||
  fail_setup "building the sandbox image"
export SANDBOX_IMAGE_TAG=$TEST_SANDBOX_IMAGE

# Type checks, lint, the format check, every suite and the smoke test, in two lanes.
step "checks, test suites and the deployment smoke test"
phase "checks, suites and smoke" bash scripts/test-lanes.sh

step "summary"
node scripts/test-summary.mjs
