# Sourced by host-setup.sh and services/dockerd.sh: one definition of how gVisor is registered
# with Docker (packages/sandbox/README.md, "Installing and registering gVisor").
#   --network=none  sandboxes never have a network (and runsc refuses to start in the root
#                   network namespace without it)
#   --oci-seccomp   runsc applies the container's seccomp profile, which refuses device nodes;
#                   without it runsc silently ignores every profile
# Needs jq.
RUNSC_ARGS='["--network=none","--oci-seccomp"]'

# True when the running engine lists runsc with every flag above.
runsc_registered() {
  docker info --format '{{json .Runtimes}}' 2>/dev/null |
    jq -e --argjson want "$RUNSC_ARGS" '(.runsc.runtimeArgs // []) as $have | all($want[]; . as $f | $have | index($f))' >/dev/null
}

# The configuration file the running dockerd reads: its --config-file, else Docker's default.
# DOCKERD_PID (set by docker-engine.sh when it started one) names the engine among several.
docker_config_file() {
  local pid arg prev="" file=""
  pid=${DOCKERD_PID:-$(pidof -s dockerd 2>/dev/null || true)}
  if [ -n "$pid" ]; then
    while IFS= read -r -d '' arg; do
      [ "$prev" = --config-file ] && file=$arg
      case "$arg" in --config-file=*) file=${arg#--config-file=} ;; esac
      prev=$arg
    done <"/proc/$pid/cmdline"
    case "$file" in "" | /*) ;; *) file="/proc/$pid/cwd/$file" ;; esac
  fi
  echo "${file:-/etc/docker/daemon.json}"
}

# Rewrites FILE so that runsc (at PATH) carries the flags above; keeps every other setting and
# any other runsc flag except a different --network.
write_runsc_config() { # FILE PATH
  local file=$1
  mkdir -p "$(dirname "$file")"
  [ -s "$file" ] || echo '{}' >"$file"
  jq --arg path "$2" --argjson want "$RUNSC_ARGS" \
    '.runtimes.runsc = {path: $path, runtimeArgs: (((.runtimes.runsc.runtimeArgs // []) | map(select((startswith("--network") or (. as $f | $want | index($f))) | not))) + $want)}' \
    "$file" >"$file.new"
  mv "$file.new" "$file"
}

# Runtimes are reloadable: SIGHUP, no restart, running containers untouched.
reload_dockerd() {
  if [ -n "${DOCKERD_PID:-}" ]; then
    kill -HUP "$DOCKERD_PID"
  elif command -v systemctl >/dev/null && [ -d /run/systemd/system ] && systemctl is-active -q docker; then
    systemctl reload docker
  else
    kill -HUP "$(pidof -s dockerd)"
  fi
}
