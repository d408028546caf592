// A pull request that changes a GitHub Actions workflow (let through at finalize only under
// OUTPUTS_ALLOW_WORKFLOW_CHANGES, and held for an owner) is applied with a token that may also
// write workflows; no other output asks for it (O03). An installation without "Workflows: write"
// refuses the token (GitHub's 422), and the output fails with the reason, nothing written.
import { dbTest } from "@secondshift/db/testing/vitest";
import type { Prisma } from "@secondshift/db";
import type { PullRequestFile } from "@secondshift/vocabulary";
import { describe, expect } from "vitest";
import { connectGithubApp, seedOutput, startApplyFixture } from "../testing/apply-fixture.ts";
import { applyOutput } from "./apply-output.ts";

const test = dbTest.extend("fx", async ({ db, seed }, { onCleanup }) => {
  const fx = await startApplyFixture(db);
  onCleanup(() => fx.close());
  await connectGithubApp(db, seed, fx.app);
  return fx;
});

const file = (path: string, content: string): PullRequestFile => ({
  path,
  status: "modified",
  mode: "100644",
  content,
  additions: 1,
  deletions: 0,
  patch: `@@ ${path} @@\n`,
});

function pullRequest(baseSha: string, files: PullRequestFile[]) {
  const payload = {
    title: "Pin the CI action",
    body: "Uses a tagged release.",
    draft: true,
    labels: [],
    baseSha,
    baseBranch: "main",
    headBranch: "secondshift/ci-run1",
    files,
  };
  return { kind: "pull_request" as const, payload: payload as unknown as Prisma.InputJsonObject };
}

const BASE = { "README.md": "# app\n", ".github/workflows/ci.yml": "on: push\n" };

describe("applying a pull request that changes a workflow", () => {
  test("[O04][O03] asks for workflows: write as well, for that pull request only", async ({
    db,
    seed,
    fx,
  }) => {
    const baseSha = fx.pulls.seedBase(BASE);
    const workflow = await seedOutput(
      db,
      seed,
      pullRequest(baseSha, [file(".github/workflows/ci.yml", "on: [push, pull_request]\n")]),
    );
    expect(await applyOutput(fx.deps, { outputId: workflow.id })).toMatchObject({
      status: "applied",
    });
    expect(fx.app.mints.map((m) => m.body.permissions)).toEqual([
      { contents: "write", pull_requests: "write", workflows: "write" },
    ]);
    for (const mint of fx.app.mints) expect(fx.app.isLive(mint.token!)).toBe(false);
  });

  test("[O04][O03] an installation without the workflows permission refuses the token: failed with the reason", async ({
    db,
    seed,
    fx,
  }) => {
    const { workflows: _w, ...without } = fx.app.installationPermissions;
    fx.app.installationPermissions = without;
    const baseSha = fx.pulls.seedBase(BASE);
    const output = await seedOutput(
      db,
      seed,
      pullRequest(baseSha, [file(".github/workflows/ci.yml", "on: [push]\n")]),
    );
    await applyOutput(fx.deps, { outputId: output.id });
    const row = await db.runOutput.findUniqueOrThrow({ where: { id: output.id } });
    expect(row.state).toBe("FAILED");
    expect(row.reason).toContain("HTTP 422");
    expect(row.reason).toContain("write the workflows");
    expect(fx.pulls.calls.filter((c) => c.method !== "GET")).toEqual([]);
  });
});
