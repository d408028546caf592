// What owners and admins do with approved jobs and repositories besides "run now": pause and
// resume a job's schedule, and ask for a repository sync. Viewers and non-members are refused,
// and ids from another workspace behave as not found. Every action is audited.
import type { Db } from "@secondshift/db";
import { AppError } from "@secondshift/errors";
import type { ScheduleQueue } from "./queues.ts";
import { syncSchedules } from "./sync-schedules.ts";
import { requestSync, type SyncQueue } from "./sync-queue.ts";

async function requireOperator(
  db: Db,
  workspaceId: string,
  userId: string,
  action: string,
): Promise<void> {
  const membership = await db.membership.findUnique({
    where: { workspaceId_userId: { workspaceId, userId } },
    select: { role: true },
  });
  if (!membership || (membership.role !== "OWNER" && membership.role !== "ADMIN")) {
    throw new AppError("FORBIDDEN", `Only workspace owners and admins can ${action}.`, {
      reason: "ROLE_CANNOT_OPERATE",
    });
  }
}

/** Pauses (enabled = false) or resumes a job; its schedule follows at once. */
export async function setJobPaused(
  db: Db,
  scheduleQueue: ScheduleQueue,
  input: { workspaceId: string; jobId: string; actor: { userId: string }; paused: boolean },
): Promise<void> {
  await requireOperator(
    db,
    input.workspaceId,
    input.actor.userId,
    input.paused ? "pause jobs" : "resume jobs",
  );
  const updated = await db.job.updateMany({
    where: { id: input.jobId, workspaceId: input.workspaceId, removedAt: null },
    data: { enabled: !input.paused },
  });
  if (updated.count === 0)
    throw new AppError("NOT_FOUND", "This job does not exist in the workspace.", {
      reason: "JOB_NOT_FOUND",
    });
  await db.auditEvent.create({
    data: {
      workspaceId: input.workspaceId,
      actorType: "USER",
      actorId: input.actor.userId,
      action: input.paused ? "job.paused" : "job.resumed",
      targetType: "Job",
      targetId: input.jobId,
    },
  });
  await syncSchedules(db, scheduleQueue, { workspaceId: input.workspaceId });
}

/** "Sync now": queues a sync of the repository (deduplicated per repository). */
export async function requestRepositorySync(
  db: Db,
  syncQueue: SyncQueue,
  input: { workspaceId: string; repositoryId: string; actor: { userId: string } },
): Promise<void> {
  await requireOperator(db, input.workspaceId, input.actor.userId, "sync repositories");
  const repository = await db.repository.findFirst({
    where: { id: input.repositoryId, workspaceId: input.workspaceId },
    select: { id: true },
  });
  if (!repository)
    throw new AppError("NOT_FOUND", "This repository does not exist in the workspace.", {
      reason: "REPOSITORY_NOT_FOUND",
    });
  await db.auditEvent.create({
    data: {
      workspaceId: input.workspaceId,
      actorType: "USER",
      actorId: input.actor.userId,
      action: "repository.sync_requested",
      targetType: "Repository",
      targetId: repository.id,
    },
  });
  await requestSync(syncQueue, { workspaceId: input.workspaceId, repositoryId: repository.id });
}
