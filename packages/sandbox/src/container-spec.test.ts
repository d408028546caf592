import { describe, expect, it } from "vitest";
import { buildContainerSpec, hostPidsLimit } from "./container-spec.ts";
import { scrubGitConfig } from "./copy-in.ts";
import { toWorkspacePath } from "./paths.ts";
import { limits } from "./test/harness.ts";

describe("container spec", () => {
  const spec = buildContainerSpec({
    runId: "r",
    workspaceId: "w",
    deadline: new Date(0),
    image: "img",
    runtime: "runsc",
    limits,
    name: "n",
  });

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
