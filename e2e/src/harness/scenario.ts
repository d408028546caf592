// Helpers shared by the scenario files: waiting on database state, reading a run's transcript
// and audit rows, firing a job's real BullMQ schedule now, and scanning for planted secrets.
import type { Platform } from "./platform.ts";
import { isFinal } from "@secondshift/run-lifecycle";

export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | null | undefined | false>,
  timeoutMs = 90_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export function waitForFinishedRun(
  p: Platform,
  where: { jobId?: string; id?: string },
  timeoutMs?: number,
) {
  return waitFor(
    "a finished run",
    async () => {
      const run = await p.t.db.run.findFirst({ where, orderBy: { queuedAt: "desc" } });
      return run && isFinal(run.status) && run.finishedAt ? run : null;
    },
    timeoutMs,
  );
}

/**
 * Runs one whole pass of the worker's webhook delivery processor, after any pass already running
 * has ended (a pass returns null while another is running): every report due by now has then
 * been attempted, and every attempt this worker started before has been answered and recorded.
 */
export async function deliveryPassDone(p: Platform): Promise<void> {
  await waitFor(
    "a whole webhook delivery pass",
    async () => (await p.worker.delivery.tick()) !== null,
  );
}

/**
 * Waits until the run and schedule queues hold nothing to do (nothing waiting, active or
 * prioritized; no delayed run): whatever was enqueued before has been processed. The schedule
 * queue's delayed jobs are the schedulers' next fires and stay.
 */
export async function queuesDrained(p: Platform, timeoutMs?: number): Promise<void> {
  await waitFor(
    "the run and schedule queues to drain",
    async () => {
      const runs = await p.worker.runQueue.getJobCounts(
        "waiting",
        "active",
        "delayed",
        "prioritized",
        "waiting-children",
      );
      const fires = await p.worker.scheduleQueue.getJobCounts(
        "waiting",
        "active",
        "prioritized",
        "waiting-children",
      );
      return [...Object.values(runs), ...Object.values(fires)].every((n) => n === 0);
    },
    timeoutMs,
  );
}

/** Promotes the job's pending scheduler fire (created by BullMQ from the cron) so it fires now. */
export async function fireScheduleNow(p: Platform, jobId: string): Promise<void> {
  const job = await waitFor("the job's scheduled fire", async () => {
    const delayed = await p.worker.scheduleQueue.getDelayed();
    return delayed.find(
      (j) => (j.id ?? "").includes(jobId) || JSON.stringify(j.data).includes(jobId),
    );
  });
  await job.promote();
}

export async function transcript(p: Platform, runId: string) {
  return p.t.db.runEvent.findMany({ where: { runId }, orderBy: { seq: "asc" } });
}

/** Every place a secret must never appear, as one text per place. */
export async function everywhere(
  p: Platform,
  workspaceId: string,
  extra: Record<string, string> = {},
): Promise<Record<string, string>> {
  const { db } = p.t;
  return {
    logs: p.logs(),
    runEvents: JSON.stringify(await db.runEvent.findMany({ where: { workspaceId } })),
    auditEvents: JSON.stringify(await db.auditEvent.findMany({ where: { workspaceId } })),
    runs: JSON.stringify(await db.run.findMany({ where: { workspaceId } })),
    deliveries:
      JSON.stringify(await db.webhookDeliveryAttempt.findMany({ where: { workspaceId } })) +
      JSON.stringify(await db.webhookDelivery.findMany({ where: { workspaceId } })),
    modelRequests: JSON.stringify(p.model.requests.map((r) => r.body)),
    ...extra,
  };
}

export function findLeaks(
  places: Record<string, string>,
  secrets: Record<string, string>,
): string[] {
  const leaks: string[] = [];
  for (const [place, text] of Object.entries(places)) {
    for (const [name, secret] of Object.entries(secrets))
      if (text.includes(secret)) leaks.push(`${name} in ${place}`);
  }
  return leaks;
}
