// A verified delivery of a repository → runs of the jobs whose approved triggers it matches.
//
//   1. the repository's jobs whose stored triggers (the default branch's, E01) match;
//   2. per job, one transaction under the job's run lock: dedupe, the drop checks (not
//      approved, own App, other bots, rate limit), a newer event of the same pull request
//      with a run already (this one starts nothing), supersede older queued runs of it, queue
//      the run; each outcome a TriggerEvent row and an audit row;
//   3. after commit, each queued run onto the run queue (a crash in between leaves a QUEUED
//      run that the scheduler's requeue puts back).
//
// An event run may be queued beside a RUNNING run of the same job: unlike fires and "run now"
// there is no active-run check; the worker's concurrency limit decides when it starts.
import type { Db, Prisma } from "@secondshift/db";
import { insertQueuedRun, lockJobRuns } from "@secondshift/run-lifecycle";
import type { TriggerEventDropReason } from "@secondshift/vocabulary";
import type { AppIdentity } from "./bots.ts";
import type { Delivery } from "./deliveries/types.ts";
import { matchingJobs, workspaceApps } from "./intake/candidates.ts";
import { dropOf } from "./intake/drops.ts";
import {
  alreadyMet,
  recordDropped,
  recordQueued,
  recordSupersededOnArrival,
  type EventContext,
} from "./intake/rows.ts";
import { newerEventRun, supersedeQueued } from "./intake/supersede.ts";

export interface EnqueueRun {
  (run: { runId: string; workspaceId: string }): Promise<void>;
}

export interface IntakeInput {
  repository: { id: string; workspaceId: string };
  delivery: Delivery;
  /** GitHub's X-GitHub-Delivery. */
  deliveryId: string;
  now: Date;
}

export type JobOutcome =
  | { jobKey: string; outcome: "queued"; runId: string; superseded: number }
  | { jobKey: string; outcome: "dropped"; reason: TriggerEventDropReason }
  | { jobKey: string; outcome: "superseded"; newerRunId: string }
  | { jobKey: string; outcome: "duplicate" };

export interface IntakeSummary {
  workspaceId: string;
  jobs: JobOutcome[];
}

async function queueRun(tx: Prisma.TransactionClient, c: EventContext): Promise<string> {
  const run = await insertQueuedRun(tx, {
    workspaceId: c.workspaceId,
    jobId: c.job.id,
    trigger: "EVENT",
    scheduledFor: null,
    jobTokenBudget: c.job.tokenBudget,
  });
  // A pull request run checks out the delivery's head, not what the branch points to later.
  const commitSha = c.delivery.pullRequest?.headSha ?? null;
  if (commitSha !== null) await tx.run.update({ where: { id: run.id }, data: { commitSha } });
  await recordQueued(tx, c, run.id);
  return run.id;
}

/** The job's state as it is under its lock (an owner may have paused it a moment ago). */
async function currentJob(tx: Prisma.TransactionClient, c: EventContext): Promise<EventContext> {
  const row = await tx.job.findFirst({
    where: { id: c.job.id, workspaceId: c.workspaceId },
    select: { status: true, enabled: true, removedAt: true },
  });
  const status = row === null || row.removedAt !== null ? "REMOVED" : row.status;
  return { ...c, job: { ...c.job, status, enabled: row?.enabled ?? false } };
}

function intakeForJob(db: Db, matched: EventContext, apps: AppIdentity[]): Promise<JobOutcome> {
  const jobKey = matched.job.key;
  return db.$transaction(async (tx): Promise<JobOutcome> => {
    await lockJobRuns(tx, matched.job.id);
    if (await alreadyMet(tx, matched)) return { jobKey, outcome: "duplicate" };
    const c = await currentJob(tx, matched);
    const drop = await dropOf(tx, c, apps);
    if (drop) {
      await recordDropped(tx, c, drop.reason, drop.detail);
      return { jobKey, outcome: "dropped", reason: drop.reason };
    }
    const newerRunId = await newerEventRun(tx, c);
    if (newerRunId !== null) {
      await recordSupersededOnArrival(tx, c, newerRunId);
      return { jobKey, outcome: "superseded", newerRunId };
    }
    const superseded = await supersedeQueued(tx, c);
    return { jobKey, outcome: "queued", runId: await queueRun(tx, c), superseded };
  });
}

export async function intakeDelivery(
  db: Db,
  deps: { enqueueRun: EnqueueRun },
  input: IntakeInput,
): Promise<IntakeSummary> {
  const { workspaceId } = input.repository;
  const jobs = await matchingJobs(db, input.repository, input.delivery);
  const apps = jobs.length > 0 ? await workspaceApps(db, workspaceId) : [];
  const outcomes: JobOutcome[] = [];
  for (const job of jobs) {
    const context = { ...input, workspaceId, job };
    outcomes.push(await intakeForJob(db, context, apps));
  }
  for (const o of outcomes) {
    if (o.outcome === "queued") await deps.enqueueRun({ runId: o.runId, workspaceId });
  }
  return { workspaceId, jobs: outcomes };
}

/** What the webhook route answers: "Queued N run(s); dropped M: …". */
export function summaryMessage(summary: IntakeSummary): string {
  const queued = summary.jobs.filter((o) => o.outcome === "queued").length;
  const dropped = summary.jobs.flatMap((o) =>
    o.outcome === "dropped" ? [`${o.jobKey} (${o.reason})`] : [],
  );
  const duplicates = summary.jobs.filter((o) => o.outcome === "duplicate").length;
  const older = summary.jobs.filter((o) => o.outcome === "superseded").length;
  const parts = [
    `Queued ${queued} run(s)`,
    `dropped ${dropped.length}${dropped.length > 0 ? `: ${dropped.join(", ")}` : ""}`,
  ];
  if (duplicates > 0) parts.push(`${duplicates} already received`);
  if (older > 0) parts.push(`${older} older than an event that already has a run`);
  if (summary.jobs.length === 0) parts.push("no job's trigger matches this event");
  return `${parts.join("; ")}.`;
}
