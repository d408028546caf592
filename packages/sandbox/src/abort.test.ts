// The run's abort signal reaches every command: a cancelled or stopped run does not leave a
// command running in its sandbox until the command's own timeout.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { manager, runOptions } from "./testing/harness.ts";
import type { Sandbox } from "./sandbox.ts";

describe("aborting commands", () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await manager().create(runOptions());
  });
  afterAll(async () => {
    await sb.destroy();
  });

  async function leftover(): Promise<string> {
    return (
      await sb.exec(
        "ps -eo stat=,args= | grep -v '^Z' | grep 'sleep 6[012]' | grep -v grep || true",
      )
    ).stdout;
  }

  it("[C11] a command in flight is killed with its process tree when the run's signal aborts", async () => {
    const controller = new AbortController();
    const started = Date.now();
    const pending = sb.exec("(sleep 61 &) ; sleep 62 & echo started; sleep 60", {
      timeoutMs: 120_000,
      signal: controller.signal,
      onOutput: () => controller.abort(),
    });
    const r = await pending;
    expect(r.aborted).toBe(true);
    expect(r.timedOut).toBe(false);
    expect(r.exitCode).toBe(137); // SIGKILL, from the process-tree killer
    expect(r.stdout).toBe("started\n");
    // Promptly: the command's own end (60 s) and timeout (120 s) are far away.
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await leftover()).toBe("");
  });

  it("[C11] with the signal already aborted, no command starts and file operations are refused", async () => {
    const controller = new AbortController();
    controller.abort();
    const r = await sb.exec("touch should-not-exist", { signal: controller.signal });
    expect(r).toMatchObject({ aborted: true, exitCode: null });
    await expect(sb.readFile("should-not-exist")).rejects.toMatchObject({
      reason: "SANDBOX_PATH_NOT_FOUND",
    });
    await expect(sb.writeFile("x.txt", "x", { signal: controller.signal })).rejects.toMatchObject({
      reason: "SANDBOX_ABORTED",
    });
    expect(await sb.listFiles(".", { signal: new AbortController().signal })).not.toContain(
      "./x.txt",
    );
  });

  it("listFiles and search run inside the sandbox with quoting that keeps a pattern one word", async () => {
    await sb.writeFile("src/it's.txt", "it's here\n");
    expect(await sb.listFiles(".", { recursive: true })).toEqual(["./src", "./src/it's.txt"]);
    expect(await sb.listFiles("src", { pattern: "*.txt" })).toEqual(["src/it's.txt"]);
    expect(await sb.search("it's", "src")).toBe("src/it's.txt:1:it's here\n");
    expect(await sb.search("absent", ".")).toBe("no matches");
  });
});
