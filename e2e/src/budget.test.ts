// Scenario 4 and a start-time refusal: a run whose model reports more usage than its budget is
// cut off by the gateway and ends as budget_exhausted, with nothing more reaching the provider;
// and a run whose required tool is no longer allowed fails before any sandbox or model request.
import { runNow, setAllowedTools } from "@secondshift/domain";
import { startEverything, type RunningServer } from "@secondshift/connectors/testing";
import { issueRunToken } from "@secondshift/runs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { actAs } from "./harness/actor.ts";
import { containersCreatedFor, runContainers } from "./harness/containers.ts";
import { startPlatform, type Platform } from "./harness/platform.ts";
import { transcript } from "./harness/scenario.ts";
import { waitForRunEnd } from "./harness/run-end.ts";
import {
  createRepository,
  jobYaml,
  plantedSecrets,
  seedWorkspace,
  syncAndApprove,
} from "./harness/seed.ts";

let p: Platform;
let mcp: RunningServer;
beforeAll(async () => {
  p = await startPlatform();
  mcp = await startEverything("streamableHttp");
  await p.worker.start({ repoSync: false });
});
afterAll(async () => {
  await p?.close();
  await mcp?.stop();
});

async function setup(job: { key: string; tools?: string[]; budget?: number }) {
  const repo = createRepository({ ".secondshift.yaml": jobYaml([job]), "README.md": "# app\n" });
  const ws = await seedWorkspace(p, {
    planted: plantedSecrets(),
    mcpUrl: mcp.url,
    repoDir: repo.dir,
    allowedTools: ["echo", "get-sum"],
  });
  await syncAndApprove(p, ws);
  return {
    ws,
    job: await p.t.db.job.findFirstOrThrow({
      where: { workspaceId: ws.workspaceId, key: job.key },
    }),
  };
}

async function gatewayStatus(token: string): Promise<number> {
  const res = await fetch(`${p.gatewayUrl}/v1/messages`, {
    method: "POST",
    headers: {
      "x-api-key": token,
      "content-type": "application/json",
      "anthropic-version": "2023-06-01",
    },
    body: JSON.stringify({
      model: "claude-test",
      max_tokens: 10,
      messages: [{ role: "user", content: "hi" }],
    }),
  });
  await res.arrayBuffer();
  return res.status;
}

describe("scenario: budget and start-time refusal", () => {
  it("[C17] budget exhaustion ends the run as budget_exhausted", async () => {
    // Big enough for the first request's input estimate (the system section and tool list),
    // small enough that the provider's reported usage for that one turn uses it all.
    const budget = 5000;
    const { ws, job } = await setup({ key: "spender", tools: ["echo"], budget });
    expect(job.tokenBudget).toBe(budget);
    let midRunToken = "";
    p.model.script([
      async () => {
        const run = await p.t.db.run.findFirstOrThrow({
          where: { jobId: job.id, status: "RUNNING" },
        });
        midRunToken = await issueRunToken(p.t.db, run, new Date(Date.now() + 10 * 60_000));
        return {
          tool: "shell",
          input: { command: "echo spending" },
          usage: { input: 4000, output: 1500 },
        };
      },
      () => ({ text: "must never be asked", usage: { input: 1, output: 1 } }),
    ]);
    const before = p.model.requests.length;
    const { runId } = await runNow(actAs(p, ws.workspaceId, ws.adminId), { jobId: job.id });
    const run = await waitForRunEnd(p, runId);

    expect(run.status).toBe("BUDGET_EXHAUSTED");
    expect(run.finishedAt).not.toBeNull();
    expect(run.budgetTokens).toBe(budget);
    expect(run.tokensUsed).toBe(5500);
    expect(run.tokensReserved).toBe(0);
    expect(run.summary).toBeNull();
    // Exactly one request reached the provider; the agent's next one was refused at the gateway.
    expect(p.model.requests.length - before).toBe(1);
    const events = await transcript(p, runId);
    // The shell call may finish (then the next model request gets 402) or be cut short by the
    // worker noticing the gateway ended the run; either way the run says why it ended.
    expect(events.filter((e) => e.type === "tool_result").length).toBeLessThanOrEqual(1);
    expect(run.error).toMatch(/token budget/);
    expect(events.some((e) => e.type === "final_answer")).toBe(false);
    expect(events.at(-1)).toMatchObject({
      type: "run_finished",
      payload: { status: "BUDGET_EXHAUSTED" },
    });
    // Every token of the run is revoked; a later request with one says the budget is spent.
    const tokens = await p.t.db.runToken.findMany({ where: { runId } });
    expect(tokens.length).toBe(2);
    expect(tokens.every((t) => t.revokedAt !== null)).toBe(true);
    expect(await gatewayStatus(midRunToken)).toBe(402);
    expect(p.model.requests.length - before).toBe(1);
    expect(await runContainers(runId)).toEqual([]);
  });

  it("[C17] a run whose first request cannot fit its budget never reaches the provider", async () => {
    const { ws, job } = await setup({ key: "tiny", tools: ["echo"], budget: 1000 });
    p.model.script([() => ({ text: "must never be asked" })]);
    const before = p.model.requests.length;
    const { runId } = await runNow(actAs(p, ws.workspaceId, ws.adminId), { jobId: job.id });
    const run = await waitForRunEnd(p, runId);
    expect(run).toMatchObject({ status: "BUDGET_EXHAUSTED", tokensUsed: 0, tokensReserved: 0 });
    expect(run.finishedAt).not.toBeNull();
    expect(p.model.requests.length - before).toBe(0);
    expect(
      (await p.t.db.runToken.findMany({ where: { runId } })).every((t) => t.revokedAt !== null),
    ).toBe(true);
  });

  it("[C05] a run whose required tool is not granted fails before it starts, naming the tool", async () => {
    const { ws, job } = await setup({ key: "needs-echo", tools: ["echo"] });
    expect(job.status).toBe("APPROVED");
    // After approval the owner stops allowing echo on the connection.
    await setAllowedTools(actAs(p, ws.workspaceId, ws.ownerId), {
      connectionId: ws.connectionId,
      tools: ["get-sum"],
    });
    p.model.script([() => ({ text: "must never be asked" })]);
    const before = p.model.requests.length;
    const started = new Date();
    const { runId } = await runNow(actAs(p, ws.workspaceId, ws.adminId), { jobId: job.id });
    const run = await waitForRunEnd(p, runId);

    expect(run.status).toBe("FAILED");
    expect(run.error).toContain('tool "echo"');
    expect(run.error).toMatch(/requires tools that are not granted/);
    expect(run.plan).toBeNull();
    expect(p.model.requests.length - before).toBe(0);
    expect(await containersCreatedFor(runId, started)).toBe(0);
    expect(await runContainers(runId)).toEqual([]);
    expect(p.logs()).not.toMatch(
      new RegExp(`"sandbox.created"[^\\n]*${runId}|${runId}[^\\n]*"sandbox.created"`),
    );
    const refusal = await p.t.db.auditEvent.findFirst({
      where: { workspaceId: ws.workspaceId, action: "run.plan_refused", targetId: runId },
    });
    expect(refusal).toMatchObject({ outcome: "REQUIRED_TOOL_MISSING" });
    expect(
      (await p.t.db.runToken.findMany({ where: { runId } })).every((t) => t.revokedAt !== null),
    ).toBe(true);
    expect(
      await p.t.db.auditEvent.count({
        where: { workspaceId: ws.workspaceId, action: "tool.call" },
      }),
    ).toBe(0);
  });
});
