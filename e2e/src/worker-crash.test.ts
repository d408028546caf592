// Scenario 6: a worker process is killed (SIGKILL) while its run is RUNNING with a live
// sandbox. The next worker marks the run failed ("worker lost"), revokes its token and reaps
// its container; the run is never left RUNNING, never executed again, never duplicated.
import { runNow } from "@secondshift/domain";
import { WORKER_LOST_ERROR } from "@secondshift/scheduler";
import Docker from "dockerode";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { actAs } from "./harness/actor.ts";
import { startPlatform, type Platform } from "./harness/platform.ts";
import { everywhere, findLeaks, queuesDrained, transcript, waitFor } from "./harness/scenario.ts";
import { createRepository, jobYaml, plantedSecrets } from "./harness/seed.ts";
import { seedPlainWorkspace, syncAndApproveAll } from "./harness/seed-plain.ts";
import { spawnWorkerProcess, type WorkerProcess } from "./harness/worker-process.ts";

const docker = new Docker();
const QUEUE_LOCK_MS = 5_000;
let p: Platform;
let child: WorkerProcess | undefined;

beforeAll(async () => {
  // The surviving worker: declares a run lost after 4 s without a heartbeat, and looks for
  // stalled queue jobs every 5 s (BullMQ's 30 s default would make this test wait a minute).
  p = await startPlatform({ heartbeatTimeoutMs: 4_000, queueLockMs: QUEUE_LOCK_MS });
});
afterAll(async () => {
  if (child && child.child.exitCode === null && child.child.signalCode === null)
    child.child.kill("SIGKILL");
  await p?.close();
});

let started = false;
async function startSurvivor(): Promise<void> {
  if (!started) await p.worker.start({ repoSync: false });
  started = true;
}

const containersOf = (runId: string) =>
  docker.listContainers({ all: true, filters: { label: [`secondshift.run-id=${runId}`] } });

