#!/usr/bin/env bash
# start DIR: makes sure a Docker engine with the runsc runtime answers on /var/run/docker.sock.
#   Starts dockerd (no bridge, no iptables: sandboxes never have a network) when none runs and
#   writes DIR/started; registers runsc when a running engine lacks it.
# stop DIR: stops the engine only if `start` started it.
set -euo pipefail
cmd=$1 dir=$2
runtime_config='{"runtimes":{"runsc":{"path":"/usr/bin/runsc","runtimeArgs":["--network=none"]}}}'
case "$cmd" in
  start)
    mkdir -p "$dir"
    if docker info >/dev/null 2>&1; then
      if ! docker info --format '{{json .Runtimes}}' | grep -q '"runsc"'; then
        echo "registering runsc with the running Docker engine (/etc/docker/daemon.json)" >&2
        mkdir -p /etc/docker
        [ -s /etc/docker/daemon.json ] || echo '{}' >/etc/docker/daemon.json
        node -e '
          const fs=require("fs"),p="/etc/docker/daemon.json",c=JSON.parse(fs.readFileSync(p,"utf8"));
          c.runtimes={...(c.runtimes||{}),runsc:{path:"/usr/bin/runsc",runtimeArgs:["--network=none"]}};
          fs.writeFileSync(p,JSON.stringify(c,null,2));'
        pkill -HUP -x dockerd || true
        sleep 1
      fi
      exit 0
    fi
    echo "$runtime_config" >"$dir/daemon.json"
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
