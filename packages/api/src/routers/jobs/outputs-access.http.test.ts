// Issue #24 items 1 and 3 over the real tRPC HTTP API, with the web process's outbound wiring
// (netguard) and a loopback fake of GitHub's App endpoints: the access review reads the
// installation's permissions with the App's JWT and says per kind what it lacks; GitHub not
// answering leaves the review readable with the reason; the owner's protected paths for a pull
// request are approved, stored and shown. The App's private key is never in a response or a log.
import { randomUUID } from "node:crypto";
import { encryptField } from "@secondshift/crypto";
import { startFakeGithubApp, type FakeGithubApp } from "@secondshift/connectors/testing/github-app";
import { job, recordingServices, requestJob, testKeyring } from "@secondshift/domain/testing";
import { dbTest } from "@secondshift/db/testing/vitest";
import type { Db } from "@secondshift/db";
import { describe, expect } from "vitest";
import { startTestApi } from "../../testing/index.ts";
import { loopbackOutbound } from "../../testing/outbound.ts";
import { seedHttpTenant, signedInBrowser, type HttpTenant } from "../../testing/tenants.ts";

const keyring = testKeyring();

async function connectThroughApp(db: Db, tenant: HttpTenant, app: FakeGithubApp): Promise<void> {
  const id = randomUUID();
  await db.connection.create({
    data: {
      id,
      workspaceId: tenant.workspaceId,
      kind: "GITHUB",
      label: "app",
      endpoint: app.apiBase,
      authType: "GITHUB_APP",
      settings: { appId: app.appId, installationId: app.installationId },
      credentialCiphertext: await encryptField(keyring, app.privateKeyPem, {
        workspaceId: tenant.workspaceId,
        table: "Connection",
        rowId: id,
        field: "credentialCiphertext",
      }),
    },
  });
  await db.repository.update({ where: { id: tenant.repositoryId }, data: { connectionId: id } });
}

const test = dbTest
  // eslint-disable-next-line no-empty-pattern -- Vitest requires a destructuring pattern here.
  .extend("app", { scope: "file" }, async ({}, { onCleanup }) => {
    const app = await startFakeGithubApp({ appId: 321, installationId: 654 });
    onCleanup(() => app.stop());
    return app;
  })
  // eslint-disable-next-line no-empty-pattern -- Vitest requires a destructuring pattern here.
  .extend("outbound", { scope: "file" }, ({}, { onCleanup }) => {
    const outbound = loopbackOutbound();
    onCleanup(() => outbound.client.close());
    return outbound;
  })
  .extend("api", { scope: "file" }, async ({ db, outbound }, { onCleanup }) => {
    const api = await startTestApi(db, {
      keyring,
      services: recordingServices(),
      outbound: outbound.fetch,
    });
    onCleanup(() => api.close());
    return api;
  })
  .extend("acme", { scope: "file" }, async ({ db, app }) => {
    const tenant = await seedHttpTenant(db, keyring, "acme");
    await connectThroughApp(db, tenant, app);
    return tenant;
  })
  .extend("owner", { scope: "file" }, ({ api, acme }) => signedInBrowser(api, acme.emails.owner))
  .extend("viewer", { scope: "file" }, ({ api, acme }) => signedInBrowser(api, acme.emails.viewer));

const requested = {
  comment: { max: 2, target: "triggering" as const },
  pull_request: { draft: true, labels: [], maxFiles: 5, maxChangedLines: 200 },
};

const reasonOf = (call: Promise<unknown>) =>
  call.then(
    () => "resolved",
    (e: { data?: { reason?: string | null; code?: string } }) =>
      `${e.data?.code}/${e.data?.reason ?? "-"}`,
  );

