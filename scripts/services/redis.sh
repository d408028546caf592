#!/usr/bin/env bash
# start DIR: a throwaway Redis on a free loopback port (no persistence); prints its URL.
# stop DIR: stops it.
set -euo pipefail
cmd=$1 dir=$2
case "$cmd" in
  start)
    port=$("$(dirname "$0")/free-port.sh")
    mkdir -p "$dir"
    redis-server --port "$port" --bind 127.0.0.1 --save "" --appendonly no --dir "$dir" \
      --pidfile "$dir/redis.pid" --logfile "$dir/redis.log" --daemonize yes
    for _ in $(seq 50); do redis-cli -p "$port" ping >/dev/null 2>&1 && break; sleep 0.1; done
    echo "redis://127.0.0.1:$port"
    ;;
  stop)
    [ -f "$dir/redis.pid" ] && kill "$(cat "$dir/redis.pid")" 2>/dev/null || true
    ;;
esac
