// The frozen execution plan (C03): at run start, requested ∩ allowed on the connection ∩
// approved in the job's current grant, with each tool's input schema snapshotted. The worker
// freezes it at run start and the broker reads it at each call; what is granted is the domain's
// rule (currentGrant, readBindings), read here once. Once written it is never recomputed for
// the run, so it cannot grow.
import { Prisma, type ConnectionKind, type Db } from "@secondshift/db";
import { failRun } from "@secondshift/run-lifecycle";
import { AppError } from "@secondshift/errors";
import { EVENT_TEXT_TOOL, PLATFORM_TOOLS, type GrantedOutputs } from "@secondshift/vocabulary";
import {
  currentGrant,
  groupKey,
  notFound,
  readBindings,
  readDiscoveredTools,
  readGrantedOutputs,
  recordAudit,
  storedRequest,
  SYSTEM_PLANNER,
} from "@secondshift/domain";

export interface PlanEntry {
  /** The name the model calls; the bare tool name unless two connections offer the same one. */
  name: string;
  connectionId: string;
  connectionKind: ConnectionKind;
  /** The tool's name on the connection. */
  tool: string;
  inputSchema: Record<string, unknown>;
  mayChangeData: boolean;
}

export interface FrozenPlan {
  version: 1;
  jobId: string;
  grantId: string;
  requestHash: string;
  frozenAt: string;
  tools: PlanEntry[];
  /**
   * The output kinds the grant allows, with the owner's limits and mode (O02); absent in plans
   * frozen before outputs existed, which grant none. The run's platform tools follow from it.
   */
  outputs?: GrantedOutputs;
  /**
   * The GitHub event that started the run (issue #25), absent on scheduled and manual runs: its
   * texts are read through the event text tool, and a comment with `target: triggering` may go
   * only to its issue or pull request.
   */
  event?: PlanEvent;
}

export interface PlanEvent {
  triggerEventId: string;
  subjectType: "issue" | "pull_request";
  subjectNumber: number;
}

/** The granted outputs of a plan (none for a plan without the field). */
export function planOutputs(plan: FrozenPlan): GrantedOutputs {
  return plan.outputs ?? {};
}

export function readPlan(value: unknown): FrozenPlan | null {
  const plan = value as Partial<FrozenPlan> | null;
  return plan && plan.version === 1 && Array.isArray(plan.tools) ? (plan as FrozenPlan) : null;
}

async function refuse(
  db: Db,
  run: { id: string; workspaceId: string; job: { name: string } },
  reason: string,
  message: string,
): Promise<never> {
  await db.$transaction(async (tx) => {
    await failRun(tx, run, message);
    await recordAudit(tx, {
      workspaceId: run.workspaceId,
      actorType: "SYSTEM",
      actorId: SYSTEM_PLANNER,
      action: "run.plan_refused",
      targetType: "Run",
      targetId: run.id,
      // A run is named by its job.
      targetLabel: run.job.name,
      outcome: reason,
    });
  });
  throw new AppError("PRECONDITION_FAILED", message, { reason });
}

const PLATFORM_TOOL_NAMES: ReadonlySet<string> = new Set([
  ...Object.values(PLATFORM_TOOLS).map((t) => t.name),
  EVENT_TEXT_TOOL,
]);

function planEvent(
  event: {
    id: string;
    subjectType: string;
    subjectNumber: number;
  } | null,
): PlanEvent | undefined {
  if (!event) return undefined;
  const subjectType = event.subjectType === "pull_request" ? "pull_request" : "issue";
  return { triggerEventId: event.id, subjectType, subjectNumber: event.subjectNumber };
}

const slug = (text: string) => text.replace(/[^A-Za-z0-9_-]+/g, "-");

