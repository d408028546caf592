#!/usr/bin/env bash
# Installs the Debian packages the test suites need, only those that are missing.
set -euo pipefail
# docker-compose and jq: the deployment smoke test (scripts/up.sh, host-setup.sh).
needed=(postgresql redis-server docker.io runsc chromium mmdebstrap git ca-certificates iproute2
  docker-compose jq)
missing=()
for pkg in "${needed[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "installing Debian packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
