#!/usr/bin/env bash
# start DIR: makes sure a Docker engine with the runsc runtime answers on /var/run/docker.sock.
#   Starts dockerd (no bridge, no iptables: sandboxes never have a network) when none runs and
#   writes DIR/started; registers runsc (scripts/lib/runsc.sh: --network=none --oci-seccomp) in
#   the running engine's configuration file and reloads it (SIGHUP) when the engine lacks runsc
#   or one of those flags.
# stop DIR: stops the engine only if `start` started it.
set -euo pipefail
cmd=$1 dir=$2
. "$(dirname "$0")/../lib/runsc.sh"
case "$cmd" in
  start)
    mkdir -p "$dir"
    if docker info >/dev/null 2>&1; then
      if ! runsc_registered; then
        config=$(docker_config_file)
        echo "registering runsc $RUNSC_ARGS with the running Docker engine ($config)" >&2
        write_runsc_config "$config" /usr/bin/runsc
        reload_dockerd
        for _ in $(seq 20); do runsc_registered && break; sleep 0.5; done
        runsc_registered || { echo "Docker still lists no runsc $RUNSC_ARGS; see $config" >&2; exit 1; }
      fi
      exit 0
    fi
    rm -f "$dir/daemon.json"
    write_runsc_config "$dir/daemon.json" /usr/bin/runsc
    nohup dockerd --config-file "$dir/daemon.json" --bridge=none --iptables=false --ip6tables=false \
      >"$dir/dockerd.log" 2>&1 &
    echo $! >"$dir/started"
    for _ in $(seq 100); do docker info >/dev/null 2>&1 && exit 0; sleep 0.2; done
    echo "dockerd did not start; see $dir/dockerd.log" >&2
    tail -20 "$dir/dockerd.log" >&2
    exit 1
    ;;
  stop)
    if [ -f "$dir/started" ]; then
      pid=$(cat "$dir/started")
      kill "$pid" 2>/dev/null || true
      for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    fi
    ;;
esac
