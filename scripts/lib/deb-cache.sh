# Sourced by the image builds (build-images.sh, build-sandbox-image.sh): the .deb files an
# mmdebstrap build downloads are kept in one folder on this machine and handed to the next
# build, so images that share their Debian root (the essential set, ca-certificates, git…)
# download it once. Packages still come only from the machine's apt mirror; apt checks each
# cached file against the mirror's signed index before using it. Files unused for 30 days go.
# Sets DEB_CACHE_OPTS: mmdebstrap options to put before the build's own hooks.
deb_cache_opts() {
  local cache=${SECONDSHIFT_DEB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/secondshift/debs}
  mkdir -p "$cache"
  find "$cache" -name '*.deb' -atime +30 -delete 2>/dev/null || true
  # shellcheck disable=SC2016 # $1 is mmdebstrap's, expanded by its hook shell
  DEB_CACHE_OPTS=(--skip=download/empty --skip=essential/unlink
    --setup-hook='mkdir -p "$1"/var/cache/apt/archives/'
    --setup-hook="sync-in $cache /var/cache/apt/archives/"
    --customize-hook="sync-out /var/cache/apt/archives $cache")
}