describe("scenario: worker killed mid-run", () => {
  it(
    "[C28][P03] the run is marked failed (worker lost) by the next worker, its container reaped, its token revoked — never stuck, never duplicated",
    { timeout: 240_000 },
    async () => {
      const planted = plantedSecrets();
      const repo = createRepository({
        ".secondshift.yaml": jobYaml([{ key: "crashy" }]),
        "README.md": "# Acme\n",
      });
      const ws = await seedPlainWorkspace(p, { planted, repoDir: repo.dir });
      await syncAndApproveAll(p, ws);
      const job = await p.t.db.job.findFirstOrThrow({
        where: { workspaceId: ws.workspaceId, key: "crashy" },
      });
      expect(job.status).toBe("APPROVED");

      // The model has the sandbox run a command, then never answers again: the run is mid-flight.
      let hanging = false;
      p.model.script([
        () => ({
          tool: "shell",
          input: { command: "echo sandbox-alive > /tmp/alive && cat /tmp/alive" },
        }),
        () => {
          hanging = true;
          return { hang: true };
        },
      ]);

      // The worker that will die: a separate process on the same database, Redis prefix and gateway.
      child = spawnWorkerProcess({
        databaseUrl: p.t.url,
        redisUrl: p.settings.redis.url,
        redisPrefix: p.settings.redis.prefix!,
        gatewayUrl: p.gatewayUrl,
        keyB64: p.encryptionKeyB64,
        image: p.settings.sandbox.image,
        overrides: { concurrency: 1, heartbeatTimeoutMs: 60_000, queueLockMs: QUEUE_LOCK_MS },
      });
      await child.started;

      const { runId } = await runNow(actAs(p, ws.workspaceId, ws.adminId), { jobId: job.id });
      await waitFor(
        "the model's second turn (the shell command has run)",
        () => Promise.resolve(hanging),
        120_000,
      );
      const before = await p.t.db.run.findUniqueOrThrow({ where: { id: runId } });
      expect(before.status).toBe("RUNNING");
      expect(before.workerId).not.toBeNull();
      const events = await transcript(p, runId);
      expect(JSON.stringify(events)).toContain("sandbox-alive");
      const live = await containersOf(runId);
      expect(live).toHaveLength(1);
      expect(live[0]!.State).toBe("running");
      expect(await p.t.db.runToken.findMany({ where: { runId } })).toMatchObject([
        { revokedAt: null },
      ]);

      child.child.kill("SIGKILL");
      expect(await child.exited).toMatchObject({ signal: "SIGKILL" });
      // Nothing cleaned up after the kill: the run, its container and its token are all still live.
      expect((await p.t.db.run.findUniqueOrThrow({ where: { id: runId } })).status).toBe("RUNNING");
      expect(await containersOf(runId)).toHaveLength(1);
      expect(await p.t.db.runToken.count({ where: { runId, revokedAt: null } })).toBe(1);
      const modelRequestsAtKill = p.model.requests.length;
      const eventsAtKill = await transcript(p, runId);

      // The next worker starts: recovery at start and on its interval finds the stale heartbeat.
      await startSurvivor();
      const failed = await waitFor(
        "the run marked failed by recovery",
        async () => {
          const run = await p.t.db.run.findUniqueOrThrow({ where: { id: runId } });
          return run.status !== "RUNNING" && run;
        },
        60_000,
      );
      expect(failed).toMatchObject({ status: "FAILED", error: WORKER_LOST_ERROR });
      expect(failed.finishedAt).not.toBeNull();
      expect(failed.finishedAt!.getTime()).toBeGreaterThan(before.startedAt!.getTime());

      // [P03] the token is revoked; the container is reaped.
      const tokens = await p.t.db.runToken.findMany({ where: { runId } });
      expect(tokens).toHaveLength(1);
      expect(tokens[0]!.revokedAt).not.toBeNull();
      await p.worker.reaper.reapOnce();
      await waitFor(
        "the lost run's container to be removed",
        async () => (await containersOf(runId)).length === 0,
        30_000,
      );
      expect(p.logs()).toContain("run marked failed: worker lost");

      // The dead worker's queue job stalls; BullMQ hands it to the surviving worker, whose claim
      // refuses it (the run is no longer QUEUED). Wait for that, then check nothing ran again.
      const queueJob = await p.worker.runQueue.getJob(runId);
      expect(queueJob).toBeDefined();
      await waitFor(
        "the stalled queue job to be settled by the next worker",
        async () => {
          const state = await queueJob!.getState();
          return (state === "completed" || state === "failed") && state;
        },
        120_000,
      );
      // Past every point that could run it again: one more recovery pass of the next worker
      // (which requeues runs), then its queues drained (whatever was enqueued has been run).
      await p.worker.recover();
      await queuesDrained(p);
      expect(await p.t.db.run.findMany({ where: { jobId: job.id } })).toMatchObject([
        { id: runId, status: "FAILED", error: WORKER_LOST_ERROR },
      ]);
      expect(p.model.requests.length).toBe(modelRequestsAtKill);
      expect(await containersOf(runId)).toHaveLength(0);
      // The transcript is the one execution's, untouched since the kill (one executor start),
      // closed by the recovery's status event.
      const after = await transcript(p, runId);
      expect(after.slice(0, -1).map((e) => e.id)).toEqual(eventsAtKill.map((e) => e.id));
      expect(after.at(-1)).toMatchObject({
        type: "status",
        payload: { status: "FAILED", transition: "loseWorker" },
      });
      expect(
        after.filter(
          (e) => e.type === "run_started" && JSON.stringify(e.payload).includes("commit"),
        ),
      ).toHaveLength(1);

      // No planted secret in the killed worker's output or anywhere else.
      const leaks = findLeaks(
        await everywhere(p, ws.workspaceId, { killedWorkerOutput: child.output() }),
        {
          providerKey: planted.providerKey,
          encryptionKey: p.encryptionKeyB64,
        },
      );
      expect(leaks).toEqual([]);
    },
  );

  it(
    "a healthy run that outlasts the heartbeat timeout is never declared lost",
    { timeout: 120_000 },
    async () => {
      const repo = createRepository({
        ".secondshift.yaml": jobYaml([{ key: "slow" }]),
        "README.md": "# Acme\n",
      });
      const ws = await seedPlainWorkspace(p, { planted: plantedSecrets(), repoDir: repo.dir });
      await syncAndApproveAll(p, ws);
      const job = await p.t.db.job.findFirstOrThrow({
        where: { workspaceId: ws.workspaceId, key: "slow" },
      });
      // The model takes three heartbeat timeouts to answer; recovery runs every second meanwhile.
      // The run must outlast the timeout on the wall clock, so the answer waits on the clock
      // itself, then on one more recovery pass that sees the run that old.
      p.model.script([
        async () => {
          const asked = Date.now();
          await vi.waitUntil(() => Date.now() - asked > 3 * p.settings.heartbeatTimeoutMs, {
            timeout: 60_000,
            interval: 100,
          });
          await p.worker.recover();
          return { text: "Slow but fine." };
        },
      ]);
      await startSurvivor();
      const { runId } = await runNow(actAs(p, ws.workspaceId, ws.adminId), { jobId: job.id });
      const run = await waitFor(
        "the slow run to finish",
        async () => {
          const row = await p.t.db.run.findUniqueOrThrow({ where: { id: runId } });
          return row.finishedAt && row;
        },
        90_000,
      );
      expect(run).toMatchObject({ status: "SUCCEEDED", error: null, summary: "Slow but fine." });
      expect(run.finishedAt!.getTime() - run.startedAt!.getTime()).toBeGreaterThan(
        3 * p.settings.heartbeatTimeoutMs,
      );
    },
  );
});
