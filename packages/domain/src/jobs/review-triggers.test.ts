// [C04] The access review shows the triggers a job requests (`on:`), and whether events can
// reach its repository: GitHub connections only (App or token); any other repository is told
// its triggers never fire. Requests only in this version: no event starts a run yet.
import { dbTest } from "@secondshift/db/testing/vitest";
import type { Db } from "@secondshift/db";
import { EVENTS_NOT_GITHUB_REASON, type RequestedTriggers } from "@secondshift/vocabulary";
import { describe, expect } from "vitest";
import { job, requestJob, seedTenant, testKeyring, type Tenant } from "../testing/index.ts";
import { getAccessReview } from "./review.ts";

const keyring = testKeyring();

const triggers: RequestedTriggers = {
  pull_request: { actions: ["opened", "synchronize"], bots: false },
  issue: { actions: ["opened"], labels: ["triage"], bots: false },
  comment_command: { bots: true },
};

async function connect(
  db: Db,
  tenant: Tenant,
  kind: "GITHUB" | "MCP",
  authType: "GITHUB_APP" | "BEARER",
): Promise<string> {
  const connection = await db.connection.create({
    data: {
      workspaceId: tenant.workspaceId,
      kind,
      label: `${kind}-${authType}`,
      endpoint: "https://api.github.com",
      authType,
    },
  });
  await db.repository.update({
    where: { id: tenant.repositoryId },
    data: { connectionId: connection.id },
  });
  return connection.id;
}

const test = dbTest.extend("tenants", { scope: "file" }, async ({ db }) => {
  const app = await seedTenant(db, "app");
  const token = await seedTenant(db, "token");
  const plain = await seedTenant(db, "plain");
  const other = await seedTenant(db, "other-kind");
  await connect(db, app, "GITHUB", "GITHUB_APP");
  await connect(db, token, "GITHUB", "BEARER");
  await connect(db, other, "MCP", "BEARER");
  return { app, token, plain, other };
});

const review = async (db: Db, tenant: Tenant, key: string, requested?: RequestedTriggers) => {
  const { jobId } = await requestJob(db, tenant, job(key, [], { triggers: requested }));
  const ctx = { db, keyring, actor: { userId: tenant.viewerId }, workspaceId: tenant.workspaceId };
  return getAccessReview(ctx, { jobId });
};

describe("getAccessReview: triggers", () => {
  test("[C04] lists the requested triggers in the vocabulary's shape; a job without them has none", async ({
    db,
    tenants: { app },
  }) => {
    const withTriggers = await review(db, app, "reviewer", triggers);
    expect(withTriggers.triggers).toEqual({
      requested: triggers,
      eventsAvailable: true,
      eventsUnavailableReason: null,
    });
    const without = await review(db, app, "nightly");
    expect(without.triggers.requested).toEqual({});
  });

  test("events are available through a GitHub App or a GitHub token connection", async ({
    db,
    tenants: { token },
  }) => {
    const r = await review(db, token, "reviewer", triggers);
    expect(r.triggers.eventsAvailable).toBe(true);
    expect(r.triggers.eventsUnavailableReason).toBeNull();
  });

  test("a repository fetched over plain git (or through another kind) is told its triggers never fire", async ({
    db,
    tenants: { plain, other },
  }) => {
    for (const tenant of [plain, other]) {
      const r = await review(db, tenant, "reviewer", triggers);
      expect(r.triggers).toEqual({
        requested: triggers,
        eventsAvailable: false,
        eventsUnavailableReason: EVENTS_NOT_GITHUB_REASON,
      });
    }
    expect(EVENTS_NOT_GITHUB_REASON).toBe(
      "Events come from GitHub; this repository is fetched over plain git, so its triggers never fire.",
    );
  });

  test("a deleted GitHub connection gives no events", async ({ db, tenants: { token } }) => {
    const repo = await db.repository.findUniqueOrThrow({ where: { id: token.repositoryId } });
    await db.connection.update({
      where: { id: repo.connectionId! },
      data: { deletedAt: new Date() },
    });
    const r = await review(db, token, "after-delete", triggers);
    expect(r.triggers.eventsAvailable).toBe(false);
  });
});
