#!/usr/bin/env bash
# Host part of scripts/up.sh (as root, Debian 12 / Ubuntu): installs what is missing — Docker
# (Debian's docker.io, unless an engine is installed already), compose, gVisor's runsc, and the
# tools of the air-gapped image build (mmdebstrap) — starts Docker, and registers runsc with
# --network=none --oci-seccomp in the engine's daemon.json. Prints every change; changes nothing
# that is already right.   usage: scripts/host-setup.sh [--dry-run]   (--dry-run: print, change nothing)
set -euo pipefail
. "$(dirname "$0")/lib/runsc.sh"
. "$(dirname "$0")/lib/docker-engine.sh"
dry=0
[ "${1:-}" = --dry-run ] && dry=1
changes=0
change() { # description command...
  changes=$((changes + 1))
  if [ "$dry" = 1 ]; then echo "would change: $1"; return; fi
  echo "changing: $1"
  shift
  "$@"
}

packages=(runsc mmdebstrap ca-certificates git jq)
command -v dockerd >/dev/null || packages+=(docker.io)
if ! docker compose version >/dev/null 2>&1 && ! command -v docker-compose >/dev/null; then
  if apt-cache show docker-compose-v2 >/dev/null 2>&1; then packages+=(docker-compose-v2); else packages+=(docker-compose); fi
fi
missing=()
for pkg in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
install_packages() {
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}
[ "${#missing[@]}" = 0 ] || change "install Debian packages: ${missing[*]}" install_packages

docker info >/dev/null 2>&1 || change "start the Docker engine (and enable it at boot where a service manager exists)" start_docker

# gVisor refuses to run with a network in the root namespace here, and sandboxes never have a
# network: --network=none is the production setting; --oci-seccomp makes runsc apply the
# sandbox's seccomp profile, which refuses device nodes (packages/sandbox/README.md).
register_runsc() {
  local file
  file=$(docker_config_file)
  [ -s "$file" ] && cp "$file" "$file.bak.$(date +%Y%m%d%H%M%S)"
  write_runsc_config "$file" "$(command -v runsc)"
  echo "  $file now registers runsc: $(jq -c .runtimes.runsc "$file") (previous file kept as $file.bak.*)"
  reload_dockerd
  for _ in $(seq 20); do runsc_registered && return; sleep 0.5; done
  echo "Docker still lists no runsc with $RUNSC_ARGS; check $file and 'docker info'" >&2
  return 1
}
runsc_registered || change "register gVisor (runsc --network=none --oci-seccomp) with Docker" register_runsc

if [ "$changes" = 0 ]; then
  echo "nothing to change: Docker runs, runsc is registered with --network=none --oci-seccomp, compose is installed"
fi
