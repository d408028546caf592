// Runtime policy (C13), the reaper and destroy.
import Docker from "dockerode";
import { afterAll, describe, expect, it } from "vitest";
import { buildContainerSpec, DEVICE_NODE_SECCOMP } from "./container-spec.ts";
import { createSandboxManager } from "./manager.ts";
import { createReaper } from "./reaper.ts";
import { checkRuntime } from "./runtime-check.ts";
import { docker, image, limits, manager, memoryLogger, runOptions } from "./testing/harness.ts";
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

  it("the reaper removes containers whose deadline passed or whose run is over, and keeps the rest", async () => {
    // Plain containers with the labels, as a crashed worker would leave them (no exec needed).
    const make = async (runId: string, deadlineMs: number) => {
      const spec = buildContainerSpec({
        ...runOptions(runId, deadlineMs),
        image,
        runtime: "runsc",
        limits,
        name: `ss-reap-${runId}-${Date.now()}`,
      });
      const c = await docker.createContainer(spec);
      created.push(c.id);
      return c.id;
    };
    const expired = await make("reap-expired", -1_000);
    const over = await make("reap-over", 60_000);
    const active = await make("reap-active", 60_000);
    const reaper = createReaper({
      docker,
      isRunActive: (runId) => runId !== "reap-over",
      logger: memoryLogger().logger,
    });
    const removed = await reaper.reapOnce();
    expect(removed).toEqual(expect.arrayContaining([expired, over]));
    expect(removed).not.toContain(active);
    await expect(docker.getContainer(expired).inspect()).rejects.toMatchObject({ statusCode: 404 });
    await expect(docker.getContainer(over).inspect()).rejects.toMatchObject({ statusCode: 404 });
    expect((await docker.getContainer(active).inspect()).Id).toBe(active);
  });
});
