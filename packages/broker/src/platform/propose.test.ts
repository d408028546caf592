import type { GrantedOutputs } from "@secondshift/vocabulary";
import { describe, expect } from "vitest";
import { readPlan } from "../plan.ts";
import { isToolCallError } from "../refusals.ts";
import { mcp, platformTest as test } from "../testing/platform-fixture.ts";

const comment: NonNullable<GrantedOutputs["comment"]> = { max: 2, target: "any", mode: "hold" };
const issue: NonNullable<GrantedOutputs["issue"]> = {
  max: 1,
  titlePrefix: "[bot] ",
  labels: ["automated", "triage"],
  mode: "auto",
};

const pullRequest: NonNullable<GrantedOutputs["pull_request"]> = {
  draft: true,
  labels: ["deps"],
  maxFiles: 5,
  maxChangedLines: 100,
  mode: "hold",
};

describe("platform tools", () => {
  test("[O02] a plan without the grant does not list the tool, and a call to it is refused and audited", async ({
    db,
    broker,
    startRun,
  }) => {
    const run = await startRun("no-outputs", { issue });
    expect((await broker.platformTools(run)).map((t) => t.name)).toEqual([
      "secondshift_propose_issue",
    ]);
    const error = await broker
      .call(run, "secondshift_propose_comment", { number: 1, body: "hi" })
      .catch((e: unknown) => e);
    expect(isToolCallError(error, "NOT_IN_PLAN")).toBe(true);
    expect(await db.runOutput.count({ where: { runId: run.id } })).toBe(0);
    const rows = await db.auditEvent.findMany({ where: { actorId: run.id } });
    expect(rows).toMatchObject([
      { action: "tool.call", toolName: "secondshift_propose_comment", outcome: "NOT_IN_PLAN" },
    ]);
  });

  test("a comment proposal is stored PROPOSED with its payload, audited, and nothing is posted", async ({
    db,
    broker,
    startRun,
  }) => {
    const run = await startRun("comment", { comment });
    const result = await broker.call(run, "secondshift_propose_comment", {
      number: 7,
      body: "Looks good",
    });
    expect(result.isError).toBe(false);
    expect(result.content[0]?.text).toContain("Nothing has been posted yet");
    const outputs = await db.runOutput.findMany({ where: { runId: run.id } });
    expect(outputs).toMatchObject([
      { seq: 0, kind: "comment", state: "PROPOSED", payload: { number: 7, body: "Looks good" } },
    ]);
    const rows = await db.auditEvent.findMany({
      where: { actorId: run.id },
      orderBy: { createdAt: "asc" },
    });
    expect(rows.map((r) => [r.action, r.outcome])).toEqual(
      expect.arrayContaining([
        ["tool.call", "ok"],
        ["output.proposed", "proposed"],
      ]),
    );
    expect(rows.find((r) => r.action === "output.proposed")).toMatchObject({
      targetType: "RunOutput",
      targetId: outputs[0]!.id,
    });
  });

  test("[O02] a call over the granted count stores nothing and tells the model the limit", async ({
    db,
    broker,
    startRun,
  }) => {
    const run = await startRun("count", { comment });
    const propose = (n: number) =>
      broker.call(run, "secondshift_propose_comment", { number: n, body: "x" });
    // Racing calls: the unique seq keeps the count exact.
    await Promise.all([propose(1), propose(2), propose(3)]);
    const over = await propose(4);
    expect(over.isError).toBe(true);
    expect(over.content[0]?.text).toContain("this run may propose at most 2 comments");
    const outputs = await db.runOutput.findMany({
      where: { runId: run.id },
      orderBy: { seq: "asc" },
    });
    expect(outputs.map((o) => o.seq)).toEqual([0, 1]);
  });

  test("[O02] an issue carries the granted title prefix and labels; wrong arguments are refused", async ({
    db,
    broker,
    startRun,
  }) => {
    const run = await startRun("issue", { issue });
    await broker.call(run, "secondshift_propose_issue", { title: "Flaky test", body: "Details" });
    const [stored] = await db.runOutput.findMany({ where: { runId: run.id } });
    expect(stored?.payload).toEqual({
      title: "[bot] Flaky test",
      body: "Details",
      labels: ["automated", "triage"],
    });
    const bad = await broker
      .call(run, "secondshift_propose_issue", { title: "t", body: "b", labels: ["admin"] })
      .catch((e: unknown) => e);
    expect(isToolCallError(bad, "INVALID_ARGUMENTS")).toBe(true);
    expect(await db.runOutput.count({ where: { runId: run.id } })).toBe(1);
  });

  test("a plan that grants no outputs lists no platform tools", async ({
    db,
    broker,
    startRun,
  }) => {
    const run = await startRun("plain", {});
    const row = await db.run.findUniqueOrThrow({ where: { id: run.id } });
    expect(readPlan(row.plan)?.tools.map((t) => t.name)).toEqual(["search"]);
    expect(await broker.platformTools(run)).toEqual([]);
  });

  test("[O01] a connection tool named like a platform tool gets a prefixed plan name and is never reached by that name", async ({
    db,
    broker,
    startRun,
  }) => {
    const run = await startRun("shadow", {}, ["search", "secondshift_propose_comment"]);
    const row = await db.run.findUniqueOrThrow({ where: { id: run.id } });
    expect(readPlan(row.plan)?.tools.map((t) => t.name)).toEqual([
      "search",
      "docs.secondshift_propose_comment",
    ]);
    const calls = mcp.calls.length;
    const error = await broker
      .call(run, "secondshift_propose_comment", { number: 1, body: "x" })
      .catch((e: unknown) => e);
    expect(isToolCallError(error, "NOT_IN_PLAN")).toBe(true);
    expect(mcp.calls.length).toBe(calls);
  });

  test("[O02] one pull request per run: title and body only, the files are the worker's to take at finalize", async ({
    db,
    broker,
    startRun,
  }) => {
    const run = await startRun("pr", { pull_request: pullRequest });
    expect((await broker.platformTools(run)).map((t) => t.name)).toEqual([
      "secondshift_propose_pull_request",
    ]);
    const first = await broker.call(run, "secondshift_propose_pull_request", {
      title: "Bump lodash",
      body: "Weekly update",
    });
    expect(first.isError).toBe(false);
    expect(first.content[0]?.text).toContain("at most 5 files and 100 changed lines");
    const second = await broker.call(run, "secondshift_propose_pull_request", {
      title: "Another",
      body: "",
    });
    expect(second.isError).toBe(true);
    expect(second.content[0]?.text).toContain("at most 1 pull request");
    const outputs = await db.runOutput.findMany({ where: { runId: run.id } });
    expect(outputs).toMatchObject([
      {
        kind: "pull_request",
        state: "PROPOSED",
        payload: { title: "Bump lodash", body: "Weekly update" },
      },
    ]);
  });

  test("[O02] a pull request proposal cannot name another repository, a branch or files", async ({
    db,
    broker,
    startRun,
  }) => {
    const run = await startRun("pr-args", { pull_request: pullRequest });
    for (const extra of [
      { repository: "evil/repo" },
      { branch: "main" },
      { base: "main" },
      { files: [{ path: "a", content: "b" }] },
    ]) {
      const error = await broker
        .call(run, "secondshift_propose_pull_request", { title: "t", body: "b", ...extra })
        .catch((e: unknown) => e);
      expect(isToolCallError(error, "INVALID_ARGUMENTS")).toBe(true);
    }
    expect(await db.runOutput.count({ where: { runId: run.id } })).toBe(0);
  });
});
