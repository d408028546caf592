// The worker's check of an event run before it is claimed (E03): who caused the event, and may
// they start this job? The actor's permission is looked up on GitHub (github.ts) once and kept
// on the TriggerEvent; without write access the run starts only where the owner allowed events
// from others for this job (its outputs are then held, check/event-holds.ts in outputs). A
// lookup that fails starts nothing. A comment command on a pull request also fixes the commit
// the run checks out: the pull request's head now (the delivery names none).
import type { Db } from "@secondshift/db";
import { recordAudit } from "@secondshift/domain";
import { isAppError } from "@secondshift/errors";
import type { Logger } from "@secondshift/logging";
import { refuseEventActor, type RunRef } from "@secondshift/run-lifecycle";
import { hasWriteAccess, type TriggerEventDropReason } from "@secondshift/vocabulary";
import type { OpenEventGithub } from "./github.ts";

/** The audit actor id of the worker's event screen. */
export const SYSTEM_EVENT_SCREEN = "event-screen";

export interface ScreenDeps {
  db: Db;
  github: OpenEventGithub;
  logger: Logger;
}

const CONNECTION_FIELDS = {
  id: true,
  workspaceId: true,
  kind: true,
  authType: true,
  endpoint: true,
  settings: true,
  credentialCiphertext: true,
  oauthAccessTokenCiphertext: true,
  deletedAt: true,
} as const;

function loadEventRun(db: Db, ref: RunRef) {
  return db.run.findFirst({
    where: { id: ref.id, workspaceId: ref.workspaceId },
    select: {
      id: true,
      workspaceId: true,
      status: true,
      trigger: true,
      commitSha: true,
      triggerEvent: true,
      job: {
        select: {
          name: true,
          allowOutsiderEvents: true,
          repository: {
            select: {
              fullName: true,
              cloneUrl: true,
              connection: { select: CONNECTION_FIELDS },
            },
          },
        },
      },
    },
  });
}

type EventRun = NonNullable<Awaited<ReturnType<typeof loadEventRun>>>;
type TriggerEventRow = NonNullable<EventRun["triggerEvent"]>;

/** What the lookup found: the actor's permission, and the head a comment command runs on. */
interface Looked {
  permission: string;
  headSha: string | null;
}

/** Screens one queued run; ends it (CANCELLED) when its event's actor may not start it. */
export async function screenEventRun(deps: ScreenDeps, ref: RunRef): Promise<void> {
  const run = await loadEventRun(deps.db, ref);
  if (!run || run.trigger !== "EVENT" || run.status !== "QUEUED") return;
  const event = run.triggerEvent;
  if (!event) {
    await refuse(deps, run, null, "actor_check_failed", "its event record is missing");
    return;
  }
  if (event.actorCheckedAt !== null) {
    // Looked up on an earlier attempt; the decision is taken again (the owner may have changed it).
    if (!mayStart(run, event.actorPermission)) await refuseActor(deps, run, event);
    return;
  }
  let looked: Looked;
  try {
    looked = await lookUp(deps, run, event);
  } catch (error) {
    const why = isAppError(error) ? error.message : "GitHub could not be reached";
    deps.logger.warn(
      { event: "event.actor_check_failed", runId: run.id, triggerEventId: event.id, err: error },
      "the event's actor could not be checked; the run does not start",
    );
    await refuse(deps, run, event, "actor_check_failed", `the check failed: ${why}`);
    return;
  }
  const allowed = mayStart(run, looked.permission);
  await deps.db.$transaction(async (tx) => {
    // Kept with the decision in one transaction: a crash never leaves a checked, unrefused run.
    await tx.triggerEvent.updateMany({
      where: { id: event.id, workspaceId: run.workspaceId },
      data: {
        actorPermission: looked.permission,
        actorCheckedAt: new Date(),
        ...(looked.headSha ? { headSha: looked.headSha } : {}),
      },
    });
    if (looked.headSha)
      await tx.run.updateMany({
        where: { id: run.id, workspaceId: run.workspaceId, status: "QUEUED" },
        data: { commitSha: looked.headSha },
      });
    if (!allowed)
      await refuseIn(tx, run, event, "actor_not_allowed", notAllowedMessage(event, looked));
  });
}

function mayStart(run: EventRun, permission: string | null): boolean {
  return hasWriteAccess(permission) || run.job.allowOutsiderEvents;
}

/** A comment command on a pull request (no commit from the delivery) runs on its head now. */
function needsHead(run: EventRun, event: TriggerEventRow): boolean {
  return event.subjectType === "pull_request" && run.commitSha === null;
}

async function lookUp(deps: ScreenDeps, run: EventRun, event: TriggerEventRow): Promise<Looked> {
  const pullRequests = needsHead(run, event);
  const github = await deps.github(
    { workspaceId: run.workspaceId, ...run.job.repository },
    { pullRequests },
  );
  try {
    const permission = await github.permission(event.actorLogin);
    const headSha = pullRequests ? await github.pullHead(event.subjectNumber) : null;
    return { permission, headSha };
  } finally {
    await github.close();
  }
}

function notAllowedMessage(event: TriggerEventRow, looked: { permission: string }): string {
  return `Not started: @${event.actorLogin} has "${looked.permission}" permission on the repository (no write access), and the owner has not allowed events from others for this job.`;
}

async function refuseActor(deps: ScreenDeps, run: EventRun, event: TriggerEventRow) {
  const permission = event.actorPermission ?? "none";
  await deps.db.$transaction((tx) =>
    refuseIn(tx, run, event, "actor_not_allowed", notAllowedMessage(event, { permission })),
  );
}

async function refuse(
  deps: ScreenDeps,
  run: EventRun,
  event: TriggerEventRow | null,
  reason: TriggerEventDropReason,
  detail: string,
) {
  const message = `Not started: the sender's permission on the repository could not be checked (${detail}); a run never starts on doubt. The delivery can be redelivered from GitHub.`;
  await deps.db.$transaction((tx) => refuseIn(tx, run, event, reason, message));
}

type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];

async function refuseIn(
  tx: Tx,
  run: EventRun,
  event: TriggerEventRow | null,
  reason: TriggerEventDropReason,
  message: string,
): Promise<void> {
  if (!(await refuseEventActor(tx, run, message))) return;
  if (event)
    await tx.triggerEvent.updateMany({
      where: { id: event.id, workspaceId: run.workspaceId },
      data: { outcome: "dropped", dropReason: reason, detail: message },
    });
  await recordAudit(tx, {
    workspaceId: run.workspaceId,
    actorType: "SYSTEM",
    actorId: SYSTEM_EVENT_SCREEN,
    action: "event.actor_refused",
    ...(event
      ? { targetType: "TriggerEvent" as const, targetId: event.id }
      : { targetType: "Run" as const, targetId: run.id }),
    targetLabel: run.job.name,
    outcome: reason,
  });
}
