// Escape attempts against one shared sandbox (these checks do not change its state), plus the
// setuid checks that need their own containers.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildContainerSpec } from "./container-spec.ts";
import {
  demuxedText,
  docker,
  image,
  installationId,
  limits,
  manager,
  runOptions,
} from "./testing/harness.ts";
import type { Sandbox } from "./sandbox.ts";

const planted = {
  SECONDSHIFT_ENCRYPTION_KEY: "plantedEncKey-9f2c1d7e5b3a",
  ANTHROPIC_API_KEY: "sk-ant-planted-4be1c0ffee",
  GITHUB_TOKEN: "ghp_plantedToken8842",
};

describe("sandbox isolation", () => {
  let sb: Sandbox;
  beforeAll(async () => {
    Object.assign(process.env, planted);
    sb = await manager().create(runOptions());
  });
  afterAll(async () => {
    for (const k of Object.keys(planted)) delete process.env[k];
    await sb.destroy();
  });

  it("[C07] a sandbox has no interface but loopback and DNS fails", async () => {
    const r = await sb.exec(
      "ls /sys/class/net; echo ---; getent hosts example.com; echo dns=$?; " +
        "python3 -c 'import socket; socket.getaddrinfo(\"deb.debian.org\", 80)' 2>&1 | tail -1; " +
        "curl -sS -m 3 http://1.1.1.1/ -o /dev/null 2>&1; echo curl=$?",
    );
    const [ifaces, rest] = r.stdout.split("---\n");
    expect(ifaces?.trim().split(/\s+/)).toEqual(["lo"]);
    expect(rest).toContain("dns=2");
    expect(rest).toMatch(/gaierror|Name or service not known|Temporary failure/);
    expect(rest).not.toContain("curl=0");
  });

  it("[C07] no Docker socket is reachable anywhere in the sandbox", async () => {
    const r = await sb.exec(
      "find / -xdev \\( -name 'docker.sock' -o -name 'containerd.sock' -o -type s \\) 2>/dev/null; " +
        "for s in /var/run/docker.sock /run/docker.sock /run/containerd/containerd.sock; do [ -e $s ] && echo FOUND $s; done; " +
        "grep -c . /proc/mounts >/dev/null; cat /proc/mounts",
    );
    expect(r.stdout).not.toContain("FOUND");
    expect(r.stdout).not.toMatch(/docker\.sock|containerd\.sock/);
    // The only mounts are the image's root and the fixed kernel/tmpfs ones: no host bind mounts.
    const targets = r.stdout
      .trim()
      .split("\n")
      .map((l) => l.split(" ")[1]);
    expect(targets.filter((t) => !/^\/(proc|sys|dev)(\/|$)/.test(t ?? ""))).toEqual(
      expect.arrayContaining(["/", "/workspace", "/tmp"]),
    );
    // Besides those, only the engine's own read-only files: the hostname and the init binary.
    const others = targets.filter(
      (t) => !/^\/(proc|sys|dev|workspace|tmp)?(\/|$)/.test(t ?? "") && t !== "/",
    );
    expect(
      others.filter(
        (t) => t !== "/etc/hostname" && t !== "/usr/sbin/docker-init" && t !== "/sbin/docker-init",
      ),
    ).toEqual([]);
  });

  it("[C08] writes outside /workspace and /tmp fail; inside they work", async () => {
    const r = await sb.exec(
      "for p in /etc/x /etc/hostname /etc/passwd /usr/sbin/docker-init /usr/bin/x /x /var/tmp/x /home/x /root/x /dev/shm/x /run/x; do echo hi > $p 2>/dev/null && echo WROTE $p; done; " +
        "mkdir /newdir 2>/dev/null && echo WROTE /newdir; touch /workspace/ok /tmp/ok && echo inside-ok",
    );
    expect(r.stdout).not.toContain("WROTE");
    expect(r.stdout).toContain("inside-ok");
  });

  it("[C09] effective, permitted and bounding capabilities are zero and no_new_privs is set", async () => {
    const r = await sb.exec(
      "grep -E '^Cap(Inh|Prm|Eff|Bnd|Amb)' /proc/self/status; python3 -c 'import ctypes; print(\"nnp\", ctypes.CDLL(None).prctl(39,0,0,0,0))'",
    );
    for (const cap of ["CapPrm", "CapEff", "CapBnd"])
      expect(r.stdout).toMatch(new RegExp(`${cap}:\\s+0{16}`));
    expect(r.stdout).toContain("nnp 1");
    expect(
      await sb.exec("find / -xdev -perm /6000 -type f 2>/dev/null").then((x) => x.stdout),
    ).toBe("");
  });

  it("[C10] commands run as an unprivileged user", async () => {
    const r = await sb.exec("id -u; id -g; id -G; cat /proc/1/status | grep -E '^(Uid|Gid)'");
    const [uid, gid, groups] = r.stdout.split("\n");
    expect(uid).toBe("10001");
    expect(gid).toBe("10001");
    expect(groups).toBe("10001");
    expect(r.stdout).not.toMatch(/Uid:\s+0\b/);
  });

  it("[C12][C30] secrets planted in the worker's environment appear nowhere in the sandbox", async () => {
    const values = Object.values(planted);
    const r = await sb.exec(
      "env; echo ---; for f in /proc/[0-9]*/environ; do tr '\\0' '\\n' < $f 2>/dev/null; done; echo ---; " +
        `grep -rIl -e ${values.map((v) => `'${v}'`).join(" -e ")} / 2>/dev/null --exclude-dir=proc --exclude-dir=sys; echo grep=$?`,
      { timeoutMs: 50_000 },
    );
    for (const v of values) expect(r.stdout).not.toContain(v);
    expect(r.stdout).not.toContain("SECONDSHIFT_ENCRYPTION_KEY");
    const envNames = r.stdout
      .split("---")[0]!
      .trim()
      .split("\n")
      .map((l) => l.split("=")[0]);
    expect(new Set(envNames)).toEqual(
      new Set(
        ["PATH", "HOME", "LANG", "TERM", "HOSTNAME", "PWD", "SHLVL", "_", "OLDPWD"].filter((n) =>
          envNames.includes(n),
        ),
      ),
    );
    expect(envNames).not.toContain("SECONDSHIFT_ENCRYPTION_KEY");
    const inspect = await docker.getContainer(sb.id).inspect();
    expect(inspect.Config.Env.map((e) => e.split("=")[0]).sort()).toEqual([
      "HOME",
      "LANG",
      "PATH",
      "TERM",
    ]);
    // The engine adds HOSTNAME itself; the spec pins it to a fixed harmless value.
    expect(r.stdout).toContain("HOSTNAME=sandbox");
  });

  it("[C13] the kernel inside is gVisor's", async () => {
    const r = await sb.exec("dmesg | head -3");
    expect(r.stdout).toContain("Starting gVisor");
    expect((await docker.getContainer(sb.id).inspect()).HostConfig.Runtime).toBe("runsc");
  });
});

