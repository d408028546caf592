// Bursts coalesce (E04): a newer pull_request event for a pull request replaces the job's
// queued (not yet started) event runs for the same pull request. A running run finishes; the
// worker holds its pull request output as superseded. "Newer" is the pull request's own time
// (occurredAt, its updated_at), not the order GitHub delivered in: a delivery older than one
// that already has a run starts nothing. Equal times fall back to arrival order.
import type { Prisma } from "@secondshift/db";
import { recordAudit } from "@secondshift/domain";
import { supersedeRun } from "@secondshift/run-lifecycle";
import { SYSTEM_EVENTS, type EventContext } from "./rows.ts";

type Tx = Prisma.TransactionClient;

function samePullRequest(c: EventContext) {
  return {
    workspaceId: c.workspaceId,
    jobId: c.job.id,
    kind: "pull_request",
    subjectNumber: c.delivery.subject.number,
    outcome: "queued",
  } as const;
}

function coalesces(c: EventContext): boolean {
  return c.job.match.kind === "pull_request" && c.delivery.pullRequest !== null;
}

/** The run of a newer event for the same pull request, if one was queued already. */
export async function newerEventRun(tx: Tx, c: EventContext): Promise<string | null> {
  if (!coalesces(c)) return null;
  const newer = await tx.triggerEvent.findFirst({
    where: { ...samePullRequest(c), occurredAt: { gt: c.delivery.occurredAt } },
    orderBy: { occurredAt: "desc" },
    select: { runId: true },
  });
  return newer?.runId ?? null;
}

export async function supersedeQueued(tx: Tx, c: EventContext): Promise<number> {
  const { delivery: d } = c;
  if (!coalesces(c) || d.pullRequest === null) return 0;
  const older = await tx.triggerEvent.findMany({
    where: {
      ...samePullRequest(c),
      occurredAt: { lte: d.occurredAt },
      run: { is: { status: "QUEUED" } },
    },
    select: { id: true, runId: true },
  });
  const message = `Superseded by a newer event for pull request #${d.subject.number} (commit ${d.pullRequest.headSha.slice(0, 7)}).`;
  let superseded = 0;
  for (const event of older) {
    if (event.runId === null) continue;
    const run = { id: event.runId, workspaceId: c.workspaceId };
    if (!(await supersedeRun(tx, run, message))) continue;
    await tx.triggerEvent.update({ where: { id: event.id }, data: { outcome: "superseded" } });
    await recordAudit(tx, {
      workspaceId: c.workspaceId,
      actorType: "SYSTEM",
      actorId: SYSTEM_EVENTS,
      action: "event.superseded",
      targetType: "Run",
      targetId: run.id,
      targetLabel: c.job.name,
      outcome: "superseded",
    });
    superseded += 1;
  }
  return superseded;
}
