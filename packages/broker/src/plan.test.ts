import { dbTest } from "@secondshift/db/testing/vitest";
import { isAppError } from "@secondshift/errors";
import { describe, expect } from "vitest";
import { approveJob, setAllowedTools } from "@secondshift/domain";
import { upsertJobsFromConfig } from "@secondshift/repo-sync";
import {
  createRun,
  job,
  seedConnection,
  seedTenant,
  testKeyring,
  tool,
} from "@secondshift/domain/testing";
import { freezePlan } from "./plan.ts";

const keyring = testKeyring();

const test = dbTest
  /** acme, with two MCP connections: docs (search and write allowed, fetch not) and wiki. */
  .extend("acme", { scope: "file" }, async ({ db }) => {
    const a = await seedTenant(db);
    const schema = { type: "object", properties: { q: { type: "string" } }, required: ["q"] };
    const docs = await seedConnection(db, keyring, a, {
      kind: "MCP",
      label: "docs",
      tools: [tool("search", false, schema), tool("write", true), tool("fetch")],
      allowed: ["search", "write"],
    });
    const wiki = await seedConnection(db, keyring, a, {
      kind: "MCP",
      label: "wiki",
      tools: [tool("search")],
      allowed: ["search"],
    });
    return { a, docs, wiki };
  })
  .extend("owner", ({ db, acme: { a } }) => () => ({
    db,
    actor: { userId: a.ownerId },
    workspaceId: a.workspaceId,
  }))
  /** A synced job the owner approved, each labelled MCP group bound to its connection. */
  .extend(
    "approved",
    ({ db, acme: { a, docs, wiki }, owner }) =>
      async (key: string, tools: Parameters<typeof job>[1], narrow?: Record<string, string[]>) => {
        const { jobs } = await upsertJobsFromConfig(db, {
          workspaceId: a.workspaceId,
          repositoryId: a.repositoryId,
          commit: "c1",
          jobs: [job(key, tools)],
        });
        const jobId = jobs[0]!.jobId;
        const row = await db.job.findUniqueOrThrow({ where: { id: jobId } });
        // The owner binds each labelled MCP group to the connection of that label (C01: the label
        // alone binds nothing when several connections of the kind exist).
        const byLabel: Record<string, string> = { docs, wiki };
        const bindings: Record<string, string> = {};
        for (const g of tools) {
          const id = g.kind === "MCP" && g.label ? byLabel[g.label] : undefined;
          if (id) bindings[`MCP:${g.label}`] = id;
        }
        await approveJob(owner(), {
          jobId,
          requestHash: row.requestHash,
          bindings,
          ...(narrow ? { tools: narrow } : {}),
        });
        return jobId;
      },
  );

const failure = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) =>
      isAppError(e)
        ? { reason: e.reason, message: e.message }
        : { reason: "?", message: String(e) },
  );

