// [O02] The owner grants output kinds in the access review: only kinds the job requests, limits
// at most the requested ones, "hold" by default, and only through a GitHub App connection.
import { dbTest } from "@secondshift/db/testing/vitest";
import type { Db } from "@secondshift/db";
import { isAppError } from "@secondshift/errors";
import { describe, expect } from "vitest";
import { job, requestJob, seedTenant, testKeyring, type Tenant } from "../testing/index.ts";
import { approveJob } from "./decisions.ts";
import { NO_GITHUB_APP_REASON } from "./grant-outputs.ts";
import { getAccessReview } from "./review.ts";

const keyring = testKeyring();
const requested = {
  comment: { max: 3, target: "triggering" as const },
  issue: { max: 2, titlePrefix: "[deps] ", labels: ["dependencies"] },
  pull_request: { draft: true, labels: ["automated"], maxFiles: 5, maxChangedLines: 200 },
};

const failure = async (p: Promise<unknown>) =>
  p.then(
    () => "OK",
    (e: unknown) => (isAppError(e) ? `${e.code}:${e.reason ?? ""}` : String(e)),
  );

async function connectThroughApp(db: Db, tenant: Tenant): Promise<void> {
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

const test = dbTest.extend("tenants", { scope: "file" }, async ({ db }) => {
  const a = await seedTenant(db, "acme");
  const b = await seedTenant(db, "other");
  const noApp = await seedTenant(db, "noapp");
  await connectThroughApp(db, a);
  await connectThroughApp(db, b);
  return { a, b, noApp };
});

const as = (db: Db, tenant: Tenant, userId: string) => ({
  db,
  keyring,
  actor: { userId },
  workspaceId: tenant.workspaceId,
});

async function requesting(db: Db, tenant: Tenant, key: string) {
  const { jobId } = await requestJob(db, tenant, job(key, [], { outputs: requested }));
  const row = await db.job.findUniqueOrThrow({ where: { id: jobId } });
  return { jobId, requestHash: row.requestHash };
}

describe("approveJob: outputs", () => {
  test("[O02] stores exactly the listed kinds, hold by default, with the owner's lower limit", async ({
    db,
    tenants: { a },
  }) => {
    const j = await requesting(db, a, "granted");
    const { grantId } = await approveJob(as(db, a, a.ownerId), {
      ...j,
      outputs: { comment: { max: 1 } },
    });
    const grant = await db.grant.findUniqueOrThrow({ where: { id: grantId } });
    expect(grant.outputs).toEqual({ comment: { max: 1, target: "triggering", mode: "hold" } });

    const again = await approveJob(as(db, a, a.ownerId), {
      ...j,
      outputs: { issue: { mode: "auto" } },
    });
    const second = await db.grant.findUniqueOrThrow({ where: { id: again.grantId } });
    expect(second.outputs).toEqual({ issue: { ...requested.issue, mode: "auto" } });
    const none = await approveJob(as(db, a, a.ownerId), j);
    const third = await db.grant.findUniqueOrThrow({ where: { id: none.grantId } });
    expect(third.outputs).toEqual({}); // a request grants nothing
  });

  test("[O02] refuses limits above the request, a wider target and unrequested kinds", async ({
    db,
    tenants: { a },
  }) => {
    const j = await requesting(db, a, "refused");
    const ctx = as(db, a, a.ownerId);
    expect(await failure(approveJob(ctx, { ...j, outputs: { comment: { max: 4 } } }))).toBe(
      "BAD_REQUEST:OUTPUT_LIMIT_ABOVE_REQUEST",
    );
    expect(await failure(approveJob(ctx, { ...j, outputs: { issue: { max: 0 } } }))).toBe(
      "BAD_REQUEST:OUTPUT_LIMIT_ABOVE_REQUEST",
    );
    expect(await failure(approveJob(ctx, { ...j, outputs: { comment: { target: "any" } } }))).toBe(
      "BAD_REQUEST:OUTPUT_TARGET_WIDER",
    );
    const plain = await requestJob(db, a, job("plain", []));
    const plainRow = await db.job.findUniqueOrThrow({ where: { id: plain.jobId } });
    expect(
      await failure(
        approveJob(ctx, {
          jobId: plain.jobId,
          requestHash: plainRow.requestHash,
          outputs: { comment: {} },
        }),
      ),
    ).toBe("BAD_REQUEST:OUTPUT_NOT_REQUESTED");
    expect(await db.grant.count({ where: { jobId: j.jobId } })).toBe(0);
  });

  test("[O02] a pull request is granted with the request's draft and labels and lower limits", async ({
    db,
    tenants: { a },
  }) => {
    const j = await requesting(db, a, "pr-granted");
    const ctx = as(db, a, a.ownerId);
    const held = await approveJob(ctx, { ...j, outputs: { pull_request: { maxFiles: 2 } } });
    const grant = await db.grant.findUniqueOrThrow({ where: { id: held.grantId } });
    expect(grant.outputs).toEqual({
      pull_request: {
        draft: true,
        labels: ["automated"],
        maxFiles: 2,
        maxChangedLines: 200,
        mode: "hold",
      },
    });
    const auto = await approveJob(ctx, {
      ...j,
      outputs: { pull_request: { mode: "auto", maxFiles: 5, maxChangedLines: 50 } },
    });
    const second = await db.grant.findUniqueOrThrow({ where: { id: auto.grantId } });
    expect(second.outputs).toEqual({
      pull_request: { ...requested.pull_request, maxChangedLines: 50, mode: "auto" },
    });
    const review = await getAccessReview(as(db, a, a.viewerId), { jobId: j.jobId });
    expect(review.outputs.granted).toEqual(second.outputs);
  });

  test("[O02] a pull request limit above the request is refused", async ({
    db,
    tenants: { a },
  }) => {
    const j = await requesting(db, a, "pr-refused");
    const ctx = as(db, a, a.ownerId);
    for (const pull_request of [
      { maxFiles: 6 },
      { maxChangedLines: 201 },
      { maxFiles: 0 },
      { maxChangedLines: 1.5 },
    ])
      expect(await failure(approveJob(ctx, { ...j, outputs: { pull_request } }))).toBe(
        "BAD_REQUEST:OUTPUT_LIMIT_ABOVE_REQUEST",
      );
    const message: unknown = await approveJob(ctx, {
      ...j,
      outputs: { pull_request: { maxFiles: 6 } },
    }).catch((e: unknown) => (e instanceof Error ? e.message : e));
    expect(message).toContain("from 1 to 5, the job's request");
    const plain = await requestJob(
      db,
      a,
      job("pr-plain", [], { outputs: { comment: requested.comment } }),
    );
    const plainRow = await db.job.findUniqueOrThrow({ where: { id: plain.jobId } });
    expect(
      await failure(
        approveJob(ctx, {
          jobId: plain.jobId,
          requestHash: plainRow.requestHash,
          outputs: { pull_request: {} },
        }),
      ),
    ).toBe("BAD_REQUEST:OUTPUT_NOT_REQUESTED");
    expect(await db.grant.count({ where: { jobId: j.jobId } })).toBe(0);
  });

  test("[O02] without a GitHub App connection granting an output is refused", async ({
    db,
    tenants: { noApp },
  }) => {
    const j = await requesting(db, noApp, "no-app");
    const ctx = as(db, noApp, noApp.ownerId);
    const refused: unknown = await approveJob(ctx, { ...j, outputs: { comment: {} } }).catch(
      (e: unknown) => e,
    );
    expect(isAppError(refused) && refused.message).toContain(
      "connect the repository through the GitHub App",
    );
    // Tools alone can still be approved.
    await expect(approveJob(ctx, j)).resolves.toMatchObject({ groups: [] });
  });

  test("another workspace's job is not found; a non-owner is forbidden", async ({
    db,
    tenants: { a, b },
  }) => {
    const j = await requesting(db, b, "theirs");
    expect(
      await failure(approveJob(as(db, a, a.ownerId), { ...j, outputs: { comment: {} } })),
    ).toMatch(/^NOT_FOUND:/);
    expect(
      await failure(approveJob(as(db, b, b.adminId), { ...j, outputs: { comment: {} } })),
    ).toMatch(/^FORBIDDEN:/);
  });

  test("the access review shows requested outputs, the grant, availability and permissions", async ({
    db,
    tenants: { a, noApp },
  }) => {
    const j = await requesting(db, a, "reviewed");
    await approveJob(as(db, a, a.ownerId), { ...j, outputs: { comment: { mode: "auto" } } });
    const review = await getAccessReview(as(db, a, a.viewerId), { jobId: j.jobId });
    expect(review.outputs).toEqual({
      requested,
      granted: { comment: { ...requested.comment, mode: "auto" } },
      available: true,
      unavailableReason: null,
      permissions: {
        comment: ["Issues: write"],
        issue: ["Issues: write"],
        pull_request: ["Contents: write", "Pull requests: write"],
      },
    });
    const other = await requesting(db, noApp, "unavailable");
    const blocked = await getAccessReview(as(db, noApp, noApp.ownerId), { jobId: other.jobId });
    expect(blocked.outputs).toMatchObject({
      available: false,
      unavailableReason: NO_GITHUB_APP_REASON,
      granted: {},
    });
  });
});
