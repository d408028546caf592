/* /usr/local/bin/no-device-nodes COMMAND [ARG...]: installs a seccomp filter that refuses (EPERM)
 * mknod / mknodat of character and block devices, then executes COMMAND. Every command the
 * platform runs in a sandbox starts through it (packages/sandbox/src/exec.ts); the filter is
 * inherited by every descendant and cannot be removed.
 * Why: gVisor ignores `nodev` on the tmpfs mounts and checks no capability for mknod, and runsc
 * applies the container's OCI seccomp profile (even with --oci-seccomp) only to the container's
 * first process and its descendants, not to processes started by `docker exec`.
 * Fails closed: if the filter cannot be installed, nothing runs (exit 126). */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__)
#define ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define ARCH AUDIT_ARCH_AARCH64
#else
#error "no-device-nodes: unsupported architecture"
#endif

#define NR offsetof(struct seccomp_data, nr)
/* The mode argument is 32 bits; on these little-endian architectures its low word comes first. */
#define ARG(i) (offsetof(struct seccomp_data, args) + 8 * (i))
#define ALLOW BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)
#define REFUSE BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM)

static struct sock_filter filter[] = {
    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ARCH, 1, 0),
    REFUSE, /* another ABI's system calls: nothing in the image uses one */
    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, NR),
#if defined(__x86_64__)
    BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000 /* x32 */, 0, 1),
    REFUSE,
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_mknod, 0, 2),
    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG(1)),
    BPF_JUMP(BPF_JMP | BPF_JA, 3, 0, 0),
#endif
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_mknodat, 1, 0),
    ALLOW,
    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG(2)),
    /* mode & S_IFMT is S_IFCHR or S_IFBLK: refuse. */
    BPF_STMT(BPF_ALU | BPF_AND | BPF_K, S_IFMT),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, S_IFCHR, 2, 0),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, S_IFBLK, 1, 0),
    ALLOW,
    REFUSE,
};

int main(int argc, char **argv) {
  struct sock_fprog prog = {.len = sizeof(filter) / sizeof(filter[0]), .filter = filter};
  if (argc < 2) {
    fprintf(stderr, "usage: no-device-nodes COMMAND [ARG...]\n");
    return 126;
  }
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
      prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0) {
    fprintf(stderr, "no-device-nodes: cannot install the seccomp filter: %s\n", strerror(errno));
    return 126;
  }
  execvp(argv[1], argv + 1);
  fprintf(stderr, "no-device-nodes: %s: %s\n", argv[1], strerror(errno));
  return 127;
}
