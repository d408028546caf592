#!/bin/sh
# Runs inside the image's root filesystem at build time (Dockerfile RUN and mmdebstrap hook).
set -eu
# The unprivileged user every command runs as; the platform also forces --user 10001:10001.
groupadd --gid 10001 sandbox
useradd --uid 10001 --gid 10001 --no-create-home --home-dir /tmp --shell /bin/bash sandbox
# Work around old gVisor rejecting statx(AT_NO_AUTOMOUNT) (see statx-compat.c).
gcc -shared -fPIC -O2 -o /usr/local/lib/statx-compat.so /tmp/statx-compat.c
echo /usr/local/lib/statx-compat.so >/etc/ld.so.preload
rm -f /tmp/statx-compat.c
# Every command starts through this: a seccomp filter that refuses device nodes (see the file).
gcc -O2 -o /usr/local/bin/no-device-nodes /tmp/no-device-nodes.c
rm -f /tmp/no-device-nodes.c
# Mount points for the size-limited tmpfs the platform mounts at run time.
mkdir -p /workspace
chmod 0755 /workspace
# Nothing in the sandbox needs to change user: remove every setuid/setgid bit so that a
# privilege-raising binary does not exist even if another lock were missing.
find / -xdev -type f \( -perm -4000 -o -perm -2000 \) -exec chmod ug-s {} +
# Smaller image, nothing a run needs.
rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin /usr/share/doc/* /usr/share/man/* /usr/share/info/*
