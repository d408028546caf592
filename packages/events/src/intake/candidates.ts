// Which jobs a delivery is for (E01): the repository's jobs as the default branch's sync wrote
// them, matched on their stored triggers. Nothing here reads the delivery's own
// `.secondshift.yaml`, and a pull request never starts a sync: a pull request that edits the
// configuration changes nothing about what runs on it.
import type { Db, JobStatus, Prisma } from "@secondshift/db";
import { readRequestedTriggers } from "@secondshift/domain";
import type { Delivery } from "../deliveries/types.ts";
import { appIdentity, type AppIdentity } from "../bots.ts";
import { matchTrigger, type TriggerMatch } from "../match.ts";

type Client = Db | Prisma.TransactionClient;

export interface CandidateJob {
  id: string;
  key: string;
  name: string;
  status: JobStatus;
  enabled: boolean;
  tokenBudget: number | null;
  match: TriggerMatch;
}

export async function matchingJobs(
  db: Client,
  repository: { id: string; workspaceId: string },
  delivery: Delivery,
): Promise<CandidateJob[]> {
  const jobs = await db.job.findMany({
    where: {
      workspaceId: repository.workspaceId,
      repositoryId: repository.id,
      removedAt: null,
      status: { not: "REMOVED" },
    },
    select: {
      id: true,
      key: true,
      name: true,
      status: true,
      enabled: true,
      tokenBudget: true,
      requestedTriggers: true,
    },
    orderBy: { key: "asc" },
  });
  return jobs.flatMap(({ requestedTriggers, ...job }) => {
    const match = matchTrigger(readRequestedTriggers(requestedTriggers), job.key, delivery);
    return match ? [{ ...job, match }] : [];
  });
}

/** Whether a job may start runs on events now: approved, not paused, not removed. */
export const startsRuns = (job: { status: JobStatus; enabled: boolean }): boolean =>
  job.status === "APPROVED" && job.enabled;

/** The workspace's GitHub Apps (deleted connections too: their Apps may still write). */
export async function workspaceApps(db: Client, workspaceId: string): Promise<AppIdentity[]> {
  const connections = await db.connection.findMany({
    where: { workspaceId, kind: "GITHUB", authType: "GITHUB_APP" },
    select: { settings: true },
  });
  return connections.map((c) => appIdentity(c.settings));
}