describe("[C09] setuid cannot raise privileges", () => {
  // A setuid-root copy of `id` is planted through the Docker archive API (as root, the strongest
  // an attacker could hope for) into a suid-capable tmpfs: the control container without
  // no-new-privileges shows that the plant works, the locked one shows that it does not.
  async function plantAndRun(secure: boolean): Promise<string> {
    const spec = buildContainerSpec({
      ...runOptions(),
      image,
      runtime: "runsc",
      limits,
      name: `ss-setuid-${secure}-${Date.now()}`,
      installationId,
    });
    spec.HostConfig!.Tmpfs = {
      "/workspace": "rw,exec,size=16m,mode=1777",
      "/tmp": "rw,exec,size=16m,mode=1777",
    };
    if (!secure) spec.HostConfig!.SecurityOpt = [];
    const c = await docker.createContainer(spec);
    try {
      await c.start();
      const root = await c.exec({
        Cmd: [
          "sh",
          "-c",
          "cp /usr/bin/id /workspace/rootid && chmod 4755 /workspace/rootid && ls -ln /workspace/rootid",
        ],
        User: "0:0",
        AttachStdout: true,
        AttachStderr: true,
      });
      await demuxedText(await root.start({}));
      const e = await c.exec({
        Cmd: ["/workspace/rootid", "-u"],
        AttachStdout: true,
        AttachStderr: true,
      });
      return (await demuxedText(await e.start({}))).trim();
    } finally {
      await c.remove({ force: true });
    }
  }

  it("[C09] a setuid-root binary runs with the caller's uid under no-new-privileges", async () => {
    // Without no-new-privileges (control) the chown by uid 0 without CAP_CHOWN keeps uid 0 as
    // owner, so the setuid bit would give euid 0; with the lock it gives 10001.
    const [control, locked] = [await plantAndRun(false), await plantAndRun(true)];
    expect(control).toMatch(/\d+/);
    expect(locked).toMatch(/10001$/);
    expect(locked).not.toMatch(/\b0$/);
  });
});
