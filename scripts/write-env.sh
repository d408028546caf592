#!/usr/bin/env bash
# Writes the compose settings file (.env) for scripts/up.sh when it is absent: .env.example with
# a fresh encryption key, fresh PostgreSQL and Redis passwords, and the URLs of the compose
# services filled in; readable by root only. An existing file is never modified: it is only
# checked for the settings compose needs.
#   usage: scripts/write-env.sh FILE
# Read when the file is created: SECONDSHIFT_PUBLIC_URL (default http://<host name>:<port>),
# SECONDSHIFT_HTTP_PORT (3000), and for tests on the host network SECONDSHIFT_POSTGRES_ADDR
# (postgres:5432), SECONDSHIFT_REDIS_ADDR (redis:6379), SECONDSHIFT_GATEWAY_ADDR (gateway:4000).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
file=${1:?usage: scripts/write-env.sh FILE}
required=(POSTGRES_PASSWORD REDIS_PASSWORD DATABASE_URL REDIS_URL SECONDSHIFT_ENCRYPTION_KEY
  SECONDSHIFT_PUBLIC_URL SECONDSHIFT_GATEWAY_URL)

if [ -e "$file" ]; then
  missing=()
  for key in "${required[@]}"; do
    grep -Eq "^$key=.+" "$file" || missing+=("$key")
  done
  if [ "${#missing[@]}" -gt 0 ]; then
    echo "$file exists but lacks ${missing[*]}; add them (see .env.example) — it is never rewritten" >&2
    exit 1
  fi
  echo "kept $file as it is (an existing settings file is never rewritten)"
  exit 0
fi

random() { head -c "$1" /dev/urandom | base64 -w0; }
# URL-safe: the passwords sit inside DATABASE_URL and REDIS_URL.
password() { random 24 | tr '+/' '-_' | tr -d '='; }
pg_password=$(password)
redis_password=$(password)
port=${SECONDSHIFT_HTTP_PORT:-3000}
public_url=${SECONDSHIFT_PUBLIC_URL:-http://$(hostname -f 2>/dev/null || hostname):$port}
docker_gid=$(stat -c %g "${DOCKER_SOCKET:-/var/run/docker.sock}" 2>/dev/null || echo 0)
declare -A values=(
  [SECONDSHIFT_ENCRYPTION_KEY]=$(random 32)
  [POSTGRES_PASSWORD]=$pg_password
  [REDIS_PASSWORD]=$redis_password
  [DATABASE_URL]="postgresql://secondshift:$pg_password@${SECONDSHIFT_POSTGRES_ADDR:-postgres:5432}/secondshift"
  [REDIS_URL]="redis://:$redis_password@${SECONDSHIFT_REDIS_ADDR:-redis:6379}"
  [SECONDSHIFT_PUBLIC_URL]=$public_url
  [SECONDSHIFT_GATEWAY_URL]="http://${SECONDSHIFT_GATEWAY_ADDR:-gateway:4000}"
  [SECONDSHIFT_HTTP_PORT]=$port
  [DOCKER_GID]=$docker_gid
)

umask 077
mkdir -p "$(dirname "$file")"
tmp=$(mktemp "$file.XXXXXX")
while IFS= read -r line; do
  key=${line%%=*}
  if [[ "$line" =~ ^[A-Z_]+= ]] && [ -n "${values[$key]+set}" ]; then
    echo "$key=${values[$key]}"
  else
    printf '%s\n' "$line"
  fi
done <"$root/.env.example" >"$tmp"
mv "$tmp" "$file"
echo "wrote $file (mode 600) with a new encryption key and passwords; URL $public_url"
echo "Keep a copy of $file somewhere safe and apart from database backups: without its"
echo "SECONDSHIFT_ENCRYPTION_KEY the stored credentials cannot be decrypted."
