# Sourced by host-setup.sh: starts the Docker engine on a host where it does not answer —
# systemd when the host runs it, else the init script, else dockerd itself (a container or a
# minimal host, where the init script's `ulimit` is not permitted), saying what that means for
# a reboot. SECONDSHIFT_DOCKERD_LOG: where a dockerd started here logs.
wait_for_docker() { # seconds
  for _ in $(seq "$1"); do docker info >/dev/null 2>&1 && return; sleep 1; done
  return 1
}
DOCKERD_LOG=${SECONDSHIFT_DOCKERD_LOG:-/var/log/secondshift-dockerd.log}
# No service manager could start the engine (a container or a minimal host without systemd,
# where the init script's `ulimit` is not permitted): start dockerd itself, as the test command
# does, and say what that means for a reboot.
start_dockerd_directly() {
  echo "  starting dockerd directly (log: $DOCKERD_LOG)"
  nohup dockerd >>"$DOCKERD_LOG" 2>&1 &
  if ! wait_for_docker 30; then
    echo "dockerd did not start; the end of $DOCKERD_LOG:" >&2
    tail -n 20 "$DOCKERD_LOG" >&2
    return 1
  fi
  cat <<NOTE
  NOTE: this machine has no service manager that starts Docker, so up.sh started dockerd itself
  (pid $(pgrep -xo dockerd || echo "?")). It will NOT come back after a reboot, and neither will
  SecondShift. After a reboot run 'bash scripts/up.sh' again (it starts dockerd and the stack),
  or start dockerd from the host's own boot mechanism (e.g. an @reboot cron line:
  'nohup dockerd >>$DOCKERD_LOG 2>&1 &'); the stack's containers restart with the engine.
NOTE
}
start_docker() {
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
