#!/usr/bin/env bash
# start DIR: a throwaway Redis on a free loopback port (no persistence); prints its URL.
#   Run again after `stop DIR`, it starts on the same port (empty): tests use that to take
#   Redis away and bring it back.
# stop DIR: stops it.
set -euo pipefail
cmd=$1 dir=$2
case "$cmd" in
  start)
    if [ -f "$dir/port" ]; then
      port=$(cat "$dir/port")
    else
      port=$("$(dirname "$0")/free-port.sh")
      mkdir -p "$dir"
      echo "$port" >"$dir/port"
    fi
    redis-server --port "$port" --bind 127.0.0.1 --save "" --appendonly no --dir "$dir" \
      --pidfile "$dir/redis.pid" --logfile "$dir/redis.log" --daemonize yes
    for _ in $(seq 50); do redis-cli -p "$port" ping >/dev/null 2>&1 && break; sleep 0.1; done
    echo "redis://127.0.0.1:$port"
    ;;
  stop)
    if [ -f "$dir/redis.pid" ]; then
      pid=$(cat "$dir/redis.pid")
      kill "$pid" 2>/dev/null || true
      # Wait until it is gone, so a start right after finds the port free.
      for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    fi
    ;;
esac
