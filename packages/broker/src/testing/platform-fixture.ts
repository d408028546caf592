// The platform tool tests' fixture: a tenant with one MCP connection, a broker over the test
// database, and `startRun(key, outputs, tools?, event?)`: an approved job's RUNNING run with its
// frozen plan granting `outputs` — started by a GitHub event (a TriggerEvent row) when `event`
// is given, as the intake would have recorded it.
import { approveJob } from "@secondshift/domain";
import { upsertJobsFromConfig } from "@secondshift/repo-sync";
import {
  createRun,
  job,
  seedConnection,
  seedTenant,
  testKeyring,
  tool,
} from "@secondshift/domain/testing";
import type { Db, Prisma } from "@secondshift/db";
import { dbTest } from "@secondshift/db/testing/vitest";
import { createLogger, createMemorySink, SecretMasker } from "@secondshift/logging";
import type { GrantedOutputs } from "@secondshift/vocabulary";
import { createBroker, type BrokerRun } from "../broker.ts";
import { freezePlan } from "../plan.ts";
import { fakeConnector } from "./fake-connector.ts";

const keyring = testKeyring();
export const mcp = fakeConnector("MCP", () => ({ content: [], isError: false, truncated: false }));
const limits = { timeoutMs: 300, maxResultBytes: 4096, maxStringLength: 70_000, maxArrayItems: 5 };

/** The event a run was started by: the TriggerEvent's columns a test cares about. */
export interface SeedEvent {
  subjectType: "issue" | "pull_request";
  subjectNumber: number;
  body?: string | null;
  commentBody?: string | null;
}

async function recordEvent(
  db: Db,
  run: { workspaceId: string; jobId: string; runId: string },
  event: SeedEvent,
) {
  await db.run.update({ where: { id: run.runId }, data: { trigger: "EVENT" } });
  await db.triggerEvent.create({
    data: {
      workspaceId: run.workspaceId,
      jobId: run.jobId,
      runId: run.runId,
      deliveryId: `delivery-${run.runId}`,
      kind: event.commentBody ? "comment_command" : event.subjectType,
      action: event.commentBody ? "created" : "opened",
      subjectType: event.subjectType,
      subjectNumber: event.subjectNumber,
      subjectTitle: "A title",
      subjectUrl: `https://github.com/acme/app/issues/${event.subjectNumber}`,
      subjectAuthor: "octocat",
      actorLogin: "octocat",
      body: event.body ?? null,
      commentBody: event.commentBody ?? null,
      dedupeKey: `key-${run.runId}`,
      outcome: "queued",
    },
  });
}

export const platformTest = dbTest
  .extend("tenant", { scope: "file" }, async ({ db }) => {
    const tenant = await seedTenant(db);
    await seedConnection(db, keyring, tenant, {
      kind: "MCP",
      label: "docs",
      tools: [
        tool("search", false),
        tool("secondshift_propose_comment", true),
        tool("secondshift_event_text", false),
      ],
      allowed: ["search", "secondshift_propose_comment", "secondshift_event_text"],
    });
    return tenant;
  })
  .extend("broker", { scope: "file" }, ({ testDatabase }) =>
    createBroker({
      db: testDatabase.db,
      pool: testDatabase.pool,
      keyring,
      connectors: { MCP: mcp.connector },
      logger: createLogger({ name: "t", destination: createMemorySink().stream }),
      masker: new SecretMasker(),
      limits,
    }),
  )
  .extend(
    "startRun",
    { scope: "file" },
    ({ db, tenant }) =>
      async (
        key: string,
        outputs: GrantedOutputs,
        tools = ["search"],
        event?: SeedEvent,
      ): Promise<BrokerRun> => {
        const { jobs } = await upsertJobsFromConfig(db, {
          workspaceId: tenant.workspaceId,
          repositoryId: tenant.repositoryId,
          commit: "c1",
          jobs: [job(key, [{ kind: "MCP", label: "docs", required: true, tools }])],
        });
        const jobId = jobs[0]!.jobId;
        const row = await db.job.findUniqueOrThrow({ where: { id: jobId } });
        const connection = await db.connection.findFirstOrThrow({
          where: { workspaceId: tenant.workspaceId, label: "docs" },
        });
        await approveJob(
          { db, actor: { userId: tenant.ownerId }, workspaceId: tenant.workspaceId },
          { jobId, requestHash: row.requestHash, bindings: { "MCP:docs": connection.id } },
        );
        const runId = await createRun(db, tenant.workspaceId, jobId);
        if (event) await recordEvent(db, { workspaceId: tenant.workspaceId, jobId, runId }, event);
        const plan = await freezePlan(db, { workspaceId: tenant.workspaceId, runId });
        // The grant's outputs as the frozen plan carries them (the grant flow is another change).
        await db.run.update({
          where: { id: runId },
          data: { plan: { ...plan, outputs } as unknown as Prisma.InputJsonValue },
        });
        return {
          id: runId,
          workspaceId: tenant.workspaceId,
          jobId,
          repositoryFullName: "acme/app",
        };
      },
  );
