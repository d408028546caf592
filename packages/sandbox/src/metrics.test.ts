// Sandbox start latency, observed where the sandbox is started: one real start under gVisor and
// one refused start (runsc not registered) each land in the histogram with their outcome.
import Docker from "dockerode";
import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { createSandboxMetrics } from "./metrics.ts";
import { docker, manager, runOptions } from "./testing/harness.ts";

function engineWithoutRunsc(): Docker {
  const fake = new Docker();
  fake.info = async () => ({ ...((await docker.info()) as object), Runtimes: { runc: {} } });
  return fake;
}

describe("sandbox metrics", () => {
  it("observes the start latency of started and failed sandboxes, by runtime and outcome", async () => {
    const registry = new Registry();
    const metrics = createSandboxMetrics(registry);
    const sandbox = await manager({ metrics }).create(runOptions());
    await sandbox.destroy();
    await expect(
      manager({ metrics, docker: engineWithoutRunsc() }).create(runOptions()),
    ).rejects.toThrow(/runsc/);

    const text = await registry.metrics();
    const count = (outcome: string) =>
      Number(
        new RegExp(
          `secondshift_sandbox_start_seconds_count\\{runtime="runsc",outcome="${outcome}"\\} (\\S+)`,
        ).exec(text)?.[1],
      );
    const sum = Number(
      /secondshift_sandbox_start_seconds_sum\{runtime="runsc",outcome="started"\} (\S+)/.exec(
        text,
      )?.[1],
    );
    expect([count("started"), count("failed")]).toEqual([1, 1]);
    // A real start under gVisor takes a measurable while, and less than the test's timeout.
    expect(sum).toBeGreaterThan(0.01);
    expect(sum).toBeLessThan(60);
  });
});
