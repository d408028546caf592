// Repository sync writes the jobs a committed `.secondshift.yaml` declares. It runs as the
// system, not as a user: the repository only requests, so this function can never approve —
// a new or changed request always lands in NEEDS_APPROVAL, and only an unchanged request keeps
// its earlier decision.
import type { RepoJob } from "@secondshift/config";
import type { Db, JobStatus, Prisma } from "@secondshift/db";
import type { AuditAction } from "@secondshift/vocabulary";
import {
  normaliseRequest,
  notFound,
  readRequestedOutputs,
  readRequestedTriggers,
  recordAudit,
  requestHash,
  SYSTEM_REPO_SYNC,
} from "@secondshift/domain";

/** A parsed job whose promptFile the worker has already read from the commit. */
export type SyncedJob = Omit<RepoJob, "prompt" | "promptFile" | "outputs" | "triggers"> & {
  prompt: string;
  /** Absent: the job requests no outputs (as a file without `outputs:`). */
  outputs?: RepoJob["outputs"];
  /** Absent: the job requests no triggers (as a file without `on:`). */
  triggers?: RepoJob["triggers"];
};

export type SyncChange = "created" | "request_changed" | "updated" | "restored" | "removed";

export interface UpsertJobsInput {
  workspaceId: string;
  repositoryId: string;
  commit: string;
  jobs: readonly SyncedJob[];
}

export interface UpsertJobsResult {
  jobs: Array<{ key: string; jobId: string; status: JobStatus; change: SyncChange }>;
}

export async function upsertJobsFromConfig(
  db: Db,
  input: UpsertJobsInput,
): Promise<UpsertJobsResult> {
  const { workspaceId, repositoryId, commit } = input;
  return db.$transaction(async (tx) => {
    const repository = await tx.repository.findFirst({
      where: { id: repositoryId, workspaceId },
      select: { id: true },
    });
    if (!repository) throw notFound("Repository");
    const existing = await tx.job.findMany({ where: { workspaceId, repositoryId } });
    const byKey = new Map(existing.map((j) => [j.key, j]));
    const result: UpsertJobsResult["jobs"] = [];
    // The job's name as this sync knows it: the file's name, or the last one for a removal.
    const audit = (action: AuditAction, jobId: string, name: string) =>
      recordAudit(tx, {
        workspaceId,
        actorType: "SYSTEM",
        actorId: SYSTEM_REPO_SYNC,
        action,
        targetType: "Job",
        targetId: jobId,
        targetLabel: name,
      });

    for (const job of input.jobs) {
      const requestedTools = normaliseRequest(job.tools);
      // A change of outputs is a request change like a change of tools: NEEDS_APPROVAL again.
      const requestedOutputs = readRequestedOutputs(job.outputs ?? {});
      // So is a change of triggers (`on:`): adding, widening or narrowing one. Requests only in
      // this version (issue #25 item 2): no event starts a run yet.
      const requestedTriggers = readRequestedTriggers(job.triggers ?? {});
      const hash = requestHash(requestedTools, requestedOutputs, requestedTriggers);
      const fields = {
        name: job.name,
        description: job.description,
        prompt: job.prompt,
        schedule: job.schedule,
        timezone: job.timezone,
        model: job.model,
        tokenBudget: job.tokenBudget,
        timeoutSeconds: job.timeoutSeconds,
        requestedTools: requestedTools as unknown as Prisma.InputJsonValue,
        requestedOutputs: requestedOutputs as unknown as Prisma.InputJsonValue,
        requestedTriggers: requestedTriggers as unknown as Prisma.InputJsonValue,
        requestHash: hash,
        configCommit: commit,
      };
      const previous = byKey.get(job.key);
      if (!previous) {
        const created = await tx.job.create({
          data: { workspaceId, repositoryId, key: job.key, ...fields, status: "NEEDS_APPROVAL" },
        });
        await audit("job.created", created.id, job.name);
        result.push({ key: job.key, jobId: created.id, status: created.status, change: "created" });
        continue;
      }
      byKey.delete(job.key);
      let status: JobStatus = previous.status;
      let change: SyncChange = "updated";
      if (previous.requestHash !== hash) {
        status = "NEEDS_APPROVAL";
        change = "request_changed";
      } else if (previous.status === "REMOVED") {
        // Back in the file with the same request: an owner's grant for exactly it still counts.
        const grant = await tx.grant.findFirst({
          where: { workspaceId, jobId: previous.id, revokedAt: null, requestHash: hash },
        });
        status = grant ? "APPROVED" : "NEEDS_APPROVAL";
        change = "restored";
      }
      await tx.job.update({
        where: { id: previous.id },
        data: { ...fields, status, removedAt: null },
      });
      if (change !== "updated") await audit(`job.${change}` as const, previous.id, job.name);
      result.push({ key: job.key, jobId: previous.id, status, change });
    }

    for (const gone of byKey.values()) {
      if (gone.status === "REMOVED") continue;
      await tx.job.update({
        where: { id: gone.id },
        data: { status: "REMOVED", removedAt: new Date(), configCommit: commit },
      });
      await audit("job.removed", gone.id, gone.name);
      result.push({ key: gone.key, jobId: gone.id, status: "REMOVED", change: "removed" });
    }
    return { jobs: result };
  });
}
