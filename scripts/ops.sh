#!/usr/bin/env bash
# Everyday commands for a running installation, with the same compose files, project and
# settings file as up.sh (scripts/lib/compose.sh), whichever compose is installed (the
# `docker compose` plugin or Debian's docker-compose 1.29, which has no `-p` after the command).
#
# usage: scripts/ops.sh COMMAND [ARGS]
#   status                 every service: state and health
#   logs [SERVICE...] [-f] the services' logs (all when none is named); -f follows them
#   apply                  applies a changed .env: recreates the containers (a restart does not
#                          re-read .env) from the images already built; data volumes are kept
#   stop                   stops the stack (containers kept; `start` or up.sh starts it again)
#   start                  starts a stopped stack as it was
#   rotate-keys            re-encrypts every secret with the current key (docs/DEPLOY.md)
#   compose ARGS...        any other compose command, with the installation's files and project
# Settings: SECONDSHIFT_ENV_FILE (default <repo>/.env), COMPOSE_PROJECT_NAME (default secondshift).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=lib/compose.sh
. "$root/scripts/lib/compose.sh"

usage() { sed -n '6,15p' "$0"; }
[ "$#" -gt 0 ] || { usage; exit 2; }
command=$1
shift
[ -f "$SECONDSHIFT_ENV_FILE" ] || [ "$command" = -h ] || [ "$command" = --help ] || {
  echo "ops.sh: no settings file at $SECONDSHIFT_ENV_FILE; install first with scripts/up.sh" >&2
  exit 1
}

case "$command" in
  status) compose ps "$@" ;;
  logs)
    follow=()
    services=()
    for arg in "$@"; do
      if [ "$arg" = -f ] || [ "$arg" = --follow ]; then follow=(--follow); else services+=("$arg"); fi
    done
    compose logs --no-color --tail=200 "${follow[@]}" "${services[@]}"
    ;;
  apply)
    echo "recreating the containers with the settings in $SECONDSHIFT_ENV_FILE (images and data kept)"
    compose up -d --no-build --force-recreate --remove-orphans
    bash "$root/scripts/wait-healthy.sh"
    ;;
  stop) compose stop ;;
  start)
    compose start
    bash "$root/scripts/wait-healthy.sh"
    ;;
  rotate-keys) compose run --rm migrate node dist/rotate-keys.mjs ;;
  compose) compose "$@" ;;
  -h | --help) usage ;;
  *)
    echo "ops.sh: unknown command '$command'" >&2
    usage >&2
    exit 2
    ;;
esac
