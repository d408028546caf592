// Issue #24 phase (b) over the real tRPC HTTP API: the access review shows a requested pull
// request, the owner grants it with lower size limits (never higher, never a draft or label
// change), and the run page's list sends each proposed file's patch but never its full new
// content; a comment's output keeps its phase (a) shape.
import {
  recordingServices,
  requestJob,
  job,
  seedOutput,
  testKeyring,
} from "@secondshift/domain/testing";
import { dbTest } from "@secondshift/db/testing/vitest";
import type { Db } from "@secondshift/db";
import type { PullRequestProposal } from "@secondshift/vocabulary";
import { describe, expect } from "vitest";
import { startTestApi } from "../../testing/index.ts";
import { seedHttpTenant, signedInBrowser, type HttpTenant } from "../../testing/tenants.ts";

const keyring = testKeyring();

async function connectThroughApp(db: Db, tenant: HttpTenant): Promise<void> {
  const connection = await db.connection.create({
    data: {
      workspaceId: tenant.workspaceId,
      kind: "GITHUB",
      label: "app",
      endpoint: "https://api.github.com",
      authType: "GITHUB_APP",
    },
  });
  await db.repository.update({
    where: { id: tenant.repositoryId },
    data: { connectionId: connection.id },
  });
}

const test = dbTest
  .extend("api", { scope: "file" }, async ({ db }, { onCleanup }) => {
    const api = await startTestApi(db, { keyring, services: recordingServices() });
    onCleanup(() => api.close());
    return api;
  })
  .extend("acme", { scope: "file" }, async ({ db }) => {
    const tenant = await seedHttpTenant(db, keyring, "acme");
    await connectThroughApp(db, tenant);
    return tenant;
  })
  .extend("owner", { scope: "file" }, ({ api, acme }) => signedInBrowser(api, acme.emails.owner))
  .extend("viewer", { scope: "file" }, ({ api, acme }) => signedInBrowser(api, acme.emails.viewer));

const requested = {
  pull_request: { draft: true, labels: ["automated"], maxFiles: 5, maxChangedLines: 200 },
};

const reasonOf = (call: Promise<unknown>) =>
  call.then(
    () => "resolved",
    (e: { data?: { reason?: string | null; code?: string } }) =>
      `${e.data?.code}/${e.data?.reason ?? "-"}`,
  );

const content = "FULL-CONTENT-NEVER-SENT";
const proposal: PullRequestProposal = {
  title: "Fix the flaky retry",
  body: "Waits for the container watch.",
  draft: true,
  labels: ["automated"],
  baseSha: "0123456789abcdef0123456789abcdef01234567",
  baseBranch: "main",
  headBranch: "secondshift/fix-run1",
  files: [
    {
      path: "src/retry.ts",
      status: "modified",
      mode: "100644",
      content,
      additions: 2,
      deletions: 1,
      patch: "@@ -1,2 +1,3 @@\n const a = 1;\n-wait(100);\n+wait(2000);\n+log();\n",
    },
    {
      path: "bin/run",
      status: "added",
      mode: "120000",
      content: "../src/run.ts",
      additions: 1,
      deletions: 0,
      patch: "@@ -0,0 +1 @@\n+../src/run.ts\n",
    },
  ],
};

/** The payload as a JSON column takes it. */
const stored: object = proposal;

describe("pull-request outputs over HTTP", () => {
  test("[O02] the owner grants a requested pull request with limits at most the request", async ({
    db,
    acme,
    owner,
  }) => {
    const { jobId } = await requestJob(db, acme, job("pr", [], { outputs: requested }));
    const workspaceId = acme.workspaceId;
    const review = await owner.trpc.jobs.review.query({ workspaceId, jobId });
    expect(review.outputs.requested).toEqual(requested);
    expect(review.outputs.permissions.pull_request).toEqual([
      "Contents: write",
      "Pull requests: write",
    ]);
    const approval = { workspaceId, jobId, requestHash: review.job.requestHash };

    for (const pull_request of [{ maxFiles: 6 }, { maxChangedLines: 201 }])
      expect(
        await reasonOf(owner.trpc.jobs.approve.mutate({ ...approval, outputs: { pull_request } })),
      ).toBe("BAD_REQUEST/OUTPUT_LIMIT_ABOVE_REQUEST");
    for (const pull_request of [{ maxFiles: 0 }, { maxChangedLines: 2.5 }, { draft: false }])
      expect(
        await reasonOf(
          owner.trpc.jobs.approve.mutate({
            ...approval,
            outputs: { pull_request },
          }),
        ),
      ).toMatch(/^BAD_REQUEST\//);
    expect(await db.grant.count({ where: { jobId } })).toBe(0);

    await owner.trpc.jobs.approve.mutate({
      ...approval,
      outputs: { pull_request: { mode: "auto", maxFiles: 2, maxChangedLines: 100 } },
    });
    const after = await owner.trpc.jobs.review.query({ workspaceId, jobId });
    expect(after.outputs.granted).toEqual({
      pull_request: {
        draft: true,
        labels: ["automated"],
        maxFiles: 2,
        maxChangedLines: 100,
        mode: "auto",
      },
    });
  });

  test("the run page's list sends each file's patch and the totals, never the file's content", async ({
    db,
    api,
    acme,
    viewer,
  }) => {
    const { runId, outputId } = await seedOutput(db, acme);
    const pr = await seedOutput(db, acme, { runId });
    await db.runOutput.update({
      where: { id: pr.outputId },
      data: { kind: "pull_request", payload: stored },
    });
    const from = api.bodies.length;
    const [comment, pull] = await viewer.trpc.outputs.list.query({
      workspaceId: acme.workspaceId,
      runId,
    });
    expect(comment).toMatchObject({ id: outputId, kind: "comment", number: 7 });
    expect(comment).not.toHaveProperty("pullRequest");
    expect(pull).toMatchObject({
      kind: "pull_request",
      title: proposal.title,
      body: proposal.body,
    });
    expect(pull!.pullRequest).toEqual({
      headBranch: "secondshift/fix-run1",
      baseBranch: "main",
      draft: true,
      totals: { files: 2, additions: 3, deletions: 1 },
      files: proposal.files.map(({ content: _content, ...file }) => file),
    });
    const sent = api.bodies.slice(from).join("\n");
    expect(sent).toContain("wait(2000);");
    expect(sent).not.toContain(content);

    const waiting = await viewer.trpc.outputs.waiting.query({ workspaceId: acme.workspaceId });
    const held = waiting.find((o) => o.id === pr.outputId);
    expect(held!.pullRequest).toEqual({
      headBranch: "secondshift/fix-run1",
      baseBranch: "main",
      draft: true,
      totals: { files: 2, additions: 3, deletions: 1 },
    });
    expect(held).not.toHaveProperty("pullRequest.files");
  });
});
