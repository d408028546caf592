// Runtime policy (C13), the reaper and destroy.
import Docker from "dockerode";
import { afterAll, describe, expect, it } from "vitest";
import { buildContainerSpec, DEVICE_NODE_SECCOMP } from "./container-spec.ts";
import { createSandboxManager } from "./manager.ts";
import { createReaper } from "./reaper.ts";
import { checkRuntime } from "./runtime-check.ts";
import {
  docker,
  image,
  installationId,
  limits,
  manager,
  memoryLogger,
  runOptions,
} from "./testing/harness.ts";
import { LABELS } from "./types.ts";

/** The real engine, except that /info reports no runsc (as on a server where it is not registered). */
function engineWithoutRunsc(): Docker {
  const fake = new Docker();
  fake.info = async () => ({
    ...((await docker.info()) as object),
    Runtimes: { runc: { path: "runc" } },
  });
  return fake;
}

describe("runtime policy", () => {
  it("[C13] with runsc unregistered, creation refuses in production and says how to install it", async () => {
    // Other suites create sandboxes on the same engine meanwhile: look for this run's only.
    const opts = runOptions();
    const ofThisRun = () =>
      docker.listContainers({ all: true, filters: { label: [`${LABELS.runId}=${opts.runId}`] } });
    const m = createSandboxManager({
      docker: engineWithoutRunsc(),
      image,
      runtime: "runsc",
      production: true,
      allowRunc: false,
      limits,
      installationId,
      logger: memoryLogger().logger,
    });
    const error = await m.create(opts).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: "PRECONDITION_FAILED",
      reason: "SANDBOX_RUNSC_NOT_REGISTERED",
    });
    expect((error as Error).message).toMatch(/apt-get install runsc/);
    expect((error as Error).message).toMatch(/daemon\.json/);
    expect(await ofThisRun()).toEqual([]);
  });

  it("[C13] runc is refused in production even when allowed, and without the opt-in elsewhere", () => {
    expect(() =>
      checkRuntime({
        registeredRuntimes: ["runc"],
        runtime: "runc",
        production: true,
        allowRunc: true,
      }),
    ).toThrow(/gVisor \(runsc\)/);
    expect(() =>
      checkRuntime({
        registeredRuntimes: ["runc"],
        runtime: "runc",
        production: false,
        allowRunc: false,
      }),
    ).toThrow(/not allowed/);
    expect(() =>
      checkRuntime({
        registeredRuntimes: ["runc", "runsc"],
        runtime: "runsc",
        production: true,
        allowRunc: false,
      }),
    ).not.toThrow();
  });

  it("[C13] runc outside production works only with the opt-in and logs a warning at every start", async () => {
    const { logger, lines } = memoryLogger();
    const m = createSandboxManager({
      docker,
      image,
      runtime: "runc",
      production: false,
      allowRunc: true,
      limits,
      installationId,
      logger,
    });
    for (let i = 0; i < 2; i++) {
      const sb = await m.create(runOptions());
      expect((await sb.exec("id -u")).stdout).toBe("10001\n");
      await sb.destroy();
    }
    const warnings = lines().filter((l) => l.includes("sandbox.runc_in_use"));
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/"level":"warn"/);
  });
});

