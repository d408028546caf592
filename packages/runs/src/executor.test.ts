import { Readable } from "node:stream";
import { cancelRun } from "@secondshift/domain";
import type { RunAgentOptions } from "@secondshift/agent";
import type { Db } from "@secondshift/db";
import { dbTest } from "@secondshift/db/testing/vitest";
import { createLogger, createMemorySink, SecretMasker } from "@secondshift/logging";
import { describe, expect, vi } from "vitest";
import { executeRun } from "./executor.ts";
import { BUDGET_EXHAUSTED_ERROR, exhaustBudget } from "@secondshift/run-lifecycle";
import type { RunSandbox } from "@secondshift/sandbox";
import type { RunExecutorDeps } from "./ports.ts";
import { seedRunningRun } from "./testing/fixtures.ts";

function fakeSandbox() {
  const calls: string[] = [];
  let destroyed = 0;
  /** What the workspace count before the diff finds (checkWorkspaceFiles). */
  const workspace = { files: 3 };
  const sandbox: RunSandbox = {
    exec: (command) => {
      calls.push(command);
      const counting = command.startsWith("find /workspace ");
      return Promise.resolve({
        exitCode: 0,
        stdout: counting
          ? `${workspace.files} 42\n`
          : command.includes("diff")
            ? "diff --git a/x b/x\n+change\n"
            : "",
        stderr: "",
        truncated: false,
        timedOut: false,
        aborted: false,
      });
    },
    readFile: () => Promise.resolve(Buffer.from("content")),
    writeFile: () => Promise.resolve(),
    listFiles: () => Promise.resolve([]),
    copyInArchive: async (archive) => {
      for await (const chunk of archive) calls.push(`copy ${String(chunk)}`);
    },
    destroy: () => {
      destroyed++;
      return Promise.resolve();
    },
  };
  return { sandbox, calls, workspace, destroyed: () => destroyed };
}

function fakeDeps(
  db: Db,
  overrides: Partial<RunExecutorDeps> & { agent: (o: RunAgentOptions) => Promise<unknown> },
) {
  const box = fakeSandbox();
  const reports: string[] = [];
  let cleaned = 0;
  const sink = createMemorySink();
  const masker = new SecretMasker();
  const d = {
    db,
    logger: createLogger({ name: "test", destination: sink.stream, masker }),
    masker,
    workerId: "w1",
    gatewayUrl: "http://127.0.0.1:9",
    sandboxes: { create: () => Promise.resolve(box.sandbox) },
    source: {
      checkout: () =>
        Promise.resolve({
          commit: "abc123",
          archive: () => Promise.resolve(Readable.from(["the archive"])),
          cleanup: () => {
            cleaned++;
            return Promise.resolve();
          },
        }),
    },
    broker: { call: () => Promise.resolve({ content: [], isError: false, truncated: false }) },
    freezePlan: () => Promise.resolve({ tools: [] }),
    enqueueReports: ({ runId }: { runId: string }) => {
      reports.push(runId);
      return Promise.resolve();
    },
    limits: { stopPollMs: 100, heartbeatMs: 200 },
    ...overrides,
    runAgent: overrides.agent as RunExecutorDeps["runAgent"],
  };
  return { d, box, reports, cleaned: () => cleaned, logs: sink };
}

const usage = { inputTokens: 1, outputTokens: 1 };

/** The executor's dependencies over the file's database, with fakes around it: `deps(overrides)`. */
const test = dbTest.extend(
  "deps",
  { scope: "file" },
  ({ db }) =>
    (overrides: Parameters<typeof fakeDeps>[1]) =>
      fakeDeps(db, overrides),
);

