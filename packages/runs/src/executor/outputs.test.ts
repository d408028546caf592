import { Readable } from "node:stream";
import type { RunAgentOptions } from "@secondshift/agent";
import type { Db, Prisma } from "@secondshift/db";
import { dbTest } from "@secondshift/db/testing/vitest";
import { createLogger, createMemorySink, SecretMasker } from "@secondshift/logging";
import type { GrantedOutputs } from "@secondshift/vocabulary";
import { describe, expect } from "vitest";
import { executeRun } from "../executor.ts";
import type { RunExecutorDeps } from "../ports.ts";
import { quietSandbox, seedRunningRun } from "../testing/fixtures.ts";

const PLANTED = "planted-run-credential-91ab";
const usage = { inputTokens: 1, outputTokens: 1 };

const sandbox = quietSandbox;

/** A run whose frozen plan grants comments, and a broker whose proposal tool stores the row. */
async function setUp(db: Db, mode: "hold" | "auto", body: string) {
  const { run } = await seedRunningRun(db);
  const outputs: GrantedOutputs = { comment: { max: 3, target: "any", mode } };
  const row = await db.run.update({
    where: { id: run.id },
    data: {
      plan: {
        version: 1,
        jobId: "j",
        grantId: "g",
        tools: [],
        outputs,
      } as unknown as Prisma.InputJsonValue,
    },
  });
  const enqueued: Array<{ outputId: string; runStatus: string | undefined }> = [];
  const masker = new SecretMasker();
  const offered: string[] = [];
  const deps: RunExecutorDeps & { masker: SecretMasker } = {
    db,
    logger: createLogger({ name: "t", destination: createMemorySink().stream, masker }),
    masker,
    workerId: "w1",
    gatewayUrl: "http://127.0.0.1:9",
    sandboxes: { create: () => Promise.resolve(sandbox) },
    source: {
      checkout: () =>
        Promise.resolve({
          commit: "abc123",
          archive: () => Promise.resolve(Readable.from(["tree"])),
          cleanup: () => Promise.resolve(),
        }),
    },
    broker: {
      platformTools: () =>
        Promise.resolve([
          { name: "secondshift_propose_comment", description: "", inputSchema: {} },
        ]),
      call: async (_run, toolName, args) => {
        expect(toolName).toBe("secondshift_propose_comment");
        await db.runOutput.create({
          data: {
            workspaceId: row.workspaceId,
            runId: row.id,
            jobId: row.jobId,
            seq: 0,
            kind: "comment",
            payload: args as Prisma.InputJsonValue,
          },
        });
        return { content: [{ type: "text", text: "proposed" }], isError: false, truncated: false };
      },
    },
    freezePlan: () => Promise.resolve({ tools: [] }),
    enqueueReports: () => Promise.resolve(),
    enqueueOutputApply: async ({ outputId }) => {
      const status = (await db.run.findUnique({ where: { id: row.id } }))?.status;
      enqueued.push({ outputId, runStatus: status });
    },
    limits: { stopPollMs: 100, heartbeatMs: 200 },
    runAgent: async (o: RunAgentOptions) => {
      offered.push(...(o.platformTools ?? []).map((t) => t.name));
      o.masker.add(PLANTED); // a credential the broker opened for this run
      await o.broker.call("secondshift_propose_comment", { number: 4, body });
      return { outcome: "succeeded", summary: "Proposed.", usage };
    },
  };
  return { run, deps, enqueued, offered };
}

const test = dbTest;

describe("run executor: proposed outputs", () => {
  test("[O01] auto mode: the output is READY and enqueued only after the run is final", async ({
    db,
  }) => {
    const { run, deps, enqueued, offered } = await setUp(db, "auto", "Found it.");
    expect((await executeRun(deps, run.id)).status).toBe("SUCCEEDED");
    expect(offered).toEqual(["secondshift_propose_comment"]);
    const [output] = await db.runOutput.findMany({ where: { runId: run.id } });
    expect(output?.state).toBe("READY");
    expect(enqueued).toEqual([{ outputId: output!.id, runStatus: "SUCCEEDED" }]);
  });

  test("[O01] hold mode: the run ends with a HELD output and nothing is enqueued", async ({
    db,
  }) => {
    const { run, deps, enqueued } = await setUp(db, "hold", "Found it.");
    expect((await executeRun(deps, run.id)).status).toBe("SUCCEEDED");
    const [output] = await db.runOutput.findMany({ where: { runId: run.id } });
    expect(output?.state).toBe("HELD");
    expect(output?.checkedAt).not.toBeNull();
    expect(enqueued).toEqual([]);
  });

  test("[O05] a secret the run knows in a comment body is refused while the run's secrets are still known", async ({
    db,
  }) => {
    const { run, deps, enqueued } = await setUp(db, "auto", `token: ${PLANTED}`);
    await executeRun(deps, run.id);
    const [output] = await db.runOutput.findMany({ where: { runId: run.id } });
    expect(output?.state).toBe("REFUSED");
    expect(output?.reason).toContain("a secret value known to this run");
    expect(output?.reason).not.toContain(PLANTED);
    expect(enqueued).toEqual([]);
  });
});
