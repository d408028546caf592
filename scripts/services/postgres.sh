#!/usr/bin/env bash
# start DIR: a throwaway PostgreSQL cluster in DIR on a free loopback port; prints its admin URL.
#   Run again after `stop DIR`, it starts the same cluster on the same port (data kept): tests
#   use that to take the database away and bring it back.
# stop DIR: stops it.
set -euo pipefail
bin=/usr/lib/postgresql/15/bin
cmd=$1 dir=$2
case "$cmd" in
  start)
    if [ -f "$dir/port" ] && [ -d "$dir/data" ]; then
      port=$(cat "$dir/port")
    else
      port=$("$(dirname "$0")/free-port.sh")
      mkdir -p "$dir"
      chown postgres:postgres "$dir"
      runuser -u postgres -- "$bin/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --no-locale >/dev/null
      echo "$port" >"$dir/port"
    fi
    # Dynamic shared memory in files of the data folder, not /dev/shm: an image build (mmdebstrap)
    # can mount a fresh tmpfs over the host's /dev/shm, and the server then fails every connection.
    runuser -u postgres -- "$bin/pg_ctl" -D "$dir/data" -l "$dir/postgres.log" -w start -o \
      "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=400 -c dynamic_shared_memory_type=mmap" >/dev/null
    echo "postgresql://postgres@127.0.0.1:$port/postgres"
    ;;
  stop)
    [ -d "$dir/data" ] && runuser -u postgres -- "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
    ;;
esac