describe("lifecycle", () => {
  const created: string[] = [];
  afterAll(async () => {
    await Promise.all(
      created.map((id) =>
        docker
          .getContainer(id)
          .remove({ force: true })
          .catch(() => undefined),
      ),
    );
  });

  it("containers carry the run's labels and every lock of the spec", async () => {
    const opts = runOptions("run-labels");
    const sb = await manager().create(opts);
    created.push(sb.id);
    const info = await docker.getContainer(sb.id).inspect();
    expect(info.Config.Labels).toMatchObject({
      [LABELS.managed]: "true",
      [LABELS.installation]: installationId,
      [LABELS.runId]: "run-labels",
      [LABELS.workspaceId]: "ws-test",
      [LABELS.deadline]: opts.deadline.toISOString(),
    });
    const hc = info.HostConfig;
    expect(hc).toMatchObject({
      Runtime: "runsc",
      NetworkMode: "none",
      ReadonlyRootfs: true,
      CapDrop: ["ALL"],
      SecurityOpt: ["no-new-privileges", `seccomp=${JSON.stringify(DEVICE_NODE_SECCOMP)}`],
      Init: true,
      Privileged: false,
      IpcMode: "none",
    });
    expect(hc.Memory).toBe(limits.memoryBytes);
    expect(hc.MemorySwap).toBe(limits.memoryBytes);
    expect(hc.Binds ?? []).toEqual([]);
    expect(info.Mounts).toEqual([]);
    expect(info.Config.User).toBe("10001:10001");
    await sb.destroy();
  });

  it("destroy is idempotent", async () => {
    const sb = await manager().create(runOptions());
    await sb.destroy();
    await sb.destroy();
    await expect(docker.getContainer(sb.id).inspect()).rejects.toMatchObject({ statusCode: 404 });
    await expect(sb.exec("true")).rejects.toMatchObject({ reason: "SANDBOX_DESTROYED" });
  });

  /** A plain container with a sandbox's labels, as a crashed worker would leave it (no exec). */
  async function leftOver(runId: string, deadlineMs: number, installation: string | null) {
    const spec = buildContainerSpec({
      ...runOptions(runId, deadlineMs),
      image,
      runtime: "runsc",
      limits,
      name: `ss-reap-${runId}-${Date.now()}`,
      installationId: installation ?? "none",
    });
    if (installation === null) delete spec.Labels?.[LABELS.installation];
    const c = await docker.createContainer(spec);
    created.push(c.id);
    return c.id;
  }

  async function exists(id: string): Promise<boolean> {
    try {
      await docker.getContainer(id).inspect();
      return true;
    } catch (error) {
      if ((error as { statusCode?: number }).statusCode === 404) return false;
      throw error;
    }
  }

  it("the reaper removes its installation's containers whose deadline passed or whose run is over, and keeps the rest", async () => {
    const previous = `${installationId}-old`;
    const expired = await leftOver("reap-expired", -1_000, installationId);
    const over = await leftOver("reap-over", 60_000, installationId);
    const active = await leftOver("reap-active", 60_000, installationId);
    const beforeRotation = await leftOver("reap-over", 60_000, previous);
    const reaper = createReaper({
      docker,
      installationIds: [installationId, previous],
      isRunActive: (runId) => runId !== "reap-over",
      logger: memoryLogger().logger,
    });
    const removed = await reaper.reapOnce();
    expect(removed).toEqual(expect.arrayContaining([expired, over, beforeRotation]));
    expect(removed).not.toContain(active);
    expect(await exists(expired)).toBe(false);
    expect(await exists(over)).toBe(false);
    expect(await exists(beforeRotation)).toBe(false);
    expect(await exists(active)).toBe(true);
  });

  it("the reaper leaves another installation's sandboxes alone, even past their deadline or with a run it does not know", async () => {
    // A real sandbox of another installation on the same engine, and a left-over one of it.
    const other = `${installationId}-other`;
    const running = await manager({ installationId: other }).create(runOptions("reap-theirs"));
    created.push(running.id);
    const expired = await leftOver("reap-theirs-expired", -1_000, other);
    // Made before the label existed: nobody's, so removed only after its deadline.
    const unlabelledLive = await leftOver("reap-unlabelled", 60_000, null);
    const unlabelledExpired = await leftOver("reap-unlabelled-expired", -1_000, null);
    const seen: string[] = [];
    const reaper = createReaper({
      docker,
      installationIds: [installationId],
      isRunActive: (runId) => {
        seen.push(runId);
        return false; // this installation's database knows none of these runs
      },
      logger: memoryLogger().logger,
    });
    const removed = await reaper.reapOnce();
    expect(removed).not.toContain(running.id);
    expect(removed).not.toContain(expired);
    expect(removed).not.toContain(unlabelledLive);
    expect(removed).toContain(unlabelledExpired);
    expect(seen).not.toContain("reap-theirs");
    expect(seen).not.toContain("reap-unlabelled");
    expect(await exists(expired)).toBe(true);
    expect(await exists(unlabelledLive)).toBe(true);
    expect((await running.exec("echo still-here")).stdout).toBe("still-here\n");
    await running.destroy();
  });
});
