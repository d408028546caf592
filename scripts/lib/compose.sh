# Sourced by up.sh, backup.sh, restore.sh and the smoke test: one way to call compose.
#   SECONDSHIFT_ENV_FILE     settings file (default: <repo>/.env), also used for ${...} in compose.yaml
#   COMPOSE_PROJECT_NAME     project (default: secondshift): names the containers and volumes
#   SECONDSHIFT_COMPOSE_OVERRIDE  compose files read after compose.yaml, colon-separated
#                            (default: compose.override.yaml, which publishes the web port; the
#                            tests use docker/compose.hostnet.yaml instead)
# `docker compose` (v2) when the plugin exists, else Debian's docker-compose (1.29).
compose_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
export SECONDSHIFT_ENV_FILE=${SECONDSHIFT_ENV_FILE:-$compose_root/.env}
export COMPOSE_PROJECT_NAME=${COMPOSE_PROJECT_NAME:-secondshift}

compose_command() {
  if docker compose version >/dev/null 2>&1; then
    echo "docker compose"
  elif command -v docker-compose >/dev/null; then
    echo docker-compose
  fi
}

compose() {
  local files=(-f "$compose_root/compose.yaml") extra cmd
  IFS=: read -r -a extra <<<"${SECONDSHIFT_COMPOSE_OVERRIDE:-$compose_root/compose.override.yaml}"
  for f in "${extra[@]}"; do files+=(-f "$f"); done
  cmd=$(compose_command)
  [ -n "$cmd" ] || { echo "neither 'docker compose' nor docker-compose is installed" >&2; return 1; }
  # shellcheck disable=SC2086 # "docker compose" is two words on purpose
  $cmd --project-directory "$compose_root" --env-file "$SECONDSHIFT_ENV_FILE" \
    -p "$COMPOSE_PROJECT_NAME" "${files[@]}" "$@"
}

# The value of KEY in the settings file (the last assignment wins, as in compose).
env_value() {
  sed -n "s/^$1=//p" "$SECONDSHIFT_ENV_FILE" | tail -1
}
