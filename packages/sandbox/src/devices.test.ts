// Device nodes (issue #11 item 10). gVisor (runsc 20221219) ignores `nodev` on the tmpfs mounts
// and checks no capability for mknod, so without more an unprivileged user could create
// character and block nodes there. Every command starts under the image's no-device-nodes
// helper, a seccomp filter that refuses them (runsc applies the spec's own profile, even with
// --oci-seccomp, only to the container's first process, never to `docker exec`). These tests
// try it through both system calls, on both writable mounts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { docker, manager, runOptions } from "./testing/harness.ts";
import type { Sandbox } from "./sandbox.ts";

// One process, so that a few hundred attempts take a moment, not minutes of forks. The raw
// system calls (x86_64: mknod 133, mknodat 259) through ctypes, so neither glibc's choice of
// call nor Python's can hide one of them.
const SWEEP = String.raw`
import ctypes, errno, json, os, stat
libc = ctypes.CDLL(None, use_errno=True)
AT_FDCWD = -100
def mknod(path, mode, dev):
  return libc.syscall(133, path.encode(), mode, ctypes.c_ulong(dev))
def mknodat(path, mode, dev):
  return libc.syscall(259, AT_FDCWD, path.encode(), mode, ctypes.c_ulong(dev))
chars = [(ma, mi) for ma in range(16) for mi in range(8)] + [(1, 1), (1, 11), (10, 200),
  (10, 229), (10, 232), (136, 0), (195, 0), (226, 0), (254, 0), (4095, 0)]
blocks = [(1, 0), (7, 0), (8, 0), (8, 1), (9, 0), (179, 0), (202, 0), (253, 0), (259, 0)]
tried, created, refused = 0, [], {}
for folder in ("/tmp", "/workspace"):
  for call in (mknod, mknodat):
    for kind, numbers in ((stat.S_IFCHR, chars), (stat.S_IFBLK, blocks)):
      for ma, mi in numbers:
        tried += 1
        node = folder + "/node"
        if call(node, kind | 0o666, os.makedev(ma, mi)) == 0:
          created.append(f"{folder} {call.__name__} {'c' if kind == stat.S_IFCHR else 'b'}{ma}:{mi}")
          os.unlink(node)
          continue
        name = errno.errorcode[ctypes.get_errno()]
        refused[name] = refused.get(name, 0) + 1
# Everything else stays allowed: FIFOs and regular files by mknod.
others = []
for call in (mknod, mknodat):
  for kind in (stat.S_IFIFO, stat.S_IFREG):
    node = "/tmp/other"
    others.append(call(node, kind | 0o600, 0) == 0 and stat.S_IFMT(os.lstat(node).st_mode) == kind)
    os.unlink(node)
print(json.dumps({"tried": tried, "created": created, "refused": refused, "others": others}))
`;

describe("device nodes", () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await manager().create(runOptions());
  });
  afterAll(async () => {
    await sb.destroy();
  });

  it("[C09] every command and the container's own first process run under a seccomp filter", async () => {
    // The command: through the image's no-device-nodes helper (exec.ts). The first process:
    // runsc applies the spec's profile to it only when registered with --oci-seccomp.
    const r = await sb.exec("grep -h '^Seccomp:' /proc/self/status /proc/1/status");
    expect(r.stdout).toBe("Seccomp:\t2\nSeccomp:\t2\n");
    const info = (await docker.info()) as { Runtimes: Record<string, { runtimeArgs?: string[] }> };
    expect(info.Runtimes.runsc?.runtimeArgs).toEqual(
      expect.arrayContaining(["--network=none", "--oci-seccomp"]),
    );
  });

  it("[C09] mknod and mknodat of character and block devices are refused (EPERM) in /tmp and /workspace; FIFOs still work", async () => {
    const r = await sb.exec(`python3 -c '${SWEEP.replaceAll("'", `'\\''`)}'`, {
      timeoutMs: 50_000,
    });
    expect(r.stderr).toBe("");
    const result = JSON.parse(r.stdout) as {
      tried: number;
      created: string[];
      refused: Record<string, number>;
      others: boolean[];
    };
    expect(result.created).toEqual([]);
    expect(result.refused).toEqual({ EPERM: result.tried });
    expect(result.tried).toBe(2 * 2 * (128 + 10 + 9));
    expect(result.others).toEqual([true, true, true, true]);
  });

  it("[C09] the shell's mknod cannot reach host memory or a disk", async () => {
    const r = await sb.exec(
      "mknod mem c 1 1 && head -c 16 mem; echo rc=$?; mknod sda b 8 0 && head -c 16 sda; echo rc=$?; ls -A",
    );
    expect(r.stdout).toBe("rc=1\nrc=1\n");
    expect(r.stderr).toMatch(/mknod: mem: Operation not permitted/);
    expect(r.stderr).toMatch(/mknod: sda: Operation not permitted/);
  });
});
