// Scenario 8: one repository declares fifty jobs on the same cron; all fifty fires come due at
// once (their real BullMQ scheduler jobs promoted together). Every fire runs exactly once, in a
// real sandbox, and the workspace never has more runs going than its limit — neither in the
// database nor as containers. A fire delivered again creates nothing.
import { handleFire } from "@secondshift/scheduler";
import Docker from "dockerode";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPlatform, type Platform } from "./harness/platform.ts";
import { queuesDrained, waitFor } from "./harness/scenario.ts";
import { seedPlainWorkspace, syncAndApproveAll } from "./harness/seed-plain.ts";
import { createRepository, jobYaml, plantedSecrets } from "./harness/seed.ts";

const JOBS = 50;
const WORKSPACE_LIMIT = 3;
const WORKER_CONCURRENCY = 4;
const docker = new Docker();
let p: Platform;
beforeAll(async () => {
  p = await startPlatform({ concurrency: WORKER_CONCURRENCY });
});
afterAll(async () => {
  await p?.close();
});

/** Samples a count until stopped; keeps the maximum seen. */
function sampleMax(everyMs: number, probe: () => Promise<number>) {
  let max = 0;
  let samples = 0;
  let stopped = false;
  const done = (async () => {
    while (!stopped) {
      max = Math.max(max, await probe());
      samples++;
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await done;
      return { max, samples };
    },
  };
}

describe("scenario: fifty jobs due in the same minute", () => {
  it(
    "every fire runs exactly once, within the workspace and worker concurrency limits",
    { timeout: 300_000 },
    async () => {
      const keys = Array.from({ length: JOBS }, (_, i) => `job-${String(i).padStart(2, "0")}`);
      const repo = createRepository({
        ".secondshift.yaml": jobYaml(keys.map((key) => ({ key, schedule: "0 3 * * *" }))),
        "README.md": "# Acme\n",
      });
      const ws = await seedPlainWorkspace(p, {
        planted: plantedSecrets(),
        repoDir: repo.dir,
        maxConcurrentRuns: WORKSPACE_LIMIT,
      });
      expect(await syncAndApproveAll(p, ws)).toBe(JOBS);
      const jobs = await p.t.db.job.findMany({
        where: { workspaceId: ws.workspaceId, status: "APPROVED" },
      });
      expect(jobs).toHaveLength(JOBS);
      p.model.script([() => ({ text: "All quiet." })]);

      await p.worker.start({ repoSync: false });
      const delayed = await waitFor("fifty pending fires", async () => {
        const pending = await p.worker.scheduleQueue.getDelayed();
        return pending.length === JOBS && pending;
      });

      const { db } = p.t;
      const running = sampleMax(50, () =>
        db.run.count({ where: { workspaceId: ws.workspaceId, status: "RUNNING" } }),
      );
      const containers = sampleMax(
        250,
        async () =>
          (
            await docker.listContainers({
              filters: { label: [`secondshift.workspace-id=${ws.workspaceId}`] },
            })
          ).length,
      );
      const started = Date.now();
      await Promise.all(delayed.map((job) => job.promote()));

      const finished = await waitFor(
        "fifty finished runs",
        async () => {
          const done = await db.run.count({
            where: { workspaceId: ws.workspaceId, finishedAt: { not: null } },
          });
          return done >= JOBS && done;
        },
        270_000,
      );
      const elapsedMs = Date.now() - started;
      const dbMax = await running.stop();
      const containerMax = await containers.stop();
      console.log(
        `fifty-jobs: ${finished} runs in ${(elapsedMs / 1000).toFixed(1)} s; max RUNNING ${dbMax.max} (${dbMax.samples} samples), max containers ${containerMax.max} (${containerMax.samples} samples)`,
      );

      const runs = await db.run.findMany({ where: { workspaceId: ws.workspaceId } });
      expect(runs).toHaveLength(JOBS);
      // This worker's reaper never took a sandbox from one of its own live runs.
      const reaped = p
        .logs()
        .split("\n")
        .filter((l) => l.includes('"sandbox.reaped"') && runs.some((r) => l.includes(r.id)));
      expect(reaped).toEqual([]);
      expect(
        runs.filter((r) => r.status !== "SUCCEEDED").map((r) => `${r.status}: ${r.error}`),
      ).toEqual([]);
      expect(runs.every((r) => r.trigger === "SCHEDULE" && r.summary === "All quiet.")).toBe(true);
      expect(new Set(runs.map((r) => r.jobId))).toEqual(new Set(jobs.map((j) => j.id)));
      // One fire time for all fifty: the next 03:00, not the moment they were promoted.
      const fireTimes = new Set(runs.map((r) => r.scheduledFor?.toISOString()));
      expect(fireTimes.size).toBe(1);
      const scheduledFor = runs[0]!.scheduledFor!;
      expect(scheduledFor.getUTCHours()).toBe(3);
      expect(scheduledFor.getTime()).toBeGreaterThan(started);
      // One model request per run: no run was executed twice.
      expect(p.model.requests.filter((r) => r.path === "/v1/messages")).toHaveLength(JOBS);
      // The executor records each run's end once (the agent loop writes its own run_finished too).
      const ends = await db.runEvent.findMany({
        where: { workspaceId: ws.workspaceId, type: "run_finished" },
      });
      const recorded = ends
        .filter((e) => (e.payload as { status?: string }).status === "SUCCEEDED")
        .map((e) => e.runId);
      expect(recorded.sort()).toEqual(runs.map((r) => r.id).sort());

      // The limit was reached and never exceeded: in the database and on the Docker engine.
      expect(dbMax.max).toBe(WORKSPACE_LIMIT);
      expect(containerMax.max).toBeLessThanOrEqual(WORKSPACE_LIMIT);
      expect(containerMax.max).toBeGreaterThan(0);

      // The same fires delivered again (a BullMQ retry or stalled job) find their runs.
      for (const job of jobs) {
        const outcome = await handleFire(db, p.worker.runQueue, {
          workspaceId: ws.workspaceId,
          jobId: job.id,
          scheduledFor,
        });
        const run = runs.find((r) => r.jobId === job.id)!;
        expect(outcome).toEqual({ outcome: "duplicate", runId: run.id });
      }
      // Anything those fires enqueued has been processed before the counts below are taken.
      await queuesDrained(p);
      expect(await db.run.count({ where: { workspaceId: ws.workspaceId } })).toBe(JOBS);
      expect(p.model.requests.filter((r) => r.path === "/v1/messages")).toHaveLength(JOBS);
      // Each scheduler holds its next fire (tomorrow), nothing else is due.
      const next = await p.worker.scheduleQueue.getDelayed();
      expect(next).toHaveLength(JOBS);
      expect(await p.worker.scheduleQueue.getWaitingCount()).toBe(0);
      expect(
        await db.auditEvent.count({
          where: { workspaceId: ws.workspaceId, action: "schedule.skipped" },
        }),
      ).toBe(0);
    },
  );
});
