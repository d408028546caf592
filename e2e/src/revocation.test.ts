// Scenarios 3 and 5: access taken away while a run is going (a revoked grant, a deleted
// connection) ends it at its next tool call as revoked, with its token revoked, its sandbox
// destroyed and its report enqueued; and a repository change that requests a new tool stops
// the job's scheduled runs until an owner approves it again.
import { approveJob, deleteConnection, revokeGrant, runNow } from "@secondshift/domain";
import { startEverything, type RunningServer } from "@secondshift/connectors/testing";
import { isAppError } from "@secondshift/errors";
import { syncRepository } from "@secondshift/repo-sync";
import { handleFire, schedulerIdForJob, syncSchedules } from "@secondshift/scheduler";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { actAs } from "./harness/actor.ts";
import { containersCreatedFor, runContainers } from "./harness/containers.ts";
import { lastToolResult, type ModelRequest } from "./harness/model-server.ts";
import { startPlatform, type Platform } from "./harness/platform.ts";
import { startReceiver } from "./harness/receiver.ts";
import { transcript, waitFor } from "./harness/scenario.ts";
import { waitForRunEnd } from "./harness/run-end.ts";
import {
  createRepository,
  jobYaml,
  plantedSecrets,
  seedWorkspace,
  syncAndApprove,
  type SeededWorkspace,
} from "./harness/seed.ts";

let p: Platform;
let mcp: RunningServer;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
const planted = plantedSecrets();
beforeAll(async () => {
  p = await startPlatform();
  mcp = await startEverything("streamableHttp");
  receiver = await startReceiver(planted.webhookUrlPath);
  await p.worker.start({ repoSync: false });
});
afterAll(async () => {
  await receiver?.close();
  await p?.close();
  await mcp?.stop();
});

const toolName = (req: ModelRequest, suffix: string) =>
  (req.body.tools ?? []).map((t) => t.name).find((n) => n.endsWith(suffix))!;

async function setup(yaml: string, tools = ["echo", "get-sum"]) {
  const repo = createRepository({ ".secondshift.yaml": yaml, "README.md": "# app\n" });
  const ws = await seedWorkspace(p, {
    planted,
    mcpUrl: mcp.url,
    repoDir: repo.dir,
    allowedTools: tools,
    webhookUrl: receiver.url,
  });
  await syncAndApprove(p, ws);
  const job = await p.t.db.job.findFirstOrThrow({ where: { workspaceId: ws.workspaceId } });
  return { repo, ws, job };
}

/** Runs the job with a script whose second model turn first takes access away, then calls echo again. */
async function runWithMidRunChange(
  takeAway: (ws: SeededWorkspace, jobId: string) => Promise<void>,
  expectedReason: string,
) {
  const { ws, job } = await setup(jobYaml([{ key: "revoke", tools: ["echo"] }]));
  const started = new Date();
  const seen: string[] = [];
  p.model.script([
    (req) => ({ tool: toolName(req, "echo"), input: { message: "first call" } }),
    async (req) => {
      seen.push(lastToolResult(req));
      await takeAway(ws, job.id);
      return { tool: toolName(req, "echo"), input: { message: "second call" } };
    },
    () => ({ text: "must never be asked" }),
  ]);
  const before = p.model.requests.length;
  const { runId } = await runNow(actAs(p, ws.workspaceId, ws.adminId), { jobId: job.id });
  const run = await waitForRunEnd(p, runId);

  expect(seen[0]).toContain("first call");
  expect(run.status).toBe("REVOKED");
  expect(run.finishedAt).not.toBeNull();
  expect(run.summary).toBeNull();
  // The refused call was the run's last model-visible step: no third model request.
  expect(p.model.requests.length - before).toBe(2);
  const audits = await p.t.db.auditEvent.findMany({
    where: { workspaceId: ws.workspaceId, action: "tool.call" },
    orderBy: { createdAt: "asc" },
  });
  expect(audits.map((a) => [a.toolName, a.outcome])).toEqual([
    ["echo", "ok"],
    ["echo", expectedReason],
  ]);
  const events = await transcript(p, runId);
  expect(events.filter((e) => e.type === "tool_result")).toHaveLength(1);
  expect(events.at(-1)).toMatchObject({ type: "run_finished", payload: { status: "REVOKED" } });
  // Token revoked, sandbox destroyed (it did exist), report enqueued and delivered.
  const tokens = await p.t.db.runToken.findMany({ where: { runId } });
  expect(tokens.length).toBeGreaterThan(0);
  expect(tokens.every((t) => t.revokedAt !== null)).toBe(true);
  expect(await containersCreatedFor(runId, started)).toBe(1);
  expect(await runContainers(runId)).toEqual([]);
  const body = await waitFor("the revoked run's report", () =>
    Promise.resolve(receiver.received.find((r) => r.body.includes(runId))?.body),
  );
  expect(JSON.parse(body)).toMatchObject({ run: { id: runId, status: "revoked" } });
  expect(await p.t.db.webhookDelivery.count({ where: { runId } })).toBe(1);
}

