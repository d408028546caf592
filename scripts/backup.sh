#!/usr/bin/env bash
# Backs up the stack's PostgreSQL database (pg_dump custom format, from inside the running
# postgres container) into BACKUP_DIR (default: <repo>/backups), readable by root only.
# Everything the platform keeps is in PostgreSQL, except the Redis queues (rebuilt from the
# database: schedules are re-registered at worker start) and the encryption key: the key is NOT
# in the dump. Keep .env (SECONDSHIFT_ENCRYPTION_KEY) in a separate safe place; without it the
# stored credentials in a restored database cannot be decrypted.
#   usage: scripts/backup.sh [BACKUP_DIR]       prints the dump's path on the last line
set -euo pipefail
# shellcheck source=lib/compose.sh
. "$(dirname "$0")/lib/compose.sh"
# shellcheck source=lib/key-id.sh
. "$(dirname "$0")/lib/key-id.sh"
dir=${1:-$compose_root/backups}
umask 077
mkdir -p "$dir"
file="$dir/secondshift-$(date -u +%Y%m%dT%H%M%SZ).dump"

compose exec -T postgres pg_dump -U secondshift -d secondshift --format=custom >"$file.partial"
# A dump that pg_restore cannot list is not a backup.
compose exec -T postgres pg_restore --list <"$file.partial" >/dev/null
mv "$file.partial" "$file"

needed=$(compose exec -T postgres psql -U secondshift -d secondshift -tAc \
  'SELECT string_agg("keyId", $$, $$ ORDER BY "createdAt") FROM "EncryptionKeyCheck"' | tr -d '\r')
current=$(key_id "$(env_value SECONDSHIFT_ENCRYPTION_KEY)")
echo "backup written: $file ($(du -h "$file" | cut -f1))"
echo "The encryption key is not in the dump. Restoring it needs key id(s): ${needed:-none yet}"
echo "(this stack's SECONDSHIFT_ENCRYPTION_KEY is key $current, in $SECONDSHIFT_ENV_FILE; keep that file apart from the backups)."
echo "$file"
