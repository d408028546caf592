// The run executor, the real agent loop and a real gVisor sandbox together: cancelling the run
// kills the command it is running (the run's abort signal reaches the exec), instead of leaving it
// to run until its own timeout.
import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startScriptedModel } from "@secondshift/agent/testing";
import { dbTest } from "@secondshift/db/testing/vitest";
import { createLogger, createMemorySink, SecretMasker } from "@secondshift/logging";
import {
  createSandboxManager,
  type ExecOptions,
  type ExecResult,
  type RunSandbox,
} from "@secondshift/sandbox";
import type { Db } from "@secondshift/db";
import Docker from "dockerode";
import { describe, expect, vi } from "vitest";
import { executeRun } from "./executor.ts";
import { seedRunningRun } from "./testing/fixtures.ts";

/** A folder with one file: the repository the run checks out. */
// eslint-disable-next-line no-empty-pattern -- Vitest requires a destructuring pattern here.
const test = dbTest.extend("repoDir", { scope: "file" }, async ({}, { onCleanup }) => {
  const repoDir = await mkdtemp(join(tmpdir(), "runs-sandbox-test-"));
  onCleanup(() => rm(repoDir, { recursive: true, force: true }));
  await writeFile(join(repoDir, "README.md"), "hello\n");
  return repoDir;
});

interface SeenExec {
  command: string;
  result: ExecResult;
  endedAt: number;
}

/** A real sandbox whose execs are timed, and whose destroy first waits for them and runs ps. */
function observedSandboxes(memoryBytes = 384 * 1024 * 1024) {
  const masker = new SecretMasker();
  const logger = createLogger({ name: "test", destination: createMemorySink().stream, masker });
  const docker = new Docker();
  const manager = createSandboxManager({
    docker,
    image: process.env.TEST_SANDBOX_IMAGE ?? "secondshift-sandbox:test",
    runtime: "runsc",
    production: true,
    allowRunc: false,
    limits: {
      memoryBytes,
      nanoCpus: 1_000_000_000,
      pidsLimit: 128,
      nofile: 1024,
      workspaceBytes: 32 * 1024 * 1024,
      tmpBytes: 16 * 1024 * 1024,
    },
    installationId: "runs-executor-test",
    logger,
  });
  const seen: SeenExec[] = [];
  const pending: Array<Promise<unknown>> = [];
  let psAtEnd = "";
  let containerId: string | undefined;
  const create = async (options: { runId: string; workspaceId: string; deadline: Date }) => {
    const sandbox = await manager.create(options);
    containerId = sandbox.id;
    const observed: RunSandbox = {
      exec: (command: string, execOptions?: ExecOptions) => {
        const run = sandbox.exec(command, execOptions).then((result) => {
          seen.push({ command, result, endedAt: Date.now() });
          return result;
        });
        pending.push(run.catch(() => undefined));
        return run;
      },
      readFile: (path, o) => sandbox.readFile(path, o),
      writeFile: (path, content, o) => sandbox.writeFile(path, content, o),
      listFiles: (path, o) => sandbox.listFiles(path, o),
      search: (pattern, path, o) => sandbox.search(pattern, path, o),
      copyInArchive: (archive) => sandbox.copyInArchive(archive),
      destroy: async () => {
        await Promise.all(pending);
        // A sandbox killed for memory has no ps to run.
        psAtEnd = await sandbox
          .exec("ps -eo stat=,args= | grep -v '^Z'")
          .then((r) => r.stdout)
          .catch(() => "");
        await sandbox.destroy();
      },
    };
    return observed;
  };
  /** The container's processes, one command line each, read through the engine beside the
   *  running command (a plain docker exec: it neither waits for the command nor kills anything). */
  const processes = async (): Promise<string[]> => {
    if (containerId === undefined) return [];
    const exec = await docker.getContainer(containerId).exec({
      Cmd: ["ps", "-eo", "args="],
      User: "10001:10001",
      AttachStdout: true,
      Tty: true,
    });
    let out = "";
    for await (const chunk of await exec.start({ Tty: true })) out += String(chunk);
    return out.split(/\r?\n/).map((line) => line.trim());
  };
  return { factory: { create }, seen, psAtEnd: () => psAtEnd, processes, masker, logger };
}

function runDeps(
  db: Db,
  sandboxes: ReturnType<typeof observedSandboxes>,
  gatewayUrl: string,
  repoDir: string,
  maxWorkspaceFiles?: number,
): Parameters<typeof executeRun>[0] {
  return {
    db,
    logger: sandboxes.logger,
    masker: sandboxes.masker,
    workerId: "w1",
    gatewayUrl,
    sandboxes: sandboxes.factory,
    source: {
      checkout: () =>
        Promise.resolve({
          commit: "abc123",
          archive: () => Promise.resolve(spawn("tar", ["-c", "-C", repoDir, "."]).stdout),
          cleanup: () => Promise.resolve(),
        }),
    },
    broker: { call: () => Promise.reject(new Error("no plan tools in this run")) },
    freezePlan: () => Promise.resolve({ tools: [] }),
    enqueueReports: () => Promise.resolve(),
    limits: {
      stopPollMs: 100,
      heartbeatMs: 500,
      ...(maxWorkspaceFiles ? { maxWorkspaceFiles } : {}),
    },
  };
}