describe("scenario: access taken away", () => {
  it("[C06] revoking the grant mid-run fails the run at the next tool call", async () => {
    await runWithMidRunChange(async (ws, jobId) => {
      const grant = await p.t.db.grant.findFirstOrThrow({ where: { jobId, revokedAt: null } });
      await revokeGrant(actAs(p, ws.workspaceId, ws.ownerId), {
        grantId: grant.id,
      });
    }, "GRANT_REVOKED");
  });

  it("[C06] deleting the connection mid-run fails the run at the next tool call", async () => {
    await runWithMidRunChange(async (ws) => {
      await deleteConnection(actAs(p, ws.workspaceId, ws.ownerId), {
        connectionId: ws.connectionId,
      });
      // Deleting a connection revokes the grants that use it, so that is what the call meets.
    }, "GRANT_REVOKED");
  });

  it("[C04] a repository change that requests a new tool stops scheduled runs until re-approved", async () => {
    const { repo, ws, job } = await setup(
      jobYaml([{ key: "nightly", schedule: "0 3 * * *", tools: ["echo"] }]),
    );
    const schedulerId = schedulerIdForJob(job.id);
    const schedulerIds = async () =>
      (await p.worker.scheduleQueue.getJobSchedulers(0, -1)).map((s) => s.key);
    await syncSchedules(p.t.db, p.worker.scheduleQueue, { workspaceId: ws.workspaceId });
    expect(await schedulerIds()).toContain(schedulerId);

    // A merged change asks for one more tool: it can only request it.
    repo.commit(
      {
        ".secondshift.yaml": jobYaml([
          { key: "nightly", schedule: "0 3 * * *", tools: ["echo", "get-sum"] },
        ]),
      },
      "request get-sum",
    );
    const synced = await syncRepository(p.t.db, p.worker.syncDeps, {
      workspaceId: ws.workspaceId,
      repositoryId: ws.repositoryId,
    });
    expect(synced.status).toBe("synced");
    const changed = await p.t.db.job.findUniqueOrThrow({ where: { id: job.id } });
    expect(changed.status).toBe("NEEDS_APPROVAL");
    expect(changed.requestHash).not.toBe(job.requestHash);

    const converged = await syncSchedules(p.t.db, p.worker.scheduleQueue, {
      workspaceId: ws.workspaceId,
    });
    expect([...converged.unchanged, ...converged.created, ...converged.updated]).not.toContain(
      job.id,
    );
    expect(await schedulerIds()).not.toContain(schedulerId);
    const pending = await p.worker.scheduleQueue.getDelayed();
    expect(pending.filter((j) => JSON.stringify(j.data).includes(job.id))).toEqual([]);
    const refused = await runNow(actAs(p, ws.workspaceId, ws.adminId), { jobId: job.id }).catch(
      (e: unknown) => e,
    );
    expect(isAppError(refused) && refused.code).toBe("PRECONDITION_FAILED");
    // A fire the scheduler had already queued before it was removed is skipped, and recorded.
    const fire = await handleFire(p.t.db, p.worker.runQueue, {
      workspaceId: ws.workspaceId,
      jobId: job.id,
      scheduledFor: new Date(),
    });
    expect(fire).toEqual({ outcome: "skipped", reason: "job_not_schedulable" });
    expect(await p.t.db.run.count({ where: { jobId: job.id } })).toBe(0);
    expect(
      await p.t.db.auditEvent.count({
        where: { workspaceId: ws.workspaceId, action: "schedule.skipped", targetId: job.id },
      }),
    ).toBe(1);

    // The owner approves the new request: the schedule is back and a run may use the new tool.
    await approveJob(actAs(p, ws.workspaceId, ws.ownerId), {
      jobId: job.id,
      requestHash: changed.requestHash,
      bindings: { "MCP:everything": ws.connectionId },
    });
    await syncSchedules(p.t.db, p.worker.scheduleQueue, { workspaceId: ws.workspaceId });
    expect(await schedulerIds()).toContain(schedulerId);
    p.model.script([
      (req) => ({ tool: toolName(req, "get-sum"), input: { a: 2, b: 3 } }),
      (req) => ({ text: `sum: ${lastToolResult(req).includes("5") ? "five" : "wrong"}` }),
    ]);
    const { runId } = await runNow(actAs(p, ws.workspaceId, ws.adminId), { jobId: job.id });
    const run = await waitForRunEnd(p, runId);
    expect(run).toMatchObject({ error: null, status: "SUCCEEDED", summary: "sum: five" });
    const audit = await p.t.db.auditEvent.findFirst({
      where: { workspaceId: ws.workspaceId, action: "tool.call", actorId: runId },
    });
    expect(audit).toMatchObject({ toolName: "get-sum", outcome: "ok" });
  });

  it("[C06] the reaper removes the sandbox of a run that is over, but not one whose run this database does not know", async () => {
    const { ws, job } = await setup(jobYaml([{ key: "reaped", tools: ["echo"] }]));
    const deadline = new Date(Date.now() + 10 * 60_000);
    const over = await p.t.db.run.create({
      data: {
        workspaceId: ws.workspaceId,
        jobId: job.id,
        status: "REVOKED",
        trigger: "MANUAL",
        budgetTokens: 1000,
        finishedAt: new Date(),
      },
    });
    const foreignRunId = randomUUID();
    const mine = await p.worker.sandboxes.create({
      runId: over.id,
      workspaceId: ws.workspaceId,
      deadline,
    });
    const foreign = await p.worker.sandboxes.create({
      runId: foreignRunId,
      workspaceId: ws.workspaceId,
      deadline,
    });
    try {
      // The worker's own reaper also runs every second: either pass may take the finished run's sandbox.
      expect(await p.worker.reaper.reapOnce()).not.toContain(foreign.id);
      await waitFor(
        "the finished run's sandbox to be reaped",
        async () => (await runContainers(over.id)).length === 0,
      );
      // A whole reaper pass after the finished run's sandbox is gone (the worker's own passes
      // are this reaper too) keeps the unknown run's sandbox.
      expect(await p.worker.reaper.reapOnce()).not.toContain(foreign.id);
      // Another installation (or test) on the same Docker engine keeps its sandbox until its deadline.
      expect(await runContainers(foreignRunId)).toHaveLength(1);
    } finally {
      await foreign.destroy();
      await mine.destroy().catch(() => undefined);
    }
  });
});
