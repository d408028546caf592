/* Preloaded into every process of the sandbox image (/etc/ld.so.preload).
 * gVisor releases before 2023 (Debian bookworm's runsc 20221219 among them) reject statx() with
 * AT_NO_AUTOMOUNT as EINVAL, which breaks coreutils 9 `ls`, `stat`, `cp -a` and friends. The flag
 * means nothing in a sandbox (there are no automount points), so it is cleared before the call. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

int statx(int dirfd, const char *path, int flags, unsigned int mask, struct statx *buf) {
  return (int)syscall(SYS_statx, dirfd, path, flags & ~AT_NO_AUTOMOUNT, mask, buf);
}
