// Output events (issue #24): an output applied or failed after its run gets one delivery per
// webhook that takes the run's report, sent, signed and redelivered like a report, its body the
// documented output event; nothing reaches another workspace's webhooks.
import { readFile } from "node:fs/promises";
import { Ajv } from "ajv";
import addFormatsModule from "ajv-formats";
import { describe, expect } from "vitest";
import type { Db, OutputState } from "@secondshift/db";
import { createLogger, createMemorySink, MASK, SecretMasker } from "@secondshift/logging";
import { runPagePath } from "@secondshift/vocabulary";
import { deliverDue, type DeliveryDeps } from "./deliver.ts";
import { enqueueOutputEvents, enqueueReports } from "./enqueue.ts";
import { resetFailedDelivery } from "./redeliver.ts";
import { verifySignature } from "./signature.ts";
import {
  createRun,
  createTenant,
  createWebhook,
  startReceiver,
  testKeyring,
  type Receiver,
  type Tenant,
} from "./testing/fixtures.ts";
import { deliveryTest } from "./testing/vitest.ts";

const addFormats =
  (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule;
const ajv = new Ajv({ strict: true, allErrors: true });
addFormats(ajv);
const validateEvent = ajv.compile(
  JSON.parse(
    await readFile(new URL("../schema/output-event.schema.json", import.meta.url), "utf8"),
  ) as object,
);

const keyring = testKeyring();
const t0 = new Date("2026-01-05T10:05:00.000Z");
const publicUrl = "https://secondshift.example.test";
const secret = "whsec_output_events_0123456789";
/** Far ahead: rows queued only to be counted are never due in another test's delivery pass. */
const later = new Date("2030-01-01T00:00:00.000Z");

const test = deliveryTest
  /** Loopback receivers, each closed after the test. */
  // eslint-disable-next-line no-empty-pattern -- Vitest requires a destructuring pattern here.
  .extend("receiver", ({}, { onCleanup }) => {
    const started: Receiver[] = [];
    onCleanup(async () => {
      await Promise.all(started.map((r) => r.close()));
    });
    return async () => {
      const r = await startReceiver();
      started.push(r);
      return r;
    };
  })
  /** Delivery deps as the worker builds them (runLink from runPagePath). */
  .extend("deps", ({ client }) => {
    const masker = new SecretMasker();
    const deps: DeliveryDeps = {
      keyring,
      client,
      masker,
      logger: createLogger({
        name: "output-events-test",
        destination: createMemorySink().stream,
        masker,
        level: "debug",
      }),
      runLink: (run) => `${publicUrl}${runPagePath(run.workspaceId, run.id)}`,
      random: () => 0.5,
    };
    return deps;
  });

async function createOutput(
  db: Db,
  tenant: Tenant,
  runId: string,
  input: { state: OutputState; resultUrl?: string; reason?: string; payload?: object },
) {
  return db.runOutput.create({
    data: {
      workspaceId: tenant.workspaceId,
      runId,
      jobId: tenant.jobId,
      seq: 0,
      kind: "issue",
      state: input.state,
      payload: input.payload ?? { title: "Flaky test", body: "It fails on Tuesdays." },
      resultUrl: input.resultUrl ?? null,
      reason: input.reason ?? null,
    },
  });
}

const outputDeliveries = (db: Db, outputId: string) =>
  db.webhookDelivery.findMany({ where: { outputId }, orderBy: { webhookId: "asc" } });

describe("output events", () => {
  test("[O06] an applied output gets one delivery per webhook that takes the run's report; onSettled twice (or at once) makes no second", async ({
    db,
  }) => {
    const tenant = await createTenant(db, "nightly");
    const url = "http://127.0.0.1:9/x";
    const all = await createWebhook(db, keyring, tenant.workspaceId, { url, secret });
    const byJob = await createWebhook(db, keyring, tenant.workspaceId, {
      url,
      secret,
      jobKeys: ["nightly"],
      statuses: ["SUCCEEDED"],
    });
    await createWebhook(db, keyring, tenant.workspaceId, { url, secret, jobKeys: ["other"] });
    await createWebhook(db, keyring, tenant.workspaceId, { url, secret, statuses: ["FAILED"] });
    await createWebhook(db, keyring, tenant.workspaceId, { url, secret, enabled: false });
    const run = await createRun(db, tenant);
    await enqueueReports(db, { workspaceId: tenant.workspaceId, runId: run.id, now: later });
    const output = await createOutput(db, tenant, run.id, {
      state: "APPLIED",
      resultUrl: "https://github.com/acme/app/issues/7",
    });

    const input = { workspaceId: tenant.workspaceId, outputId: output.id, now: later };
    const first = await enqueueOutputEvents(db, input);
    expect(first.created).toBe(2);
    expect(new Set(first.webhookIds)).toEqual(new Set([all.id, byJob.id]));
    // A retried onSettled, and two racing ones: still one per webhook.
    expect((await enqueueOutputEvents(db, input)).created).toBe(0);
    const racing = await Promise.all([
      enqueueOutputEvents(db, input),
      enqueueOutputEvents(db, input),
    ]);
    expect(racing.map((r) => r.created)).toEqual([0, 0]);

    const rows = await outputDeliveries(db, output.id);
    expect(rows).toHaveLength(2);
    for (const row of rows)
      expect(row).toMatchObject({
        workspaceId: tenant.workspaceId,
        event: "output.applied",
        runId: null,
        status: "PENDING",
        nextAttemptAt: later,
      });
    // The run's own report keeps its one delivery per webhook beside them.
    expect(await db.webhookDelivery.count({ where: { runId: run.id } })).toBe(2);
  });

  test("outputs not applied or failed send nothing", async ({ db }) => {
    const tenant = await createTenant(db);
    await createWebhook(db, keyring, tenant.workspaceId, { url: "http://127.0.0.1:9/x", secret });
    const run = await createRun(db, tenant);
    for (const state of ["HELD", "READY", "APPLYING", "REFUSED"] as const) {
      const output = await db.runOutput.create({
        data: {
          workspaceId: tenant.workspaceId,
          runId: run.id,
          jobId: tenant.jobId,
          seq: ["HELD", "READY", "APPLYING", "REFUSED"].indexOf(state),
          kind: "comment",
          state,
          payload: {},
        },
      });
      expect(
        await enqueueOutputEvents(db, { workspaceId: tenant.workspaceId, outputId: output.id }),
      ).toEqual({ created: 0, webhookIds: [] });
    }
    expect(await db.webhookDelivery.count({ where: { workspaceId: tenant.workspaceId } })).toBe(0);
  });

  test("output.applied is sent signed, with its event header, and its body validates against the schema", async ({
    db,
    deps,
    receiver,
  }) => {
    const r = await receiver();
    const tenant = await createTenant(db);
    await createWebhook(db, keyring, tenant.workspaceId, {
      url: `http://127.0.0.1:${r.port}/hooks/output`,
      secret,
    });
    const run = await createRun(db, tenant);
    const output = await createOutput(db, tenant, run.id, {
      state: "APPLIED",
      resultUrl: "https://github.com/acme/app/issues/7",
    });
    await enqueueOutputEvents(db, {
      workspaceId: tenant.workspaceId,
      outputId: output.id,
      now: t0,
    });
    const [delivery] = await outputDeliveries(db, output.id);

    expect(await deliverDue(db, deps, { now: t0 })).toMatchObject({ attempted: 1, delivered: 1 });
    expect(r.received).toHaveLength(1);
    const [request] = r.received;
    expect(request?.headers["secondshift-event"]).toBe("output.applied");
    expect(request?.headers["secondshift-delivery"]).toBe(delivery?.id);
    expect(
      verifySignature(
        request?.headers["secondshift-signature"] as string,
        request?.body ?? "",
        secret,
        {
          now: t0,
        },
      ).ok,
    ).toBe(true);
    const body = JSON.parse(request?.body ?? "") as unknown;
    expect(validateEvent(body), JSON.stringify(validateEvent.errors)).toBe(true);
    const path = runPagePath(tenant.workspaceId, run.id);
    expect(body).toEqual({
      event: "output.applied",
      output: {
        id: output.id,
        kind: "issue",
        state: "applied",
        resultUrl: "https://github.com/acme/app/issues/7",
      },
      run: { id: run.id, path, link: `${publicUrl}${path}` },
      job: { key: "nightly", name: expect.any(String) as string },
      repository: { fullName: expect.stringMatching(/\/app$/) as string },
    });
    expect(request?.body).not.toContain(secret);
    expect(
      await db.webhookDelivery.findUniqueOrThrow({ where: { id: delivery?.id ?? "" } }),
    ).toMatchObject({ status: "DELIVERED", attemptCount: 1 });
    // Delivered once: the next pass sends nothing.
    expect(await deliverDue(db, deps, { now: new Date(t0.getTime() + 60_000) })).toMatchObject({
      attempted: 0,
    });
  });

  test("output.failed carries the reason; a planted secret (known to the masker, in the proposal) does not leave; a failed delivery is redelivered with the same event", async ({
    db,
    deps,
    receiver,
  }) => {
    const r = await receiver();
    const tenant = await createTenant(db);
    await createWebhook(db, keyring, tenant.workspaceId, {
      url: `http://127.0.0.1:${r.port}/hooks/output`,
      secret,
    });
    const run = await createRun(db, tenant);
    const planted = "ghp_plantedOutputSecret0123456789abcdef";
    deps.masker.add(planted);
    const reason = `GitHub refused the issue (422 Validation Failed): labels are invalid ${planted}`;
    const output = await createOutput(db, tenant, run.id, {
      state: "FAILED",
      reason,
      payload: { title: "Token", body: `the token is ${planted}` },
    });
    await enqueueOutputEvents(db, {
      workspaceId: tenant.workspaceId,
      outputId: output.id,
      now: t0,
    });
    const [delivery] = await outputDeliveries(db, output.id);
    expect(delivery?.event).toBe("output.failed");

    expect(await deliverDue(db, deps, { now: t0 })).toMatchObject({ delivered: 1 });
    const [request] = r.received;
    expect(request?.headers["secondshift-event"]).toBe("output.failed");
    const body = JSON.parse(request?.body ?? "") as { output: unknown };
    expect(validateEvent(body), JSON.stringify(validateEvent.errors)).toBe(true);
    expect(body.output).toEqual({
      id: output.id,
      kind: "issue",
      state: "failed",
      reason: `GitHub refused the issue (422 Validation Failed): labels are invalid ${MASK}`,
    });
    expect(request?.body).not.toContain(planted);
    expect(request?.body).not.toContain("the token is");
    expect(request?.body).not.toContain(secret);

    // Redeliver (the owner's button): same delivery id, same event, same body.
    await db.webhookDelivery.update({
      where: { id: delivery?.id ?? "" },
      data: { status: "FAILED", nextAttemptAt: null },
    });
    const again = new Date(t0.getTime() + 120_000);
    expect(
      await resetFailedDelivery(db, {
        workspaceId: tenant.workspaceId,
        deliveryId: delivery?.id ?? "",
        now: again,
      }),
    ).toBe("RESET");
    expect(await deliverDue(db, deps, { now: again })).toMatchObject({ delivered: 1 });
    expect(r.received).toHaveLength(2);
    expect(r.received[1]?.headers["secondshift-event"]).toBe("output.failed");
    expect(r.received[1]?.headers["secondshift-delivery"]).toBe(delivery?.id);
    expect(r.received[1]?.body).toBe(request?.body);
  });

  test("[P05] a webhook of another workspace gets nothing, and another workspace's output id is not found", async ({
    db,
    deps,
    receiver,
  }) => {
    const mine = await receiver();
    const theirs = await receiver();
    const tenant = await createTenant(db);
    const other = await createTenant(db);
    await createWebhook(db, keyring, tenant.workspaceId, {
      url: `http://127.0.0.1:${mine.port}/h`,
      secret,
    });
    const otherHook = await createWebhook(db, keyring, other.workspaceId, {
      url: `http://127.0.0.1:${theirs.port}/h`,
      secret: "whsec_other_workspace_0123456",
    });
    const run = await createRun(db, tenant);
    const output = await createOutput(db, tenant, run.id, {
      state: "APPLIED",
      resultUrl: "https://github.com/acme/app/issues/8",
    });

    await expect(
      enqueueOutputEvents(db, { workspaceId: other.workspaceId, outputId: output.id, now: t0 }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    const result = await enqueueOutputEvents(db, {
      workspaceId: tenant.workspaceId,
      outputId: output.id,
      now: t0,
    });
    expect(result.created).toBe(1);
    expect(result.webhookIds).not.toContain(otherHook.id);
    expect(await db.webhookDelivery.count({ where: { webhookId: otherHook.id } })).toBe(0);
    // A row pointing at another workspace's output is refused by the composite foreign key.
    await expect(
      db.webhookDelivery.create({
        data: {
          workspaceId: other.workspaceId,
          webhookId: otherHook.id,
          outputId: output.id,
          event: "output.applied",
        },
      }),
    ).rejects.toThrow();

    await deliverDue(db, deps, { now: t0 });
    expect(mine.received).toHaveLength(1);
    expect(theirs.received).toHaveLength(0);
  });
});
