#!/usr/bin/env bash
# The test command (README): on a Debian 12 machine, as root, installs what is missing, starts
# throwaway PostgreSQL and Redis and (if needed) dockerd with runsc, builds the sandbox image
# from Debian packages, runs type checks, lint and every test suite, stops what it started, and
# ends with one line: `N passed, N failed`. Exits non-zero on any failure.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
export NEXT_TELEMETRY_DISABLED=1 TURBO_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1 FORCE_COLOR=0

state=$(mktemp -d /tmp/secondshift-test.XXXXXX)
chmod 755 "$state"
cleanup() {
  bash scripts/services/redis.sh stop "$state/redis"
  bash scripts/services/postgres.sh stop "$state/pg"
  bash scripts/services/dockerd.sh stop "$state/docker"
  rm -rf "$state"
}
trap cleanup EXIT
trap "exit 130" INT TERM

step() { printf '\n=== %s\n' "$*"; }
fail_setup() { echo "setup failed: $*" >&2; echo "0 passed, 1 failed"; exit 1; }

step "system packages"
bash scripts/install-system-deps.sh || fail_setup "installing Debian packages"

# --- Node 24 (scripts/node.sh): the suites run on the Node the service images run ------------
step "node"
node_bin=$(bash scripts/node.sh) || fail_setup "installing Node (scripts/node.sh)"
export PATH="$node_bin:$PATH"
echo "Node $(node --version), npm $(npm --version)"
# ----------------------------------------------------------------------------------------------

step "npm ci"
npm ci --no-audit --no-fund --loglevel=error || fail_setup "npm ci"
npm run db:generate --silent >/dev/null || fail_setup "prisma generate"

step "services"
TEST_DATABASE_URL=$(bash scripts/services/postgres.sh start "$state/pg") || fail_setup "PostgreSQL"
TEST_REDIS_URL=$(bash scripts/services/redis.sh start "$state/redis") || fail_setup "Redis"
export TEST_DATABASE_URL TEST_REDIS_URL
bash scripts/services/dockerd.sh start "$state/docker" || fail_setup "dockerd"
export TEST_SANDBOX_IMAGE=${TEST_SANDBOX_IMAGE:-secondshift-sandbox:test}
if [ -x scripts/build-sandbox-image.sh ]; then
  bash scripts/build-sandbox-image.sh "$TEST_SANDBOX_IMAGE" || fail_setup "building the sandbox image"
fi
echo "PostgreSQL $TEST_DATABASE_URL, Redis $TEST_REDIS_URL, sandbox image $TEST_SANDBOX_IMAGE"

rm -rf .test-results && mkdir -p .test-results
step "typecheck"
npx turbo run typecheck --output-logs=errors-only; echo $? >.test-results/typecheck.status
step "lint"
npx turbo run lint --output-logs=errors-only; echo $? >.test-results/lint.status
step "format"
npx prettier --check . --log-level warn; echo $? >.test-results/format.status
step "tests"
npx turbo run test --concurrency=1 --continue --output-logs=full

# --- deployment smoke test (deploy/): builds the images air-gapped, runs the compose stack ---
step "smoke test of the deployment"
npm run smoke --silent
# ----------------------------------------------------------------------------------------------

step "summary"
node scripts/test-summary.mjs
