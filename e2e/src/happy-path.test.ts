// Scenario 1: a job declared in the repository is approved, fires from its schedule, reads a
// file and runs a command in the sandbox, calls an MCP tool, and finishes; the transcript is
// stored, audit events hold tool and connection only, and the webhook arrives once, signed.
import { startEverything, type RunningServer } from "@secondshift/connectors/testing";
import { SIGNATURE_HEADER, verifySignature } from "@secondshift/webhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lastToolResult } from "./harness/model-server.ts";
import { startPlatform, type Platform } from "./harness/platform.ts";
import { startReceiver } from "./harness/receiver.ts";
import {
  deliveryPassDone,
  everywhere,
  findLeaks,
  fireScheduleNow,
  transcript,
  waitFor,
  waitForFinishedRun,
} from "./harness/scenario.ts";
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
});
afterAll(async () => {
  await p?.close();
  await mcp?.stop();
});

describe("scenario: happy path", () => {
  it("[C14][C20][C29][P03][P08] a scheduled job runs end to end and reports once with a valid signature", async () => {
    const planted = plantedSecrets();
    const receiver = await startReceiver(planted.webhookUrlPath);
    const repo = createRepository({
      ".secondshift.yaml": jobYaml([{ key: "triage", schedule: "0 3 * * *", tools: ["echo"] }]),
      "README.md": "# Acme app\nline two\nline three\n",
    });
    const ws = await seedWorkspace(p, {
      planted,
      mcpUrl: mcp.url,
      repoDir: repo.dir,
      allowedTools: ["echo", "get-sum"],
      webhookUrl: receiver.url,
    });
    await syncAndApprove(p, ws);
    const job = await p.t.db.job.findFirstOrThrow({
      where: { workspaceId: ws.workspaceId, key: "triage" },
    });
    expect(job.status).toBe("APPROVED");

    const echoName = (names: string[]) => names.find((n) => n.endsWith("echo"))!;
    p.model.script([
      () => ({ tool: "read_file", input: { path: "README.md" } }),
      (req) => {
        expect(lastToolResult(req)).toContain("Acme app");
        return {
          tool: "shell",
          input: { command: "echo from-the-sandbox && wc -l README.md && id -u" },
        };
      },
      (req) => {
        expect(lastToolResult(req)).toContain("from-the-sandbox");
        return {
          tool: echoName((req.body.tools ?? []).map((t) => t.name)),
          input: { message: "hello broker" },
        };
      },
      (req) => {
        expect(lastToolResult(req)).toContain("hello broker");
        return { text: "The repository has a three-line README." };
      },
    ]);

    await p.worker.start({ repoSync: false });
    await fireScheduleNow(p, job.id);
    const run = await waitForFinishedRun(p, { jobId: job.id });
    expect(run).toMatchObject({
      status: "SUCCEEDED",
      trigger: "SCHEDULE",
      summary: "The repository has a three-line README.",
    });
    expect(run.commitSha).toMatch(/^[0-9a-f]{40}$/);
    expect(run.tokensUsed).toBeGreaterThan(0);

    // [P03] the run's gateway token expired at the run's deadline and was revoked at its end.
    const tokens = await p.t.db.runToken.findMany({ where: { runId: run.id } });
    expect(tokens).toHaveLength(1);
    expect(run.deadlineAt).not.toBeNull();
    expect(tokens[0]!.expiresAt.getTime()).toBe(run.deadlineAt!.getTime());
    expect(tokens[0]!.revokedAt).not.toBeNull();

    // The transcript: every model turn and tool call, in order.
    const events = await transcript(p, run.id);
    const types = events.map((e) => e.type);
    // The claim's status change opens it, the executor's record of the end closes it.
    expect(events[0]).toMatchObject({ type: "status", payload: { status: "RUNNING" } });
    expect(types[1]).toBe("run_started");
    expect(types.at(-1)).toBe("run_finished");
    expect(types.filter((t) => t === "tool_call")).toHaveLength(3);
    expect(JSON.stringify(events)).toContain("from-the-sandbox");

    // [C14] every model request went through the gateway with the provider key, never the run token.
    expect(p.model.requests.length).toBe(4);
    for (const request of p.model.requests) {
      expect(request.headers["x-api-key"]).toBe(planted.providerKey);
      expect(JSON.stringify(request.headers)).not.toContain("ss_run_");
    }

    // [C29] one audit event for the tool call: tool and connection, nothing of the arguments or result.
    const audits = await p.t.db.auditEvent.findMany({
      where: { workspaceId: ws.workspaceId, action: "tool.call" },
    });
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({
      actorType: "RUN",
      actorId: run.id,
      toolName: "echo",
      connectionId: ws.connectionId,
      outcome: "ok",
    });
    expect(JSON.stringify(audits)).not.toContain("hello broker");

    // [P08] the webhook arrives once, signed over timestamp and body.
    const delivery = await waitFor("the webhook delivery", () =>
      Promise.resolve(receiver.received.length > 0 && receiver.received),
    );
    // Once: the delivery is recorded delivered after one attempt, and a whole delivery pass
    // after that sent nothing more.
    await deliveryPassDone(p);
    expect(await p.t.db.webhookDelivery.findMany({ where: { runId: run.id } })).toMatchObject([
      { status: "DELIVERED", attemptCount: 1 },
    ]);
    expect(receiver.received).toHaveLength(1);
    const [received] = delivery;
    const header = received!.headers[SIGNATURE_HEADER.toLowerCase()] as string;
    expect(verifySignature(header, received!.body, planted.webhookSecret).ok).toBe(true);
    expect(verifySignature(header, received!.body, "wrong-secret").ok).toBe(false);
    const body = JSON.parse(received!.body) as {
      run: { id: string; status: string };
      job: { key: string };
      repository: { fullName: string };
    };
    expect(body).toMatchObject({
      run: { id: run.id, status: "succeeded" },
      job: { key: "triage" },
      repository: { fullName: "acme/app" },
    });

    // No planted secret anywhere it must not be.
    const leaks = findLeaks(await everywhere(p, ws.workspaceId, { webhookBody: received!.body }), {
      providerKey: planted.providerKey,
      mcpCredential: planted.mcpCredential,
      webhookSecret: planted.webhookSecret,
      webhookUrl: planted.webhookUrlPath,
      encryptionKey: p.encryptionKeyB64,
    });
    expect(leaks).toEqual([]);
    await receiver.close();
  });
});
