// A proposed pull request on the run page (issue #24 phase (b)): its branches, draft flag and
// each changed file's patch, never the files' full new contents; the overview carries only its
// size. A comment's or issue's view is what phase (a) showed.
import { dbTest } from "@secondshift/db/testing/vitest";
import type { Db } from "@secondshift/db";
import type { PullRequestProposal } from "@secondshift/vocabulary";
import { describe, expect } from "vitest";
import { actorContext, seedOutput, seedTenant, type Tenant } from "../testing/index.ts";
import { listRunOutputs, listWaitingOutputs } from "./read.ts";

const test = dbTest.extend("tenants", { scope: "file" }, async ({ db }) => {
  const a = await seedTenant(db, "acme");
  return { a };
});

const secretContent = "THE FULL NEW CONTENT, stored for apply only";

const proposal: PullRequestProposal = {
  title: "Bump lodash to 4.17.21",
  body: "Fixes the prototype pollution advisory.",
  draft: true,
  labels: ["dependencies"],
  baseSha: "0123456789abcdef0123456789abcdef01234567",
  baseBranch: "main",
  headBranch: "secondshift/deps-run1",
  files: [
    {
      path: "package.json",
      status: "modified",
      mode: "100644",
      content: secretContent,
      additions: 1,
      deletions: 1,
      patch: '@@ -1,3 +1,3 @@\n {\n-  "lodash": "4.17.20"\n+  "lodash": "4.17.21"\n }\n',
    },
    {
      path: "scripts/check.sh",
      status: "added",
      mode: "100755",
      content: `#!/bin/sh\n${secretContent}\n`,
      additions: 2,
      deletions: 0,
      patch: "@@ -0,0 +1,2 @@\n+#!/bin/sh\n+npm audit\n",
    },
    {
      path: "old.txt",
      status: "deleted",
      mode: null,
      content: null,
      additions: 0,
      deletions: 3,
      patch: "@@ -1,3 +0,0 @@\n-a\n-b\n-c\n",
    },
  ],
};

async function seedPullRequest(db: Db, tenant: Tenant, payload: unknown = proposal) {
  const seeded = await seedOutput(db, tenant);
  await db.runOutput.update({
    where: { id: seeded.outputId },
    data: { kind: "pull_request", payload: payload as object },
  });
  return seeded;
}

describe("reading a proposed pull request", () => {
  test("the run page gets branches, draft, totals and each file's patch, not its content", async ({
    db,
    tenants: { a },
  }) => {
    const { runId, outputId } = await seedPullRequest(db, a);
    const viewer = actorContext(db, a, a.viewerId);
    const [shown] = await listRunOutputs(viewer, { runId });
    expect(shown).toMatchObject({
      id: outputId,
      kind: "pull_request",
      title: proposal.title,
      body: proposal.body,
      labels: ["dependencies"],
      number: null,
    });
    expect(shown!.pullRequest).toEqual({
      headBranch: "secondshift/deps-run1",
      baseBranch: "main",
      draft: true,
      totals: { files: 3, additions: 3, deletions: 4 },
      files: proposal.files.map(({ content: _content, ...file }) => file),
    });
    expect(JSON.stringify(shown)).not.toContain(secretContent);

    const waiting = (await listWaitingOutputs(viewer, {})).find((o) => o.id === outputId);
    expect(waiting!.pullRequest).toEqual({
      headBranch: "secondshift/deps-run1",
      baseBranch: "main",
      draft: true,
      totals: { files: 3, additions: 3, deletions: 4 },
    });
    expect(JSON.stringify(waiting)).not.toContain("npm audit");
  });

  test("a stored file not of the vocabulary's shape is dropped; a payload before finalize has none", async ({
    db,
    tenants: { a },
  }) => {
    const odd = {
      ...proposal,
      draft: false,
      files: [
        proposal.files[0],
        { path: "x", status: "renamed", additions: 1, deletions: 0, patch: "" },
        { status: "added" },
        "not a file",
        { path: "y", status: "added", mode: "777", additions: -2, deletions: "3" },
      ],
    };
    const { runId } = await seedPullRequest(db, a, odd);
    const [shown] = await listRunOutputs(actorContext(db, a, a.ownerId), { runId });
    expect(shown!.pullRequest!.draft).toBe(false);
    expect(
      shown!.pullRequest!.files.map((f) => [f.path, f.mode, f.additions, f.deletions]),
    ).toEqual([
      ["package.json", "100644", 1, 1],
      ["y", null, 0, 0],
    ]);
    const proposed = await seedPullRequest(db, a, { title: "Early", body: "" });
    const [early] = await listRunOutputs(actorContext(db, a, a.ownerId), {
      runId: proposed.runId,
    });
    expect(early!.pullRequest).toEqual({
      headBranch: "",
      baseBranch: "",
      draft: true,
      totals: { files: 0, additions: 0, deletions: 0 },
      files: [],
    });
  });

  test("a comment's view carries no pull request part", async ({ db, tenants: { a } }) => {
    const { runId, outputId } = await seedOutput(db, a);
    const [shown] = await listRunOutputs(actorContext(db, a, a.viewerId), { runId });
    expect(Object.keys(shown!).sort()).toEqual(
      [
        "id",
        "runId",
        "seq",
        "kind",
        "state",
        "title",
        "body",
        "number",
        "labels",
        "reason",
        "resultUrl",
        "proposedAt",
        "decidedAt",
        "decidedBy",
        "appliedAt",
        "review",
      ].sort(),
    );
    expect(shown).toMatchObject({
      id: outputId,
      kind: "comment",
      number: 7,
      title: null,
      review: null,
    });
    const waiting = (await listWaitingOutputs(actorContext(db, a, a.viewerId), {})).find(
      (o) => o.id === outputId,
    );
    expect(waiting).not.toHaveProperty("pullRequest");
  });

  test("the threat review's verdict is shown as stored, anything else as no review", async ({
    db,
    tenants: { a },
  }) => {
    const { runId, outputId } = await seedOutput(db, a);
    const review = { verdict: "warn", notes: "The body asks agents to run a script." };
    await db.runOutput.update({
      where: { id: outputId },
      data: { payload: { number: 7, body: "Hi", review } },
    });
    const other = await seedOutput(db, a, { runId });
    await db.runOutput.update({
      where: { id: other.outputId },
      data: { payload: { number: 7, body: "Hi", review: { verdict: "maybe", notes: 3 } } },
    });
    const shown = await listRunOutputs(actorContext(db, a, a.viewerId), { runId });
    expect(shown.map((o) => o.review)).toEqual([review, null]);
    const waiting = await listWaitingOutputs(actorContext(db, a, a.viewerId), {});
    expect(waiting.find((o) => o.id === outputId)?.review).toEqual(review);
  });
});
