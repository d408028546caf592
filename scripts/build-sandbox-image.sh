#!/usr/bin/env bash
# Builds the sandbox image with no container registry: mmdebstrap a minimal Debian root
# filesystem from the machine's own apt mirror, then `docker import` it. The contents match
# docker/sandbox/Dockerfile (the production build, which starts FROM debian:bookworm-slim).
#
# usage: scripts/build-sandbox-image.sh [--force] [TAG]     (TAG default: secondshift-sandbox:test)
# Idempotent: does nothing when TAG exists and was built from the same docker/sandbox files
# (label org.secondshift.sandbox-source), unless --force; an image built from other files is
# rebuilt.
set -euo pipefail

force=0
tag=""
for arg in "$@"; do
  case "$arg" in
    --force) force=1 ;;
    -h|--help) sed -n '2,8p' "$0"; exit 0 ;;
    *) tag=$arg ;;
  esac
done
tag=${tag:-secondshift-sandbox:test}
suite=${SANDBOX_SUITE:-bookworm}
here=$(cd "$(dirname "$0")/.." && pwd)

# What the image is made of: an image built from other files is stale.
source_hash=$(cd "$here/docker/sandbox" && cat packages.txt setup.sh ./*.c | sha256sum | cut -c1-16)
built_from=$(docker image inspect --format '{{index .Config.Labels "org.secondshift.sandbox-source"}}' "$tag" 2>/dev/null || true)
if [ "$force" = 0 ] && [ "$built_from" = "$source_hash" ]; then
  echo "sandbox image $tag exists (use --force to rebuild)"
  exit 0
fi
[ -z "$built_from" ] || [ "$built_from" = "$source_hash" ] || echo "sandbox image $tag was built from other files; rebuilding"

command -v mmdebstrap >/dev/null || {
  echo "mmdebstrap is missing: apt-get install -y mmdebstrap (or run scripts/install-system-deps.sh)" >&2
  exit 1
}

# The package list lives in one file shared with the Dockerfile so the two builds cannot drift.
packages=$(grep -v '^\s*#' "$here/docker/sandbox/packages.txt" | xargs | tr ' ' ',')

# The Debian mirror this machine already uses (never a hard-coded host).
# shellcheck source=lib/debian-mirror.sh
. "$here/scripts/lib/debian-mirror.sh"
# shellcheck source=lib/deb-cache.sh
. "$here/scripts/lib/deb-cache.sh"
deb_cache_opts
mirror=$(find_mirror "$suite")
if [ -z "$mirror" ]; then
  echo "no apt source for '$suite' found in /etc/apt/sources.list(.d); add your Debian mirror there" >&2
  exit 1
fi
echo "building $tag from $mirror ($suite): $packages"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The customize hook is the registry-free twin of the Dockerfile's RUN step (same user, same
# directories, same setuid stripping). Keep docker/sandbox/setup.sh as the single source.
mmdebstrap --variant=minbase --include="$packages" "${DEB_CACHE_OPTS[@]}" \
  --customize-hook="copy-in $here/docker/sandbox/setup.sh $here/docker/sandbox/statx-compat.c $here/docker/sandbox/no-device-nodes.c /tmp" \
  --customize-hook='chroot "$1" sh /tmp/setup.sh && rm -f "$1/tmp/setup.sh"' \
  "$suite" "$work/rootfs.tar" \
  "deb $mirror $suite main" "deb $mirror $suite-updates main"

docker import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'ENV HOME=/tmp' \
  --change 'ENV LANG=C.UTF-8' \
  --change 'USER 10001:10001' \
  --change 'WORKDIR /workspace' \
  --change 'CMD ["sleep", "infinity"]' \
  --change 'LABEL org.opencontainers.image.title=secondshift-sandbox' \
  --change "LABEL org.secondshift.sandbox-source=$source_hash" \
  "$work/rootfs.tar" "$tag" >/dev/null
echo "built $tag"
