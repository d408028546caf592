#!/usr/bin/env bash
# Installs the project's Node (the LTS the service images run, see scripts/versions.env) from the
# npm registry's `node-linux-<arch>` package plus the `npm` package, into a cache folder, and
# prints that installation's bin directory. The host's own Node is used instead when it is
# already the exact version. No other download host is needed, so this works where only an npm
# mirror is reachable.
#
# usage: scripts/node.sh            prints the bin directory (put it first on PATH)
#        scripts/node.sh --root     prints the installation root (bin/node, lib/node_modules/npm)
# Cache: $SECONDSHIFT_NODE_CACHE, default ${XDG_CACHE_HOME:-$HOME/.cache}/secondshift.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=versions.env
. "$here/versions.env"

case "$(uname -m)" in
  x86_64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) echo "node.sh: no node-linux package for $(uname -m)" >&2; exit 1 ;;
esac
cache=${SECONDSHIFT_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/secondshift}
dest="$cache/node-v$NODE_VERSION-linux-$arch"

print() {
  if [ "${1:-}" = "--root" ]; then echo "$dest"; else echo "$dest/bin"; fi
}

if [ -x "$dest/bin/node" ] && [ -x "$dest/bin/npm" ]; then
  print "$@"
  exit 0
fi
host_node=$(command -v node || true)
if [ -n "$host_node" ] && [ "$("$host_node" --version)" = "v$NODE_VERSION" ] && command -v npm >/dev/null; then
  dest=$(dirname "$(dirname "$(readlink -f "$host_node")")")
  print "$@"
  exit 0
fi

# `npm pack` checks each tarball against the registry's integrity hash. Without any npm on the
# machine, fall back to the registry's tarball URL with curl.
fetch() { # package version dir
  if command -v npm >/dev/null; then
    (cd "$3" && npm pack --silent "$1@$2" >/dev/null)
  else
    local registry=${NPM_CONFIG_REGISTRY:-https://registry.npmjs.org}
    curl -fsSL "${registry%/}/$1/-/$1-$2.tgz" -o "$3/$1-$2.tgz"
  fi
}

echo "installing Node $NODE_VERSION and npm $NPM_VERSION from the npm registry into $dest" >&2
mkdir -p "$cache"
work=$(mktemp -d "$cache/.install.XXXXXX")
trap 'rm -rf "$work"' EXIT
fetch "node-linux-$arch" "$NODE_VERSION" "$work"
fetch npm "$NPM_VERSION" "$work"
mkdir -p "$work/root/bin" "$work/root/lib/node_modules/npm"
tar -xzf "$work/node-linux-$arch-$NODE_VERSION.tgz" -C "$work" package/bin/node
mv "$work/package/bin/node" "$work/root/bin/node"
rm -rf "$work/package"
tar -xzf "$work/npm-$NPM_VERSION.tgz" -C "$work/root/lib/node_modules/npm" --strip-components=1
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$work/root/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$work/root/bin/npx"
actual=$("$work/root/bin/node" --version)
if [ "$actual" != "v$NODE_VERSION" ]; then
  echo "node.sh: the package gave Node $actual, expected v$NODE_VERSION" >&2
  exit 1
fi
rm -rf "$dest"
mv "$work/root" "$dest"
print "$@"
