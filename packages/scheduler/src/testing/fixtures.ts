// Rows for scheduler tests on top of the shared fixture: more repositories, jobs and members.
import { randomUUID } from "node:crypto";
import type { Db, JobStatus, Role } from "@secondshift/db";
import { seedTenant } from "@secondshift/db/testing";

/** A workspace from the shared fixture (its members and repository come with it). */
export async function createWorkspace(db: Db, maxConcurrentRuns = 2): Promise<string> {
  return (await seedTenant(db, { name: "ws", maxConcurrentRuns })).workspaceId;
}

export async function createRepository(db: Db, workspaceId: string): Promise<string> {
  const repo = await db.repository.create({
    data: {
      workspaceId,
      fullName: "acme/app",
      cloneUrl: `https://example.invalid/${randomUUID()}.git`,
    },
  });
  return repo.id;
}

export interface JobFixture {
  workspaceId: string;
  repositoryId: string;
  schedule?: string | null;
  timezone?: string;
  status?: JobStatus;
  enabled?: boolean;
}

export async function createJob(db: Db, input: JobFixture): Promise<string> {
  const key = `job-${randomUUID().slice(0, 8)}`;
  const job = await db.job.create({
    data: {
      workspaceId: input.workspaceId,
      repositoryId: input.repositoryId,
      key,
      name: key,
      prompt: "Do the thing.",
      schedule: input.schedule === undefined ? "0 9 * * *" : input.schedule,
      timezone: input.timezone ?? "UTC",
      tokenBudget: 10_000,
      timeoutSeconds: 60,
      requestedTools: [],
      requestHash: "h",
      status: input.status ?? "APPROVED",
      enabled: input.enabled ?? true,
      configCommit: "0".repeat(40),
    },
  });
  return job.id;
}

export async function createMember(db: Db, workspaceId: string, role: Role): Promise<string> {
  const user = await db.user.create({
    data: { email: `${randomUUID()}@example.invalid`, name: role, passwordHash: "x" },
  });
  await db.membership.create({ data: { workspaceId, userId: user.id, role } });
  return user.id;
}