describe("run executor", () => {
  test("a run that leaves more files in /workspace than the cap fails naming the limit, and git never reads them", async ({
    db,
    deps,
  }) => {
    const { run } = await seedRunningRun(db);
    const { d, box } = deps({
      agent: () => Promise.resolve({ outcome: "succeeded", summary: "Made files.", usage }),
      limits: { stopPollMs: 100, heartbeatMs: 200, maxWorkspaceFiles: 10 },
    });
    box.workspace.files = 11;
    const result = await executeRun(d, run.id);
    expect(result.status).toBe("FAILED");
    expect(result.error).toMatch(
      /^The run failed while collecting the run's changes: The run left more than 10 files in \/workspace \(SANDBOX_WORKSPACE_MAX_FILES = 10\)/,
    );
    // Only the snapshot's git ran, never the diff's `git add -A`.
    expect(box.calls.filter((c) => c.includes("git") && c.includes("diff"))).toEqual([]);
    const row = await db.run.findUniqueOrThrow({ where: { id: run.id } });
    expect(row).toMatchObject({ status: "FAILED", diff: null });
    expect(box.destroyed()).toBe(1);
  });

  test("[C15] runs the agent with a run token that is revoked at the end, records result, diff and reports", async ({
    db,
    deps,
  }) => {
    const { run } = await seedRunningRun(db);
    let seenToken = "";
    const { d, box, reports, cleaned } = deps({
      agent: async (o) => {
        seenToken = o.model.runToken;
        const row = await db.runToken.findFirstOrThrow({ where: { runId: run.id } });
        expect(row.revokedAt).toBeNull();
        expect(Buffer.from(row.tokenHash).toString("utf8")).not.toContain(seenToken);
        await o.events.append({
          type: "final_answer",
          payload: { summary: `done ${o.model.runToken}` },
        });
        return { outcome: "succeeded", summary: "All good.", usage };
      },
    });
    const result = await executeRun(d, run.id);
    expect(result.status).toBe("SUCCEEDED");
    expect(seenToken).toMatch(/^ss_run_/);
    const row = await db.run.findUniqueOrThrow({ where: { id: run.id } });
    expect(row).toMatchObject({ status: "SUCCEEDED", summary: "All good.", commitSha: "abc123" });
    expect(row.diff).toContain("+change");
    expect(row.finishedAt).not.toBeNull();
    expect(
      (await db.runToken.findFirstOrThrow({ where: { runId: run.id } })).revokedAt,
    ).not.toBeNull();
    expect(box.destroyed()).toBe(1);
    expect(cleaned()).toBe(1);
    expect(reports).toEqual([run.id]);
    const events = await db.runEvent.findMany({
      where: { runId: run.id },
      orderBy: { seq: "asc" },
    });
    expect(events.map((e) => e.type)).toEqual([
      "run_started",
      "final_answer",
      "status",
      "run_finished",
    ]);
    expect(events[2]?.payload).toMatchObject({ status: "SUCCEEDED", transition: "finish" });
    // [C28] the token never reaches the sandbox, and is masked in the transcript.
    expect(box.calls.join("\n")).not.toContain(seenToken);
    expect(JSON.stringify(events)).not.toContain(seenToken);
  });

  test("[P02] the run's secrets are masked on the worker's log while it runs and leave the masker at its end", async ({
    db,
    deps,
  }) => {
    const { run } = await seedRunningRun(db);
    let token = "";
    const { d, logs } = deps({
      agent: (o) => {
        token = o.model.runToken;
        // As the broker does for a connection credential: into the run's scope, found by id.
        d.masker.scopeFor(run.id).add("broker-credential-of-this-run");
        d.logger.info({ header: `Bearer ${token}` }, "saw broker-credential-of-this-run");
        return Promise.resolve({ outcome: "succeeded", summary: "ok", usage });
      },
    });
    const before = d.masker.size;
    expect((await executeRun(d, run.id)).status).toBe("SUCCEEDED");
    expect(logs.text()).toContain("saw [MASKED]");
    expect(logs.text()).not.toContain(token);
    // The run is over: nothing of it is left in the worker's masker.
    expect(d.masker.size).toBe(before);
    expect(d.masker.mask(token)).toBe(token);
    // Its scope is closed: what is added for it now (late work) is a late secret, which leaves
    // after a while, never a process-long one.
    expect(d.masker.scopeFor(run.id)).not.toBe(d.masker);
  });

  test("releases the run before recording it; a failed release is logged and the result stands", async ({
    db,
    deps,
  }) => {
    const released: string[] = [];
    const finish = async (release: () => Promise<void>) => {
      const { run } = await seedRunningRun(db);
      const { d } = deps({
        agent: () => Promise.resolve({ outcome: "succeeded", summary: "Done.", usage }),
        releaseRun: async (runId) => {
          // Still RUNNING: the broker writes its pending audit records before the run ends.
          const row = await db.run.findUniqueOrThrow({ where: { id: runId } });
          released.push(`${row.status} ${row.finishedAt === null}`);
          await release();
        },
      });
      return executeRun(d, run.id);
    };
    expect(await finish(() => Promise.resolve())).toEqual({ status: "SUCCEEDED" });
    // A connector's session that fails to close is logged; the run's result stands.
    expect(await finish(() => Promise.reject(new Error("session close failed")))).toEqual({
      status: "SUCCEEDED",
    });
    expect(released).toEqual(["RUNNING true", "RUNNING true"]);
  });

  test("[C05] a plan that cannot be frozen fails the run before any sandbox starts", async ({
    db,
    deps,
  }) => {
    const { run } = await seedRunningRun(db);
    let created = 0;
    const { d, reports } = deps({
      agent: () => Promise.reject(new Error("must not run")),
      freezePlan: () => Promise.reject(new Error('The required tool "get_issue" is not granted.')),
      sandboxes: {
        create: () => {
          created++;
          return Promise.reject(new Error("no"));
        },
      },
    });
    const result = await executeRun(d, run.id);
    expect(result).toMatchObject({
      status: "FAILED",
      error: expect.stringContaining("get_issue") as string,
    });
    expect(created).toBe(0);
    expect(
      (await db.runToken.findFirstOrThrow({ where: { runId: run.id } })).revokedAt,
    ).not.toBeNull();
    expect(reports).toEqual([run.id]);
  });

  test("a checkout that fails while the sandbox starts beside it: the run fails and the sandbox is destroyed", async ({
    db,
    deps,
  }) => {
    const { run } = await seedRunningRun(db);
    const { d, box, reports } = deps({
      agent: () => Promise.reject(new Error("must not run")),
      source: { checkout: () => Promise.reject(new Error("The repository could not be fetched.")) },
    });
    const result = await executeRun(d, run.id);
    expect(result).toMatchObject({
      status: "FAILED",
      error:
        "The run failed while fetching the repository and starting the sandbox: The repository could not be fetched.",
    });
    expect(box.destroyed()).toBe(1);
    expect(box.calls).toEqual([]);
    expect(reports).toEqual([run.id]);
  });

  test("a failing step is named in the run's error and finalize still releases everything", async ({
    db,
    deps,
  }) => {
    const { run } = await seedRunningRun(db);
    const released: string[] = [];
    const { d, box, reports, cleaned } = deps({
      agent: () => Promise.reject(new Error("must not run")),
      releaseRun: (runId) => {
        released.push(runId);
      },
    });
    box.sandbox.copyInArchive = () => Promise.reject(new Error("tar: No space left on device"));
    const result = await executeRun(d, run.id);
    expect(result).toEqual({
      status: "FAILED",
      error:
        "The run failed while copying the repository into the sandbox: tar: No space left on device",
    });
    expect(box.destroyed()).toBe(1);
    expect(cleaned()).toBe(1);
    expect(released).toEqual([run.id]);
    expect(reports).toEqual([run.id]);
    expect(
      (await db.runToken.findFirstOrThrow({ where: { runId: run.id } })).revokedAt,
    ).not.toBeNull();
    const events = await db.runEvent.findMany({
      where: { runId: run.id },
      orderBy: { seq: "asc" },
    });
    expect(events.map((e) => e.type)).toEqual(["error", "status", "run_finished"]);
  });

  test("fails clearly without a model provider", async ({ db, deps }) => {
    const { run } = await seedRunningRun(db, { withProvider: false });
    const { d } = deps({ agent: () => Promise.reject(new Error("must not run")) });
    const result = await executeRun(d, run.id);
    expect(result.status).toBe("FAILED");
    expect(result.error).toContain("no model provider");
  });

  test("a cancel by API stops a running run within 2 seconds", async ({ db, deps }) => {
    const { run, seed } = await seedRunningRun(db);
    let agentRunning = false;
    const { d, box } = deps({
      agent: (o) =>
        new Promise((done) => {
          o.limits.signal.addEventListener("abort", () => done({ outcome: "cancelled", usage }));
          agentRunning = true;
        }),
    });
    const running = executeRun(d, run.id);
    // Cancel while the agent runs.
    await vi.waitUntil(() => agentRunning, { timeout: 10_000, interval: 10 });
    const asked = Date.now();
    await cancelRun(
      { db: db, actor: { userId: seed.adminId }, workspaceId: seed.workspaceId },
      { runId: run.id },
    );
    const result = await running;
    expect(Date.now() - asked).toBeLessThan(2000);
    expect(result.status).toBe("CANCELLED");
    expect(box.destroyed()).toBe(1);
  });

  test("keeps a status the gateway set (budget exhausted) and fills in the rest", async ({
    db,
    deps,
  }) => {
    const { run } = await seedRunningRun(db);
    const { d } = deps({
      agent: async () => {
        await exhaustBudget(db, run);
        return { outcome: "budget_exhausted", error: "The run's token budget is used up.", usage };
      },
    });
    expect((await executeRun(d, run.id)).status).toBe("BUDGET_EXHAUSTED");
    expect((await db.run.findUniqueOrThrow({ where: { id: run.id } })).finishedAt).not.toBeNull();
  });

  test("[C17] a run the gateway cuts off mid-tool says it ran out of budget, not that it was cancelled", async ({
    db,
    deps,
  }) => {
    const { run } = await seedRunningRun(db);
    const { d } = deps({
      agent: (o) =>
        new Promise((done) => {
          o.limits.signal.addEventListener("abort", () =>
            done({ outcome: "cancelled", error: "The run was cancelled.", usage }),
          );
          void exhaustBudget(db, run).then(() => undefined);
        }),
    });
    expect(await executeRun(d, run.id)).toEqual({
      status: "BUDGET_EXHAUSTED",
      error: BUDGET_EXHAUSTED_ERROR,
    });
    expect(await db.run.findUniqueOrThrow({ where: { id: run.id } })).toMatchObject({
      status: "BUDGET_EXHAUSTED",
      error: BUDGET_EXHAUSTED_ERROR,
    });
  });
});
