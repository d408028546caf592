// The finalize checks of a proposed pull request: limits (O02), protected paths held even when
// applied automatically (O04), secrets in changed files, title and body (O05).
import { createRun, seedJob, seedTenant } from "@secondshift/domain/testing";
import { dbTest } from "@secondshift/db/testing/vitest";
import type { Prisma } from "@secondshift/db";
import type { GrantedOutputs, PullRequestFile } from "@secondshift/vocabulary";
import { describe, expect } from "vitest";
import { checkRunOutputs } from "./check-run.ts";
import type { OutputCheckConfig } from "./pull-request.ts";

const PLANTED = "planted-run-secret-77d0e2";
const known = { mask: (text: string) => text.replaceAll(PLANTED, "[redacted]") };
const GITHUB_TOKEN = `ghp_${"a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"}`;

const grant = (mode: "hold" | "auto", maxFiles = 3, maxChangedLines = 10): GrantedOutputs => ({
  pull_request: { draft: true, labels: [], maxFiles, maxChangedLines, mode },
});

const file = (path: string, content: string, lines = 1): PullRequestFile => ({
  path,
  status: "modified",
  mode: "100644",
  content,
  additions: lines,
  deletions: 0,
  patch: `+${content}`,
});

const payload = (files: PullRequestFile[], extra: Record<string, unknown> = {}) => ({
  title: "Update deps",
  body: "Weekly",
  draft: true,
  labels: [],
  baseSha: "a".repeat(40),
  baseBranch: "main",
  headBranch: "secondshift/deps-r1",
  files,
  ...extra,
});

const test = dbTest.extend("check", { scope: "file" }, async ({ db }) => {
  const tenant = await seedTenant(db);
  return async (
    body: Record<string, unknown>,
    granted: GrantedOutputs,
    config?: OutputCheckConfig,
  ) => {
    const jobId = await seedJob(db, tenant);
    const runId = await createRun(db, tenant.workspaceId, jobId);
    await db.runOutput.create({
      data: {
        workspaceId: tenant.workspaceId,
        runId,
        jobId,
        seq: 0,
        kind: "pull_request",
        payload: body as Prisma.InputJsonValue,
      },
    });
    const run = {
      id: runId,
      workspaceId: tenant.workspaceId,
      succeeded: true,
      status: "SUCCEEDED",
    };
    const deps = { db, known, ...(config ? { config } : {}) };
    const [checked] = await checkRunOutputs(deps, run, granted);
    const row = await db.runOutput.findUniqueOrThrow({ where: { id: checked!.id } });
    return { state: row.state, reason: row.reason ?? "" };
  };
});

