#!/usr/bin/env bash
# Restores a dump made by scripts/backup.sh into the stack's database, replacing its contents:
# stops web, gateway and worker, restores, applies any newer migrations, starts everything and
# waits until it is healthy. The services then check the encryption key against the restored
# data and refuse to start, naming the key id they need, when .env holds another key (P07).
#   usage: scripts/restore.sh DUMP_FILE [--yes]    (--yes: do not ask before replacing the data)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=lib/compose.sh
. "$root/scripts/lib/compose.sh"
# shellcheck source=lib/key-id.sh
. "$root/scripts/lib/key-id.sh"
dump=${1:?usage: scripts/restore.sh DUMP_FILE [--yes]}
[ -r "$dump" ] || { echo "cannot read $dump" >&2; exit 1; }
if [ "${2:-}" != --yes ]; then
  read -r -p "Replace every row of project $COMPOSE_PROJECT_NAME's database with $dump? [y/N] " answer
  [ "$answer" = y ] || [ "$answer" = Y ] || { echo "nothing changed"; exit 1; }
fi

echo "key in $SECONDSHIFT_ENV_FILE: $(key_id "$(env_value SECONDSHIFT_ENCRYPTION_KEY)") — the dump's data needs the key it was written with"
compose up -d postgres redis
bash "$root/scripts/wait-healthy.sh" postgres redis
compose stop web gateway worker
# --clean --if-exists: drop what the dump holds, then recreate it; one transaction, so a failed
# restore leaves the database as it was.
compose exec -T postgres pg_restore -U secondshift -d secondshift --clean --if-exists \
  --no-owner --single-transaction <"$dump"
echo "restored $dump"
compose up -d
bash "$root/scripts/wait-healthy.sh"
echo "restore complete: migrations applied, services healthy with the configured key"
