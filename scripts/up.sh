#!/usr/bin/env bash
# One command to install or upgrade SecondShift on a Debian 12 / Ubuntu server, as root:
#   1. installs or checks Docker, compose and gVisor (runsc), and registers runsc with
#      --network=none (printing every change it makes to the host);
#   2. writes .env with a fresh encryption key and passwords when it is absent (an existing
#      .env is never modified);
#   3. builds the images: from the official base images when a registry is reachable, else
#      air-gapped from Debian packages and the npm registry (scripts/build-images.sh);
#   4. starts the stack with compose, waits until every service is healthy, and prints the URL
#      and the one-time setup link.
# Running it again is the upgrade: new images, migrations applied, data and .env kept.
#
# usage: scripts/up.sh [--airgapped | --registry] [--skip-host-setup] [--no-install]
#   --airgapped / --registry   force how images are built (default: registry if one `docker manifest inspect`
#                              answers within 10 s, else air-gapped)
#   --skip-host-setup          only check Docker, compose and runsc; install and change nothing
#   --no-install               air-gapped: use the workspace as installed (no npm ci)
# SECONDSHIFT_APP_TAG (default latest): the app image tag compose runs.
# Settings for a new .env (read only when .env is created): SECONDSHIFT_PUBLIC_URL (default
# http://<host name>:3000), SECONDSHIFT_HTTP_PORT. Files and project: see scripts/lib/compose.sh.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=lib/compose.sh
. "$root/scripts/lib/compose.sh"

mode=${SECONDSHIFT_BUILD:-auto}
host_setup=1
install=1
for arg in "$@"; do
  case "$arg" in
    --airgapped) mode=airgapped ;;
    --registry) mode=registry ;;
    --skip-host-setup) host_setup=0 ;;
    --no-install) install=0 ;;
    -h | --help) sed -n '2,21p' "$0"; exit 0 ;;
    *) echo "unknown option $arg (see --help)" >&2; exit 2 ;;
  esac
done
# Each step is printed with the time since the start; the summary at the end lists them all.
# shellcheck source=lib/progress.sh
. "$root/scripts/lib/progress.sh"
die() { echo "up.sh: $*" >&2; exit 1; }
# Not ours to act on: Turborepo's telemetry notice (the web build runs turbo).
export TURBO_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1

step "host: Docker, compose, gVisor"
if [ "$host_setup" = 1 ]; then
  [ "$(id -u)" = 0 ] || die "run as root (it installs packages and configures Docker), or pass --skip-host-setup"
  bash "$root/scripts/host-setup.sh"
else
  docker info >/dev/null 2>&1 || die "the Docker engine does not answer (docker info)"
  docker info --format '{{json .Runtimes}}' | grep -q '"runsc"' ||
    die "Docker has no runsc runtime; run without --skip-host-setup to register it"
  [ -n "$(compose_command)" ] || die "no compose: install docker-compose or the compose plugin"
  echo "checked: Docker answers, runsc is registered, $(compose_command) is installed"
fi

step "settings: $SECONDSHIFT_ENV_FILE"
bash "$root/scripts/write-env.sh" "$SECONDSHIFT_ENV_FILE"

if [ "$mode" = auto ]; then
  # One look at the registry, bounded: the manifest only, no layers (a firewall that drops
  # packets would otherwise hold a pull for its whole timeout).
  probe_started=$SECONDS
  if timeout 10 docker manifest inspect debian:bookworm-slim >/dev/null 2>&1; then mode=registry; else mode=airgapped; fi
  echo "image build: $mode (a registry is $([ "$mode" = registry ] || echo "not ")reachable; checked in $((SECONDS - probe_started)) s — --airgapped or --registry skips the check)"
fi
tag=$(git -C "$root" rev-parse --short=12 HEAD 2>/dev/null || date +%Y%m%d%H%M%S)

step "images ($mode)"
if [ "$mode" = registry ]; then
  quiet_build -f docker/app.Dockerfile -t "secondshift-app:$tag" .
  quiet_build -f docker/sandbox/Dockerfile -t secondshift-sandbox:latest .
  for pair in postgres:15-bookworm=secondshift-postgres:15 redis:7-bookworm=secondshift-redis:7; do
    docker pull -q "${pair%%=*}" >/dev/null && docker tag "${pair%%=*}" "${pair#*=}"
  done
else
  PATH="$(bash "$root/scripts/node.sh"):$PATH"
  export PATH PRISMA_SCHEMA_ENGINE_BINARY=${PRISMA_SCHEMA_ENGINE_BINARY:-/bin/true}
  if [ "$install" = 1 ]; then
    echo "installing the workspace with Node $(node --version)"
    npm ci --no-audit --no-fund --loglevel=error
    npm run db:generate --silent >/dev/null
  fi
  bash "$root/scripts/build-images.sh" "$tag"
fi
# The tag compose runs ("latest"); the commit tag stays for a rollback (docs/DEPLOY.md).
docker tag "secondshift-app:$tag" "secondshift-app:${SECONDSHIFT_APP_TAG:-latest}"

step "stack (project $COMPOSE_PROJECT_NAME)"
compose up -d --remove-orphans
bash "$root/scripts/wait-healthy.sh"

step "ready"
public_url=$(env_value SECONDSHIFT_PUBLIC_URL)
echo "SecondShift is running: $public_url"
# The web service logs a one-time setup link while no user exists.
setup=$(compose logs --no-color web 2>/dev/null | grep -o '[a-z]*://[^" ]*/setup?token=[A-Za-z0-9_.~-]*' | tail -1 || true)
if [ -n "$setup" ]; then
  echo "First-run setup (one time, keep it private): $setup"
else
  echo "First-run setup: open $public_url/setup (no setup link in the web log: an owner exists already, or this version has no setup page yet)"
fi
echo "Back up the database with scripts/backup.sh, and keep .env (its encryption key) apart from the backups."
echo "Everyday commands (status, logs, applying an .env change, stopping): bash scripts/ops.sh --help"
step_summary
