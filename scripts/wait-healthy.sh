#!/usr/bin/env bash
# Waits until the compose stack is ready: the one-shot migrate service exited 0 and every other
# service reports healthy. On a failure or after SECONDSHIFT_WAIT_SECONDS (default 300), prints
# the failing service's last log lines and exits 1.
#   usage: scripts/wait-healthy.sh [SERVICE...]      (default: every service)
set -euo pipefail
# shellcheck source=lib/compose.sh
. "$(dirname "$0")/lib/compose.sh"
deadline=$((SECONDS + ${SECONDSHIFT_WAIT_SECONDS:-300}))

fail() { # service reason
  echo "$1 is not ready: $2" >&2
  compose logs --no-color --tail 40 "$1" >&2 || true
  exit 1
}

state() { # container id → "status health exitcode"
  docker inspect -f '{{.State.Status}} {{if .State.Health}}{{.State.Health.Status}}{{else}}none{{end}} {{.State.ExitCode}}' "$1"
}

services=("$@")
[ "$#" -gt 0 ] || services=(migrate postgres redis gateway web worker)
for service in "${services[@]}"; do
  # By label, not `compose ps`: compose v1 and v2 disagree on listing exited containers.
  id=$(docker ps -a -q --filter "label=com.docker.compose.project=$COMPOSE_PROJECT_NAME" \
    --filter "label=com.docker.compose.service=$service" \
    --filter "label=com.docker.compose.oneoff=False" | head -1)
  [ -n "$id" ] || fail "$service" "no container (compose up did not create it)"
  while :; do
    read -r status health code < <(state "$id")
    if [ "$service" = migrate ]; then
      [ "$status" = exited ] && { [ "$code" = 0 ] && break || fail "$service" "exited with $code"; }
    else
      [ "$health" = healthy ] && break
      [ "$health" = unhealthy ] && fail "$service" "health check failing"
      [ "$status" = restarting ] && fail "$service" "it exited and is being restarted"
      [ "$status" = exited ] || [ "$status" = dead ] && fail "$service" "$status (exit code $code)"
    fi
    [ "$SECONDS" -lt "$deadline" ] || fail "$service" "still $status/$health after the wait"
    sleep 2
  done
  echo "ready: $service"
done