export async function freezePlan(
  db: Db,
  input: { workspaceId: string; runId: string },
): Promise<FrozenPlan> {
  const run = await db.run.findFirst({
    where: { id: input.runId, workspaceId: input.workspaceId },
    include: {
      job: true,
      triggerEvent: { select: { id: true, subjectType: true, subjectNumber: true } },
    },
  });
  if (!run) throw notFound("Run");
  const existing = readPlan(run.plan);
  if (existing) return existing;
  const job = run.job;
  if (job.status !== "APPROVED") {
    const changed = job.status === "NEEDS_APPROVAL";
    await refuse(
      db,
      run,
      changed ? "REQUEST_CHANGED" : "NOT_APPROVED",
      changed
        ? `Job "${job.key}" requests tools that the owner has not approved yet (the request changed at commit ${job.configCommit.slice(0, 12)}); an owner must approve it before it can run.`
        : `Job "${job.key}" is ${job.status.toLowerCase()}; an owner must approve its request before it can run.`,
    );
  }
  // Only a live grant for exactly the job's current request counts (C04).
  const grant = await currentGrant(db, run.workspaceId, job.id, job.requestHash);
  if (!grant) {
    await refuse(
      db,
      run,
      "REQUEST_CHANGED",
      `Job "${job.key}" has no approval for its current tool request; an owner must approve it before it can run.`,
    );
    throw new Error("unreachable");
  }
  const bindings = readBindings(grant.bindings);
  const granted = new Set(grant.tools.map((t) => `${t.connectionId}\n${t.toolName}`));
  const connectionIds = [
    ...new Set(bindings.map((b) => b.connectionId).filter((id): id is string => id !== null)),
  ];
  const connections = await db.connection.findMany({
    where: { workspaceId: run.workspaceId, id: { in: connectionIds }, deletedAt: null },
  });

  const entries: Array<Omit<PlanEntry, "name"> & { prefix: string }> = [];
  const missing: string[] = [];
  for (const group of storedRequest(job.requestedTools)) {
    const key = groupKey(group);
    const connectionId = bindings.find((b) => groupKey(b) === key)?.connectionId ?? null;
    const connection = connections.find((c) => c.id === connectionId);
    const discovered = readDiscoveredTools(connection?.discoveredTools);
    for (const tool of group.tools) {
      const schema = discovered.get(tool);
      const ok =
        connection &&
        schema &&
        connection.allowedTools.includes(tool) &&
        granted.has(`${connection.id}\n${tool}`);
      if (ok) {
        entries.push({
          connectionId: connection.id,
          connectionKind: connection.kind,
          tool,
          inputSchema: schema.inputSchema,
          mayChangeData: schema.mayChangeData,
          prefix: slug(group.label ?? group.kind.toLowerCase()),
        });
      } else if (group.required) {
        missing.push(
          `${group.kind.toLowerCase()}${group.label ? ` "${group.label}"` : ""} tool "${tool}"`,
        );
      }
    }
  }
  if (missing.length > 0) {
    await refuse(
      db,
      run,
      "REQUIRED_TOOL_MISSING",
      `Job "${job.key}" requires tools that are not granted: ${missing.join(", ")}. An owner must allow them on the connection and approve the job again.`,
    );
  }
  const event = planEvent(run.triggerEvent);
  if (run.trigger === "EVENT" && !event)
    await refuse(
      db,
      run,
      "EVENT_MISSING",
      `This run of job "${job.key}" was started by an event whose record is gone; it does not run.`,
    );
  const counts = new Map<string, number>();
  for (const e of entries) counts.set(e.tool, (counts.get(e.tool) ?? 0) + 1);
  const plan: FrozenPlan = {
    version: 1,
    jobId: job.id,
    grantId: grant.id,
    requestHash: job.requestHash,
    frozenAt: new Date().toISOString(),
    tools: entries.map(({ prefix, ...e }) => ({
      // A connection's tool never takes a platform tool's name: the broker routes that name
      // to the platform tool.
      name:
        (counts.get(e.tool) ?? 0) > 1 || PLATFORM_TOOL_NAMES.has(e.tool)
          ? `${prefix}.${e.tool}`
          : e.tool,
      ...e,
    })),
    // The grant is for exactly the job's current request (requestHash), so what it grants is
    // within what the committed file requests.
    outputs: readGrantedOutputs(grant.outputs),
    ...(event ? { event } : {}),
  };
  // Written only while empty: a second caller gets the first plan, never a wider one.
  const written = await db.run.updateMany({
    where: { id: run.id, workspaceId: run.workspaceId, plan: { equals: Prisma.DbNull } },
    data: { plan: plan as unknown as Prisma.InputJsonValue },
  });
  if (written.count === 0) {
    const again = await db.run.findFirst({
      where: { id: run.id, workspaceId: run.workspaceId },
      select: { plan: true },
    });
    const stored = readPlan(again?.plan);
    if (stored) return stored;
  }
  return plan;
}