describe("run executor with a real sandbox", () => {
  test("[C11] cancelling a run kills the command it is running, promptly, with its processes", async ({
    db,
    repoDir,
    onTestFinished,
  }) => {
    const { run } = await seedRunningRun(db, { timeoutSeconds: 300 });
    const model = await startScriptedModel([
      {
        reply: {
          toolCalls: [
            {
              name: "shell",
              args: { command: "(sleep 61 &) ; sleep 62 & echo started; sleep 60" },
            },
          ],
        },
      },
      { reply: { text: "never reached" } },
    ]);
    onTestFinished(() => model.close());
    const sandboxes = observedSandboxes();
    const running = executeRun(runDeps(db, sandboxes, model.baseUrl, repoDir), run.id);
    // Cancel once the command is running: its three sleeps are processes of the sandbox.
    await vi.waitFor(
      async () =>
        expect(await sandboxes.processes()).toEqual(
          expect.arrayContaining(["sleep 60", "sleep 61", "sleep 62"]),
        ),
      { timeout: 60_000, interval: 200 },
    );
    const cancelledAt = Date.now();
    await db.run.updateMany({ where: { id: run.id }, data: { cancelRequestedAt: new Date() } });

    const result = await running;
    expect(result.status).toBe("CANCELLED");
    const shell = sandboxes.seen.find((s) => s.command.includes("sleep 60"));
    expect(shell?.result).toMatchObject({ aborted: true, timedOut: false });
    // The command ended because of the cancel, seconds after it, not after its 60 s.
    expect(shell!.endedAt - cancelledAt).toBeLessThan(5_000);
    expect(Date.now() - cancelledAt).toBeLessThan(10_000);
    expect(sandboxes.psAtEnd()).not.toMatch(/sleep 6[012]/);
    expect(sandboxes.psAtEnd()).not.toBe("");
  }, 120_000);
  test("[C11] a run whose command floods /workspace with small files fails within seconds, naming SANDBOX_MEMORY_MB", async ({
    db,
    repoDir,
    onTestFinished,
  }) => {
    const { run } = await seedRunningRun(db, { timeoutSeconds: 300 });
    const flood =
      'python3 -c \'i = 0\nwhile True:\n  open("/workspace/f%d" % i, "w").close(); i += 1\'';
    const model = await startScriptedModel([
      { reply: { toolCalls: [{ name: "shell", args: { command: flood } }] } },
      { reply: { text: "never reached" } },
    ]);
    onTestFinished(() => model.close());
    const sandboxes = observedSandboxes(128 * 1024 * 1024);
    const started = Date.now();
    const result = await executeRun(runDeps(db, sandboxes, model.baseUrl, repoDir), run.id);
    expect(result.status).toBe("FAILED");
    expect(result.error).toMatch(
      /^The run used all of the sandbox's memory \(SANDBOX_MEMORY_MB = 128 MiB\): it created more files or data than fit, or a process used too much memory\./,
    );
    expect(Date.now() - started).toBeLessThan(60_000);
    const row = await db.run.findUniqueOrThrow({ where: { id: run.id } });
    expect(row).toMatchObject({ status: "FAILED", diff: null });
    expect(row.error).toBe(result.error);
  }, 120_000);
  test("a run that leaves more files in /workspace than SANDBOX_WORKSPACE_MAX_FILES fails naming it, before git reads them", async ({
    db,
    repoDir,
    onTestFinished,
  }) => {
    const { run } = await seedRunningRun(db, { timeoutSeconds: 300 });
    const model = await startScriptedModel([
      {
        reply: {
          toolCalls: [
            {
              name: "shell",
              args: {
                command: "mkdir -p node_modules/x && cd node_modules/x && seq 1 500 | xargs touch",
              },
            },
          ],
        },
      },
      { reply: { text: "Installed." } },
    ]);
    onTestFinished(() => model.close());
    const sandboxes = observedSandboxes();
    const result = await executeRun(runDeps(db, sandboxes, model.baseUrl, repoDir, 200), run.id);
    expect(result.status).toBe("FAILED");
    expect(result.error).toMatch(
      /^The run failed while collecting the run's changes: The run left more than 200 files in \/workspace \(SANDBOX_WORKSPACE_MAX_FILES = 200\), so its changes were not collected/,
    );
    expect(result.error).toContain("such as node_modules");
    // The count ran; the diff's `git add -A` did not.
    expect(sandboxes.seen.some((s) => s.command.startsWith("find /workspace "))).toBe(true);
    expect(sandboxes.seen.some((s) => s.command.includes("diff --cached"))).toBe(false);
  }, 120_000);
});
