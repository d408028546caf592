// Resource limits (C11), timeouts and output caps, each tried for real.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { manager, runOptions } from "./testing/harness.ts";
import type { Sandbox } from "./sandbox.ts";

describe("sandbox limits", () => {
  let sb: Sandbox;
  let other: Sandbox;
  beforeAll(async () => {
    const m = manager();
    [sb, other] = await Promise.all([m.create(runOptions()), m.create(runOptions())]);
  });
  afterAll(async () => {
    await Promise.all([sb.destroy(), other.destroy()]);
  });

  it("a command past its timeout is killed with its whole process tree (checked with ps)", async () => {
    const r = await sb.exec(
      "(sleep 300 & (sleep 301 &) ; setsid sleep 302 & wait) & echo started; sleep 303",
      { timeoutMs: 1_500 },
    );
    expect(r.timedOut).toBe(true);
    expect(r.stdout).toBe("started\n");
    const ps = await sb.exec("ps -eo stat=,args= | grep -v '^Z'");
    expect(ps.stdout).not.toMatch(/sleep 30[0-3]/);
  });

  it("a double-forked orphan of a timed-out command is killed too (every process but the container init is swept)", async () => {
    const r = await sb.exec("(sleep 304 &) ; echo started; sleep 305", { timeoutMs: 1_500 });
    expect(r.timedOut).toBe(true);
    const ps = await sb.exec("ps -eo stat=,args= | grep -v '^Z'");
    expect(ps.stdout).not.toMatch(/sleep 30[45]/);
  });

  it("an output flood is truncated at the cap and not buffered", async () => {
    const seen: number[] = [];
    const r = await sb.exec("head -c 50000000 /dev/zero | tr '\\0' x; echo done >&2", {
      maxOutputBytes: 100_000,
      onOutput: (_s, chunk) => seen.push(chunk.length),
    });
    expect(r.exitCode).toBe(0);
    expect(r.truncated).toBe(true);
    expect(r.stdout.length).toBe(100_000);
    expect(seen.reduce((a, b) => a + b, 0)).toBe(100_000 + "done\n".length);
    expect(r.stderr).toBe("done\n");
  });

  it("[C11] filling the workspace hits its size limit", async () => {
    const r = await sb.exec(
      "dd if=/dev/zero of=/workspace/fill bs=1M count=100 2>&1; df -k /workspace | tail -1; rm -f /workspace/fill",
    );
    expect(r.stdout).toContain("No space left on device");
    expect(r.stdout).toMatch(/ 32768 /);
  });

  it("[C11] a fork bomb hits the process limit while another sandbox keeps working", async () => {
    // Its own sandbox: under gVisor's ptrace platform a long bomb can also exhaust the host-side
    // backstop, which ends that sandbox; either way it must stay contained.
    const bombed = await manager().create(runOptions());
    try {
      const forkFailed = /fork: (retry: )?Resource temporarily unavailable/;
      let stderr = "";
      let atLimit = false;
      const bomb = bombed.exec("f(){ f | f & }; f; sleep 30", {
        timeoutMs: 3_000,
        onOutput: (stream, chunk) => {
          if (stream !== "stderr" || atLimit) return;
          stderr += chunk.toString();
          atLimit = forkFailed.test(stderr);
        },
      });
      // The bomb is at the process limit once one of its forks fails: the other sandbox must
      // keep working from then on (the race only ends the wait early if the bomb ends first).
      await Promise.race([bomb, vi.waitUntil(() => atLimit, { timeout: 30_000, interval: 20 })]);
      const during = await other.exec("echo still-working; seq 3 | wc -l");
      expect(during.stdout).toBe("still-working\n3\n");
      // A bomb may also take the whole sandbox down for memory: then exec says so.
      const r = await bomb.catch((e: unknown) => e as Error);
      if (r instanceof Error) expect(r).toMatchObject({ reason: "SANDBOX_OUT_OF_MEMORY" });
      else {
        expect(r.timedOut || r.exitCode === null).toBe(true);
        expect(r.stderr).toMatch(/fork: (retry: )?Resource temporarily unavailable/);
      }
      // The timeout kill walks the tree until ps shows none left; on a loaded machine that can
      // take a few passes, during which a new command may itself fail to fork. Give it time.
      const check = () =>
        bombed
          .exec("ps -eo stat=,args= | grep -v '^Z' | grep -c 'f(){ [f] | f' || true; echo alive", {
            timeoutMs: 10_000,
          })
          .catch((e: unknown) => e as Error);
      // Either the tree is gone and the sandbox usable, or the whole sandbox is gone.
      const after = await vi.waitFor(
        async () => {
          const result = await check();
          if (!(result instanceof Error)) expect(result.stdout).toBe("0\nalive\n");
          return result;
        },
        { timeout: 150_000, interval: 500 },
      );
      if (after instanceof Error)
        expect(["SANDBOX_GONE", "SANDBOX_OUT_OF_MEMORY"]).toContain(
          (after as { reason?: string }).reason,
        );
      expect((await other.exec("echo after")).stdout).toBe("after\n");
    } finally {
      await bombed.destroy();
    }
    // Two cores shared with the other sandbox test files (one of them runs a bomb too): the
    // sweep under a bomb can take far longer than the bomb's own 3 s.
  }, 180_000);

  it("[C11] a memory hog is killed and reported with the named limit; the other sandbox keeps working", async () => {
    const hog = sb.exec("python3 -c 'a=[]\nwhile True: a.append(bytearray(16 << 20))'", {
      timeoutMs: 40_000,
    });
    await expect(hog).rejects.toMatchObject({
      reason: "SANDBOX_OUT_OF_MEMORY",
      message: expect.stringContaining("SANDBOX_MEMORY_MB = 384 MiB") as unknown,
    });
    expect((await other.exec("echo ok")).stdout).toBe("ok\n");
    // Every later call says the same, instead of a generic failure.
    await expect(sb.exec("echo no")).rejects.toMatchObject({ reason: "SANDBOX_OUT_OF_MEMORY" });
    await expect(sb.readFile("x")).rejects.toMatchObject({ reason: "SANDBOX_OUT_OF_MEMORY" });
  });
});
