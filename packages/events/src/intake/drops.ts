// Why a matching job's event starts no run, checked in this order: the job is not approved
// (or paused), the sender is SecondShift's own App, another bot the trigger does not take, or
// the workspace's hourly limit of event-started runs is reached (E03, E04).
import type { Prisma } from "@secondshift/db";
import type { TriggerEventDropReason } from "@secondshift/vocabulary";
import { senderVerdict, type AppIdentity } from "../bots.ts";
import { startsRuns } from "./candidates.ts";
import type { EventContext } from "./rows.ts";

type Tx = Prisma.TransactionClient;

export interface Drop {
  reason: TriggerEventDropReason;
  detail: string | null;
}

const HOUR_MS = 3_600_000;

/** Serialises the rate count of one workspace's event runs; taken after the job's run lock. */
async function lockWorkspaceEventRuns(tx: Tx, workspaceId: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('secondshift.event-runs'), hashtext(${workspaceId}))`;
}

/**
 * Event-started runs of the last hour against the workspace's limit. A run superseded before
 * it started spent nothing, so a burst's newest push is never the one dropped. Under the
 * workspace lock, so concurrent deliveries cannot both take the last slot.
 */
async function rateLimited(tx: Tx, c: EventContext): Promise<Drop | null> {
  await lockWorkspaceEventRuns(tx, c.workspaceId);
  const [workspace, started] = await Promise.all([
    tx.workspace.findUniqueOrThrow({
      where: { id: c.workspaceId },
      select: { eventRunsPerHour: true },
    }),
    tx.triggerEvent.count({
      where: {
        workspaceId: c.workspaceId,
        outcome: "queued",
        receivedAt: { gt: new Date(c.now.getTime() - HOUR_MS) },
      },
    }),
  ]);
  if (started < workspace.eventRunsPerHour) return null;
  return {
    reason: "rate_limit",
    detail: `${started} event-started runs in the last hour; the workspace allows ${workspace.eventRunsPerHour}.`,
  };
}

function notApproved(c: EventContext): Drop | null {
  if (startsRuns(c.job)) return null;
  const state = c.job.enabled ? `status ${c.job.status}` : "paused";
  return { reason: "job_not_approved", detail: `The job is ${state}.` };
}

function sender(c: EventContext, apps: AppIdentity[]): Drop | null {
  const verdict = senderVerdict(c.delivery, apps, c.job.match.bots);
  if (verdict === "counts") return null;
  return { reason: verdict, detail: `Sent by ${c.delivery.actor.login}.` };
}

export async function dropOf(tx: Tx, c: EventContext, apps: AppIdentity[]): Promise<Drop | null> {
  return notApproved(c) ?? sender(c, apps) ?? (await rateLimited(tx, c));
}
