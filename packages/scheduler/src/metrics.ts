// The run and queue gauges, computed when Prometheus scrapes (nothing is counted in between):
// runs by status from one grouped query, and per queue the job counts by state and how long
// the oldest waiting job has waited. Registered on the registry the app passes in.
import type { Queue } from "bullmq";
import { RunStatus, type Db } from "@secondshift/db";
import { Gauge, type Registry } from "prom-client";

const JOB_STATES = ["waiting", "active", "delayed", "failed"] as const;

export interface QueueMetricsSources {
  db: Db;
  /** The queues to report, by the `queue` label value (e.g. { runs: runQueue }). */
  queues: Record<string, Pick<Queue, "getJobCounts" | "getJobs">>;
}

export function registerQueueMetrics(registry: Registry, sources: QueueMetricsSources): void {
  new Gauge({
    name: "secondshift_runs",
    help: "Runs by status (all workspaces), read from the database at scrape time.",
    labelNames: ["status"],
    registers: [registry],
    async collect() {
      const groups = await sources.db.run.groupBy({ by: ["status"], _count: { _all: true } });
      // Every status is reported, 0 included, so a series never disappears.
      for (const status of Object.values(RunStatus)) this.set({ status }, 0);
      for (const g of groups) this.set({ status: g.status }, g._count._all);
    },
  });
  new Gauge({
    name: "secondshift_queue_jobs",
    help: "Jobs on each BullMQ queue by state.",
    labelNames: ["queue", "state"],
    registers: [registry],
    async collect() {
      for (const [queue, q] of Object.entries(sources.queues)) {
        const counts = await q.getJobCounts(...JOB_STATES);
        for (const state of JOB_STATES) this.set({ queue, state }, counts[state] ?? 0);
      }
    },
  });
  new Gauge({
    name: "secondshift_queue_oldest_wait_seconds",
    help: "How long the oldest waiting job of each queue has waited (0 when none waits).",
    labelNames: ["queue"],
    registers: [registry],
    async collect() {
      for (const [queue, q] of Object.entries(sources.queues)) {
        const [oldest] = await q.getJobs(["waiting"], 0, 0, true);
        this.set({ queue }, oldest ? Math.max(0, (Date.now() - oldest.timestamp) / 1000) : 0);
      }
    },
  });
}