describe("finalize checks: pull requests", () => {
  test("a pull request within its limits in auto mode is ready", async ({ check }) => {
    expect(await check(payload([file("src/a.ts", "ok")]), grant("auto"))).toEqual({
      state: "READY",
      reason: "",
    });
  });

  test("[O02] more files or changed lines than granted are refused, naming the limit", async ({
    check,
  }) => {
    const four = ["a", "b", "c", "d"].map((p) => file(p, "x"));
    expect(await check(payload(four), grant("auto"))).toMatchObject({
      state: "REFUSED",
      reason: expect.stringContaining("changes 4 files; the owner allows at most 3") as unknown,
    });
    expect(await check(payload([file("a", "x", 11)]), grant("auto"))).toMatchObject({
      state: "REFUSED",
      reason: expect.stringContaining("changes 11 lines; the owner allows at most 10") as unknown,
    });
  });

  test("[O04] a change to .secondshift.yaml or .github/ is held even when applied automatically; workflows are refused", async ({
    check,
  }) => {
    for (const path of [".secondshift.yaml", ".github/CODEOWNERS"])
      expect(await check(payload([file(path, "x")]), grant("auto"))).toEqual({
        state: "HELD",
        reason: `Held: the pull request changes "${path}", which is never applied without an owner's approval.`,
      });
    expect(
      await check(payload([file(".github/workflows/ci.yml", "x")]), grant("auto")),
    ).toMatchObject({
      state: "REFUSED",
      reason: expect.stringContaining("workflows are changed by people only") as unknown,
    });
  });

  test("[O04][O02] a path the owner listed in the grant holds the pull request even in auto mode", async ({
    check,
  }) => {
    const granted = grant("auto");
    granted.pull_request!.protectedPaths = ["migrations/", "db/schema.sql", "config"];
    for (const path of ["migrations/001_init.sql", "db/schema.sql", "config/app.json"])
      expect(await check(payload([file("src/a.ts", "x"), file(path, "x")]), granted)).toEqual({
        state: "HELD",
        reason: `Held: the pull request changes "${path}", which the owner listed as needing approval.`,
      });
    // A prefix is a folder or an exact file, not any name that starts the same way.
    for (const path of ["migrations.md", "db/schema.sql.bak", "configure.sh", "src/migrations/x"])
      expect(await check(payload([file(path, "x")]), granted)).toEqual({
        state: "READY",
        reason: "",
      });
  });

  test("[O04] with OUTPUTS_ALLOW_WORKFLOW_CHANGES a workflow change passes the checks but is always held", async ({
    check,
  }) => {
    const workflow = payload([file(".github/workflows/ci.yml", "x")]);
    expect(await check(workflow, grant("auto"), { allowWorkflowChanges: true })).toEqual({
      state: "HELD",
      reason:
        'Held: the pull request changes ".github/workflows/ci.yml", which is never applied without an owner\'s approval.',
    });
    expect(await check(workflow, grant("auto"), { allowWorkflowChanges: false })).toMatchObject({
      state: "REFUSED",
      reason: expect.stringContaining("OUTPUTS_ALLOW_WORKFLOW_CHANGES") as unknown,
    });
  });

  test("[O04] a head branch that is not SecondShift's, or is the base, is refused", async ({
    check,
  }) => {
    for (const headBranch of ["main", "feature/x"])
      expect(
        await check(
          payload([file("a", "x")], {
            headBranch,
            baseBranch: headBranch === "main" ? "main" : "dev",
          }),
          grant("auto"),
        ),
      ).toMatchObject({ state: "REFUSED" });
  });

  test("[O05] a secret in a changed file, the title or the body refuses it without repeating the value", async ({
    check,
  }) => {
    const cases = [
      payload([file("config/app.env", `TOKEN=${PLANTED}\n`)]),
      payload([file("README.md", "ok")], { body: `see ${PLANTED}` }),
      payload([file("deploy.sh", `export GITHUB_TOKEN=${GITHUB_TOKEN}\n`)]),
    ];
    const reasons: string[] = [];
    for (const body of cases) {
      const result = await check(body, grant("auto"));
      expect(result.state).toBe("REFUSED");
      reasons.push(result.reason);
    }
    expect(reasons[0]).toContain(
      'the file "config/app.env" contains a secret value known to this run',
    );
    expect(reasons[1]).toContain("the body contains a secret value");
    expect(reasons[2]).toContain('the file "deploy.sh" contains what looks like a credential');
    for (const reason of reasons) {
      expect(reason).not.toContain(PLANTED);
      expect(reason).not.toContain(GITHUB_TOKEN.slice(4, 20));
    }
  });

  test("changes that could not be collected, or none, refuse the pull request with the reason", async ({
    check,
  }) => {
    expect(
      await check(
        payload([], { problem: '"logo.png" is a binary file; only text files can be proposed' }),
        grant("auto"),
      ),
    ).toEqual({
      state: "REFUSED",
      reason: 'Refused: "logo.png" is a binary file; only text files can be proposed.',
    });
    expect(await check(payload([]), grant("auto"))).toMatchObject({
      state: "REFUSED",
      reason: expect.stringContaining("changed no files") as unknown,
    });
    const { files: _files, ...withoutFiles } = payload([]);
    expect(await check(withoutFiles, grant("auto"))).toMatchObject({
      state: "REFUSED",
      reason: expect.stringContaining("were not collected") as unknown,
    });
  });
});
