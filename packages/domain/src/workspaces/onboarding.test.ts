import { dbTest } from "@secondshift/db/testing/vitest";
import { describe, expect } from "vitest";
import { actorContext, seedFailedDelivery, seedJob, seedTenant } from "../testing/index.ts";
import { getOnboarding } from "./onboarding.ts";

const test = dbTest.extend("tenants", { scope: "file" }, async ({ db }) => ({
  a: await seedTenant(db, "acme"),
  b: await seedTenant(db, "globex"),
}));

describe("getting started", () => {
  test("counts what the workspace has, from its own rows only; every member reads it", async ({
    db,
    tenants: { a, b },
  }) => {
    const viewer = actorContext(db, a, a.viewerId);
    expect(await getOnboarding(viewer, {})).toEqual({
      providers: 0,
      repositories: 1,
      connections: 0,
      approvedJobs: 0,
      jobsWaiting: 0,
      webhooks: 0,
      deliveries: 0,
    });
    await seedJob(db, a, { status: "NEEDS_APPROVAL" });
    // A failed report: an approved job, its run, a webhook and the delivery.
    await seedFailedDelivery(db, a);
    // Another workspace's job does not count.
    await seedJob(db, b);
    expect(await getOnboarding(viewer, {})).toMatchObject({
      approvedJobs: 1,
      jobsWaiting: 1,
      webhooks: 1,
      deliveries: 1,
    });
  });
});
