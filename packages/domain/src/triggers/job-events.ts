// Every member: a job's triggers (as the access review shows them) and the last events that met
// it — queued a run, were superseded, or were dropped and why — newest first.
import { notFound, requireRole, type ActorContext } from "../context.ts";
import { reviewTriggers, type ReviewTriggers } from "../jobs/review-triggers.ts";
import { triggerEventSelect, triggerEventView, type TriggerEventView } from "./events-view.ts";

export const JOB_EVENTS_SHOWN = 20;

export interface JobEvents {
  jobKey: string;
  triggers: ReviewTriggers;
  /** The owner's choice on events from people without write access (E03). */
  allowOutsiderEvents: boolean;
  /** The latest JOB_EVENTS_SHOWN, newest first. */
  events: TriggerEventView[];
}

export async function listJobEvents(
  ctx: ActorContext,
  input: { jobId: string },
): Promise<JobEvents> {
  await requireRole(ctx, "read");
  const { db, workspaceId } = ctx;
  const job = await db.job.findFirst({
    where: { id: input.jobId, workspaceId },
    select: {
      key: true,
      workspaceId: true,
      repositoryId: true,
      requestedTriggers: true,
      allowOutsiderEvents: true,
    },
  });
  if (!job) throw notFound("Job");
  const [triggers, rows] = await Promise.all([
    reviewTriggers(db, job),
    db.triggerEvent.findMany({
      where: { workspaceId, jobId: input.jobId },
      select: triggerEventSelect,
      orderBy: [{ receivedAt: "desc" }, { id: "desc" }],
      take: JOB_EVENTS_SHOWN,
    }),
  ]);
  return {
    jobKey: job.key,
    triggers,
    allowOutsiderEvents: job.allowOutsiderEvents,
    events: rows.map(triggerEventView),
  };
}
