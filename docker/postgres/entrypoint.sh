#!/bin/sh
# Entry point of the air-gapped PostgreSQL image (scripts/build-images.sh): the same contract as
# the official postgres image the registry path uses — POSTGRES_USER / POSTGRES_PASSWORD /
# POSTGRES_DB create the cluster on first start in $PGDATA (a volume); later starts reuse it.
# Local socket connections are trusted (health check, backups through `exec`), TCP needs the
# password (scram-sha-256). $PGPORT, when set, moves the port (host networking in tests).
set -eu
: "${PGDATA:=/var/lib/postgresql/data}"
# The socket directory: the image sets PGHOST so that psql, pg_dump and pg_isready run through
# `docker exec` find it; /run is not writable for the postgres user.
: "${PGHOST:=/tmp}"
export PGHOST
: "${POSTGRES_USER:=postgres}"
: "${POSTGRES_DB:=$POSTGRES_USER}"

if [ ! -s "$PGDATA/PG_VERSION" ]; then
  if [ -z "${POSTGRES_PASSWORD:-}" ]; then
    echo "POSTGRES_PASSWORD is missing: set it in .env (scripts/up.sh generates one)." >&2
    exit 1
  fi
  pwfile=$(mktemp)
  printf '%s' "$POSTGRES_PASSWORD" >"$pwfile"
  initdb -D "$PGDATA" -U "$POSTGRES_USER" --pwfile="$pwfile" -E UTF8 --locale=C.UTF-8 \
    --auth-local=trust --auth-host=scram-sha-256 >/dev/null
  rm -f "$pwfile"
  echo "host all all all scram-sha-256" >>"$PGDATA/pg_hba.conf"
  pg_ctl -D "$PGDATA" -o "-c listen_addresses='' -c unix_socket_directories=$PGHOST" -w start >/dev/null
  if [ "$POSTGRES_DB" != postgres ]; then
    createdb -U "$POSTGRES_USER" "$POSTGRES_DB"
  fi
  pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
  echo "initialized the database cluster in $PGDATA"
fi
exec postgres -D "$PGDATA" -c listen_addresses='*' -c unix_socket_directories="$PGHOST" "$@"