describe("freezePlan", () => {
  test("[C03] holds requested ∩ allowed on the connection ∩ approved, with schemas snapshotted", async ({
    db,
    acme: { a, docs },
    approved,
  }) => {
    const jobId = await approved(
      "c03",
      [{ kind: "MCP", label: "docs", required: false, tools: ["search", "write", "fetch"] }],
      { "MCP:docs": ["search"] },
    );
    const runId = await createRun(db, a.workspaceId, jobId);
    const plan = await freezePlan(db, { workspaceId: a.workspaceId, runId });
    // fetch: not allowed on the connection; write: allowed but the owner did not approve it
    expect(plan.tools).toEqual([
      {
        name: "search",
        connectionId: docs,
        connectionKind: "MCP",
        tool: "search",
        mayChangeData: false,
        inputSchema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
      },
    ]);
    expect((await db.run.findUniqueOrThrow({ where: { id: runId } })).plan).toEqual(plan);
  });

  test("[C03] the plan never grows: allowing more later does not change a frozen run", async ({
    db,
    acme: { a, docs },
    owner,
    approved,
  }) => {
    const jobId = await approved("grow", [
      { kind: "MCP", label: "docs", required: false, tools: ["search", "fetch"] },
    ]);
    const runId = await createRun(db, a.workspaceId, jobId);
    const first = await freezePlan(db, { workspaceId: a.workspaceId, runId });
    await setAllowedTools(owner(), { connectionId: docs, tools: ["search", "write", "fetch"] });
    const second = await freezePlan(db, { workspaceId: a.workspaceId, runId });
    expect(second).toEqual(first);
    expect(second.tools.map((x) => x.name)).toEqual(["search"]);
    await setAllowedTools(owner(), { connectionId: docs, tools: ["search", "write"] });
  });

  test("disambiguates the same tool name on two connections", async ({
    db,
    acme: { a, docs, wiki },
    approved,
  }) => {
    const jobId = await approved("two", [
      { kind: "MCP", label: "docs", required: true, tools: ["search"] },
      { kind: "MCP", label: "wiki", required: true, tools: ["search"] },
    ]);
    const plan = await freezePlan(db, {
      workspaceId: a.workspaceId,
      runId: await createRun(db, a.workspaceId, jobId),
    });
    expect(plan.tools.map((x) => [x.name, x.connectionId])).toEqual([
      ["docs.search", docs],
      ["wiki.search", wiki],
    ]);
  });

  test("[C05] a required tool that is not granted fails the run before it starts, naming the tool", async ({
    db,
    acme: { a },
    approved,
  }) => {
    const jobId = await approved("c05", [
      { kind: "MCP", label: "docs", required: true, tools: ["search", "fetch"] },
    ]);
    const runId = await createRun(db, a.workspaceId, jobId, "QUEUED");
    const error = await failure(freezePlan(db, { workspaceId: a.workspaceId, runId }));
    expect(error?.reason).toBe("REQUIRED_TOOL_MISSING");
    expect(error?.message).toContain('tool "fetch"');
    const run = await db.run.findUniqueOrThrow({ where: { id: runId } });
    expect(run.status).toBe("FAILED");
    expect(run.plan).toBeNull();
    expect(run.error).toContain('"fetch"');
  });

  test("[C05] a required group with no connection bound fails with the tool named", async ({
    db,
    acme: { a },
    approved,
  }) => {
    const jobId = await approved("nogh", [
      { kind: "SENTRY", label: null, required: true, tools: ["list_issues"] },
    ]);
    const error = await failure(
      freezePlan(db, {
        workspaceId: a.workspaceId,
        runId: await createRun(db, a.workspaceId, jobId, "QUEUED"),
      }),
    );
    expect(error?.message).toContain('sentry tool "list_issues"');
  });

  test("[C04] a job whose request changed since approval cannot start", async ({
    db,
    acme: { a },
    approved,
  }) => {
    const jobId = await approved("c04", [
      { kind: "MCP", label: "docs", required: false, tools: ["search"] },
    ]);
    await upsertJobsFromConfig(db, {
      workspaceId: a.workspaceId,
      repositoryId: a.repositoryId,
      commit: "c2",
      jobs: [
        job("c04", [{ kind: "MCP", label: "docs", required: false, tools: ["search", "write"] }]),
      ],
    });
    const runId = await createRun(db, a.workspaceId, jobId, "QUEUED");
    const error = await failure(freezePlan(db, { workspaceId: a.workspaceId, runId }));
    expect(error?.reason).toBe("REQUEST_CHANGED");
    expect((await db.run.findUniqueOrThrow({ where: { id: runId } })).status).toBe("FAILED");
    // even if the status were forced back, the grant's hash no longer matches the request
    await db.job.update({ where: { id: jobId }, data: { status: "APPROVED" } });
    const again = await failure(
      freezePlan(db, {
        workspaceId: a.workspaceId,
        runId: await createRun(db, a.workspaceId, jobId, "QUEUED"),
      }),
    );
    expect(again?.reason).toBe("REQUEST_CHANGED");
  });

  test("[O02] the frozen plan carries exactly the granted outputs; a grant for an earlier request grants none", async ({
    db,
    acme: { a },
    owner,
  }) => {
    const app = await db.connection.create({
      data: {
        workspaceId: a.workspaceId,
        kind: "GITHUB",
        label: "app",
        endpoint: "https://api.github.com",
        authType: "GITHUB_APP",
      },
    });
    await db.repository.update({ where: { id: a.repositoryId }, data: { connectionId: app.id } });
    const outputs = {
      comment: { max: 3, target: "any" as const },
      issue: { max: 2, titlePrefix: "[o2] ", labels: ["bot"] },
    };
    const sync = (o: typeof outputs, commit: string) =>
      upsertJobsFromConfig(db, {
        workspaceId: a.workspaceId,
        repositoryId: a.repositoryId,
        commit,
        jobs: [job("o02", [], { outputs: o })],
      });
    const jobId = (await sync(outputs, "c1")).jobs[0]!.jobId;
    const row = await db.job.findUniqueOrThrow({ where: { id: jobId } });
    await approveJob(owner(), {
      jobId,
      requestHash: row.requestHash,
      outputs: { comment: { max: 2, target: "triggering", mode: "auto" } },
    });
    const plan = await freezePlan(db, {
      workspaceId: a.workspaceId,
      runId: await createRun(db, a.workspaceId, jobId, "QUEUED"),
    });
    // The issue kind was requested but not granted: it is not in the plan.
    expect(plan.outputs).toEqual({ comment: { max: 2, target: "triggering", mode: "auto" } });

    await sync({ ...outputs, comment: { max: 4, target: "any" } }, "c2");
    await db.job.update({ where: { id: jobId }, data: { status: "APPROVED" } });
    const runId = await createRun(db, a.workspaceId, jobId, "QUEUED");
    const error = await failure(freezePlan(db, { workspaceId: a.workspaceId, runId }));
    expect(error?.reason).toBe("REQUEST_CHANGED");
    const run = await db.run.findUniqueOrThrow({ where: { id: runId } });
    expect(run.status).toBe("FAILED");
    expect(run.plan).toBeNull();
  });

  test("[P05] another workspace's run is not found", async ({ db, acme: { a }, approved }) => {
    const jobId = await approved("p05", [
      { kind: "MCP", label: "docs", required: false, tools: ["search"] },
    ]);
    const runId = await createRun(db, a.workspaceId, jobId);
    const other = await seedTenant(db, "other");
    expect(await failure(freezePlan(db, { workspaceId: other.workspaceId, runId }))).toMatchObject({
      reason: "RUN_NOT_FOUND",
    });
  });
});