describe("outputs access over HTTP", () => {
  test("[O02] the review says what the installation lacks, read with the App's JWT through netguard", async ({
    db,
    api,
    app,
    acme,
    viewer,
  }) => {
    const { jobId } = await requestJob(db, acme, job("perm", [], { outputs: requested }));
    const workspaceId = acme.workspaceId;
    app.installationPermissions = { contents: "write", issues: "write", metadata: "read" };
    const reads = app.installationReads.length;
    const review = await viewer.trpc.jobs.review.query({ workspaceId, jobId });
    expect(app.installationReads.slice(reads)).toEqual([
      expect.objectContaining({ iss: "321" }) as unknown,
    ]);
    expect(review.outputs).toMatchObject({
      permissionsChecked: true,
      permissionsReason: null,
      missing: { comment: [], pull_request: ["Pull requests: write"] },
    });

    app.installationPermissions = { ...app.installationPermissions, pull_requests: "write" };
    const full = await viewer.trpc.jobs.review.query({ workspaceId, jobId });
    expect(full.outputs.missing).toEqual({ comment: [], pull_request: [] });

    const secretLine = app.privateKeyPem.split("\n")[1]!;
    for (const body of api.bodies) expect(body).not.toContain(secretLine);
    expect(api.logs()).not.toContain(secretLine);
  });

  test("[C04] the review carries the job's triggers and that events can reach a GitHub repository", async ({
    db,
    acme,
    viewer,
  }) => {
    const triggers = {
      pull_request: { actions: ["opened" as const, "synchronize" as const], bots: false },
      comment_command: { bots: false },
    };
    const { jobId } = await requestJob(db, acme, job("on-events", [], { triggers }));
    const review = await viewer.trpc.jobs.review.query({ workspaceId: acme.workspaceId, jobId });
    expect(review.triggers).toEqual({
      requested: triggers,
      eventsAvailable: true,
      eventsUnavailableReason: null,
    });
  });

  test("[O02] GitHub refusing or unreachable: the review renders with the reason and approving works", async ({
    db,
    app,
    acme,
    owner,
  }) => {
    const { jobId } = await requestJob(db, acme, job("perm-down", [], { outputs: requested }));
    const workspaceId = acme.workspaceId;
    app.installationStatus = 404;
    try {
      const review = await owner.trpc.jobs.review.query({ workspaceId, jobId });
      expect(review.outputs).toMatchObject({ permissionsChecked: false, missing: {} });
      expect(review.outputs.permissionsReason).toContain("HTTP 404");
      const approved = await owner.trpc.jobs.approve.mutate({
        workspaceId,
        jobId,
        requestHash: review.job.requestHash,
        outputs: { pull_request: { mode: "auto" } },
      });
      expect(approved.grantId).toEqual(expect.any(String));
    } finally {
      app.installationStatus = null;
    }
  });

  test("[O04][O02] the owner's protected paths go with the approval and come back in the review", async ({
    db,
    acme,
    owner,
  }) => {
    const { jobId } = await requestJob(db, acme, job("paths", [], { outputs: requested }));
    const workspaceId = acme.workspaceId;
    const review = await owner.trpc.jobs.review.query({ workspaceId, jobId });
    const approval = { workspaceId, jobId, requestHash: review.job.requestHash };
    for (const protectedPaths of [["../outside"], Array.from({ length: 21 }, (_, i) => `d${i}/`)])
      expect(
        await reasonOf(
          owner.trpc.jobs.approve.mutate({
            ...approval,
            outputs: { pull_request: { protectedPaths } },
          }),
        ),
      ).toMatch(/^BAD_REQUEST\//);
    await owner.trpc.jobs.approve.mutate({
      ...approval,
      outputs: { pull_request: { mode: "auto", protectedPaths: ["migrations/", "db/schema.sql"] } },
    });
    const after = await owner.trpc.jobs.review.query({ workspaceId, jobId });
    expect(after.outputs.granted.pull_request).toEqual({
      ...requested.pull_request,
      mode: "auto",
      protectedPaths: ["migrations/", "db/schema.sql"],
    });
  });
});
