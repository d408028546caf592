# Sourced by host-setup.sh: starts the Docker engine on a host where it does not answer —
# systemd when the host runs it, else the init script, else dockerd itself (a container or a
# minimal host, where the init script's `ulimit` is not permitted), saying what that means for
# a reboot. SECONDSHIFT_DOCKERD_LOG: where a dockerd started here logs. SECONDSHIFT_DOCKERD_ARGS:
# flags (space-separated, unquoted) for an engine apart from the host's service — its own data
# root, socket (point DOCKER_HOST at it) and --config-file; dockerd is then started directly with
# them. DOCKERD_PID: the pid of a dockerd started here (runsc.sh reloads that one).
wait_for_docker() { # seconds
  for _ in $(seq "$1"); do docker info >/dev/null 2>&1 && return; sleep 1; done
  return 1
}
DOCKERD_LOG=${SECONDSHIFT_DOCKERD_LOG:-/var/log/secondshift-dockerd.log}
read -ra DOCKERD_ARGS <<<"${SECONDSHIFT_DOCKERD_ARGS:-}"
# No service manager could start the engine (a container or a minimal host without systemd,
# where the init script's `ulimit` is not permitted): start dockerd itself, as the test command
# does, and say what that means for a reboot.
start_dockerd_directly() {
  echo "  starting dockerd directly${DOCKERD_ARGS[*]:+ with ${DOCKERD_ARGS[*]}} (log: $DOCKERD_LOG)"
  nohup dockerd "${DOCKERD_ARGS[@]}" >>"$DOCKERD_LOG" 2>&1 </dev/null &
  DOCKERD_PID=$!
  if ! wait_for_docker 30; then
    echo "dockerd did not start; the end of $DOCKERD_LOG:" >&2
    tail -n 20 "$DOCKERD_LOG" >&2
    return 1
  fi
  cat <<NOTE
  NOTE: up.sh started dockerd itself (pid $DOCKERD_PID), not through a service manager.
  It will NOT come back after a reboot, and neither will SecondShift. After a reboot run
  'bash scripts/up.sh' again (it starts dockerd and the stack), or start dockerd from the host's
  own boot mechanism (e.g. an @reboot cron line:
  'nohup dockerd${DOCKERD_ARGS[*]:+ ${DOCKERD_ARGS[*]}} >>$DOCKERD_LOG 2>&1 &'); the stack's containers restart with the engine.
NOTE
}
start_docker() {
  if [ "${#DOCKERD_ARGS[@]}" -gt 0 ]; then
    # A service manager starts the host's own engine, not one with these flags.
    start_dockerd_directly
    return
  fi
  if command -v systemctl >/dev/null && [ -d /run/systemd/system ]; then
    systemctl enable --now docker && wait_for_docker 30 && return
    echo "Docker did not start with systemd; see journalctl -u docker" >&2
    return 1
  fi
  if command -v service >/dev/null; then
    if service docker start && wait_for_docker 15; then return; fi
    echo "  the docker init script could not start the engine (above)"
  fi
  start_dockerd_directly
}
