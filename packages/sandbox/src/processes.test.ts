// No process outlives its command (C11): not at a timeout, not at the run's abort, not at a
// normal end, and not when it double-forks into a new session (reparented to the container's
// init, no longer a descendant of anything the command started). Checked with `peek`, which
// looks from outside the command wrapper and kills nothing itself.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { manager, OTHER_PROCESSES, peek, runOptions } from "./testing/harness.ts";
import type { Sandbox } from "./sandbox.ts";

/** The escapee's loop body: append a line to a workspace file, then sleep 0.1 s. */
const turn = (file: string) => `echo x >> /workspace/${file}; sleep 0.1`;

/** A process that escapes its command the hard way and keeps appending to a workspace file. */
function escapee(file: string): string {
  return `(setsid sh -c 'while :; do ${turn(file)}; done' > /dev/null 2>&1 < /dev/null &)`;
}

describe("no process outlives its command", () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await manager().create(runOptions());
  });
  afterAll(async () => {
    await sb.destroy();
  });

  async function assertNothingLeft(file: string): Promise<void> {
    expect(await peek(sb.id, OTHER_PROCESSES)).toBe("");
    const size = () => peek(sb.id, `wc -c < /workspace/${file} 2>/dev/null || echo none`);
    const before = await size();
    // Proving a looping writer is dead means giving it turns to write: a witness runs the same
    // loop 10 times in the same container, so a live escapee had as many turns, however loaded.
    const witness = `${file}.witness`;
    expect(
      await peek(
        sb.id,
        `for i in $(seq 10); do ${turn(witness)}; done; wc -l < /workspace/${witness}`,
      ),
    ).toBe("10\n");
    expect(await size()).toBe(before);
  }

  it("[C11] a double-forked orphan in a new session is killed at the command's timeout and writes nothing afterwards", async () => {
    const r = await sb.exec(`${escapee("timeout.log")}; echo started; sleep 300`, {
      timeoutMs: 1_500,
    });
    expect(r.timedOut).toBe(true);
    expect(r.stdout).toBe("started\n");
    await assertNothingLeft("timeout.log");
  });

  it("[C11] a double-forked orphan in a new session is killed when the run's signal aborts", async () => {
    const controller = new AbortController();
    const r = await sb.exec(`${escapee("abort.log")}; echo started; sleep 300`, {
      timeoutMs: 120_000,
      signal: controller.signal,
      onOutput: () => controller.abort(),
    });
    expect(r.aborted).toBe(true);
    await assertNothingLeft("abort.log");
  });

  it("[C11] a command that ends normally leaves no process behind, even one in a new session", async () => {
    const r = await sb.exec(`${escapee("normal.log")}; sleep 0.5; echo done`);
    expect(r).toMatchObject({ exitCode: 0, stdout: "done\n", timedOut: false });
    await assertNothingLeft("normal.log");
    // It did run (and write) while its command was running.
    expect(await peek(sb.id, "test -s /workspace/normal.log && echo wrote")).toBe("wrote\n");
  });

  it("[C11] a command that kills the wrapper which would sweep its processes still leaves none behind", async () => {
    const r = await sb.exec(`${escapee("wrapper.log")}; sleep 0.3; kill -9 $PPID`);
    expect(r.exitCode).toBe(137);
    await assertNothingLeft("wrapper.log");
  });

  it("[C11] a fork bomb left running when its command ends is gone before exec returns", async () => {
    // Its own sandbox: a bomb may exhaust the host-side backstop and end the whole sandbox.
    const bombed = await manager().create(runOptions());
    try {
      // The sweep is CPU work inside gVisor: minutes on a loaded 2-core machine (suites run
      // side by side), seconds on a quiet one. The point is that it ends before exec returns.
      const r = await bombed.exec("f(){ f | f & }; f; echo done", { timeoutMs: 150_000 });
      expect(r).toMatchObject({ stdout: "done\n", timedOut: false });
      expect(await peek(bombed.id, OTHER_PROCESSES)).toBe("");
      expect((await bombed.exec("echo after")).stdout).toBe("after\n");
    } finally {
      await bombed.destroy();
    }
  }, 200_000);

  it("a command's end does not kill another command's processes: commands on one sandbox queue", async () => {
    const [slow, quick] = await Promise.all([sb.exec("sleep 1; echo slow"), sb.exec("echo quick")]);
    expect(slow).toMatchObject({ exitCode: 0, stdout: "slow\n" });
    expect(quick).toMatchObject({ exitCode: 0, stdout: "quick\n" });
  });
});
