import { describe, expect, it } from "vitest";
import { buildContainerSpec, hostPidsLimit } from "./container-spec.ts";
import { scrubGitConfig } from "./copy-in.ts";
import { toWorkspacePath } from "./paths.ts";
import { limits } from "./testing/harness.ts";

describe("container spec", () => {
  const input = {
    runId: "r",
    workspaceId: "w",
    deadline: new Date(0),
    image: "img",
    runtime: "runsc",
    limits,
    name: "n",
    installationId: "inst-1",
  } as const;
  const spec = buildContainerSpec(input);

  it("[C12] the environment is only the fixed allowlist", () => {
    expect(spec.Env?.map((e) => e.split("=")[0])).toEqual(["PATH", "HOME", "LANG", "TERM"]);
  });

  it("[C08][C11] only /workspace and /tmp are writable, both size-limited, and nothing is mounted from the host", () => {
    expect(Object.keys(spec.HostConfig?.Tmpfs ?? {})).toEqual(["/workspace", "/tmp"]);
    expect(spec.HostConfig?.Tmpfs?.["/workspace"]).toContain(`size=${limits.workspaceBytes}`);
    expect(spec.HostConfig?.Tmpfs?.["/tmp"]).toContain(`size=${limits.tmpBytes}`);
    expect(spec.HostConfig?.Binds).toEqual([]);
    expect(spec.HostConfig?.Mounts).toEqual([]);
    expect(spec.HostConfig?.ReadonlyRootfs).toBe(true);
  });

  it("[C09] under runsc a seccomp profile refuses character and block device nodes and nothing else", () => {
    const opts = (spec.HostConfig?.SecurityOpt ?? []) as string[];
    const opt = opts.find((o) => o.startsWith("seccomp=")) ?? "seccomp={}";
    const profile = JSON.parse(opt.slice("seccomp=".length)) as {
      defaultAction: string;
      syscalls: { names: string[]; action: string; args: { value: number; valueTwo: number }[] }[];
    };
    expect(profile.defaultAction).toBe("SCMP_ACT_ALLOW");
    const denied = profile.syscalls.map(
      (r) => `${r.names.join()}:${r.args.map((x) => `${x.value}:${x.valueTwo}`).join()}`,
    );
    expect(denied.sort()).toEqual(
      ["mknod:61440:8192", "mknod:61440:24576", "mknodat:61440:8192", "mknodat:61440:24576"].sort(),
    );
    expect(profile.syscalls.every((r) => r.action === "SCMP_ACT_ERRNO")).toBe(true);
    const runc = buildContainerSpec({ ...input, runtime: "runc" });
    expect(runc.HostConfig?.SecurityOpt).toEqual(["no-new-privileges"]);
  });

  it("[C11] the CPU quota is the configured share, and memory has no swap on top", () => {
    expect(spec.HostConfig?.NanoCpus).toBe(limits.nanoCpus);
    expect(spec.HostConfig?.Memory).toBe(limits.memoryBytes);
    expect(spec.HostConfig?.MemorySwap).toBe(limits.memoryBytes);
  });

  it("[C11] the process limit is enforced inside gVisor with headroom on the host", () => {
    expect(spec.HostConfig?.Ulimits).toContainEqual({
      Name: "nproc",
      Soft: limits.pidsLimit + 32,
      Hard: limits.pidsLimit + 32,
    });
    expect(hostPidsLimit("runsc", limits)).toBeGreaterThanOrEqual(4096);
    expect(hostPidsLimit("runc", limits)).toBe(limits.pidsLimit + 32);
  });
});

describe("paths and git scrubbing", () => {
  it("normalises workspace paths and refuses the rest", () => {
    expect(toWorkspacePath("a/./b/../c")).toBe("/workspace/a/c");
    expect(toWorkspacePath("/workspace/x/")).toBe("/workspace/x");
    for (const p of ["..", "../x", "/etc", "/workspace2/x", "/workspace/../x", "a\0b"])
      expect(() => toWorkspacePath(p)).toThrow(/outside the workspace/);
  });

  it("[C12] removes credential sections, auth headers and URL tokens from git config", () => {
    const out = scrubGitConfig(
      '[remote "origin"]\n\turl = https://user:tok123@host/x.git\n[credential]\n\thelper = store\n[http]\n\textraheader = AUTHORIZATION: bearer abc\n[core]\n\tbare = false\n',
    );
    expect(out).toContain("url = https://host/x.git");
    expect(out).not.toMatch(/tok123|helper|extraheader|abc|\[credential\]/);
    expect(out).toContain("bare = false");
  });
});
