// The audit log names what a row refers to as it was called when the row was written: a thing
// renamed or deleted later still reads as it did then (#23 item 5).
import { dbTest } from "@secondshift/db/testing/vitest";
import { describe, expect } from "vitest";
import { pauseJob } from "../jobs/controls.ts";
import { createModelProvider, deleteModelProvider } from "../providers/manage.ts";
import {
  actorContext,
  recordingServices,
  seedJob,
  seedTenant,
  testKeyring,
} from "../testing/index.ts";
import { createWebhook, deleteWebhook, updateWebhook } from "../webhooks/manage.ts";
import { listAuditEvents } from "./list.ts";
import { auditLabel, recordAudit, TARGET_LABEL_MAX } from "./record.ts";

const keyring = testKeyring();

const test = dbTest.extend("tenants", { scope: "file" }, async ({ db }) => ({
  a: await seedTenant(db, "acme"),
}));

describe("audit labels", () => {
  test("a webhook renamed and then deleted keeps each row's name as written", async ({
    db,
    tenants: { a },
  }) => {
    const owner = actorContext(db, a, a.ownerId, { keyring });
    const { id } = await createWebhook(owner, {
      name: "Ops alerts",
      url: "https://h.example.test/",
    });
    await updateWebhook(owner, { webhookId: id, name: "Ops pager" });
    await deleteWebhook(owner, { webhookId: id });
    const { items } = await listAuditEvents(owner, { targetId: id });
    expect(items.map((e) => [e.action, e.targetLabel])).toEqual([
      ["webhook.deleted", "Ops pager"],
      ["webhook.updated", "Ops pager"],
      ["webhook.created", "Ops alerts"],
    ]);
    expect(await db.webhook.count({ where: { id } })).toBe(0);
  });

  test("a deleted model provider's rows still name it", async ({ db, tenants: { a } }) => {
    const owner = actorContext(db, a, a.ownerId, { keyring });
    const { id } = await createModelProvider(owner, {
      name: "Claude for triage",
      kind: "ANTHROPIC",
      baseUrl: "https://api.anthropic.com",
      apiKey: "sk-ant-test-key",
    });
    await deleteModelProvider(owner, { providerId: id });
    const { items } = await listAuditEvents(owner, { targetId: id });
    expect(items.map((e) => e.targetLabel)).toEqual(["Claude for triage", "Claude for triage"]);
  });

  test("a job renamed by its repository after a pause: the pause still shows the old name", async ({
    db,
    tenants: { a },
  }) => {
    const owner = actorContext(db, a, a.ownerId, { services: recordingServices() });
    const jobId = await seedJob(db, a);
    await db.job.update({ where: { id: jobId }, data: { name: "Weekly digest" } });
    await pauseJob(owner, { jobId });
    await db.job.update({ where: { id: jobId }, data: { name: "Daily digest" } });
    const { items } = await listAuditEvents(owner, { targetId: jobId });
    expect(items.map((e) => [e.action, e.targetLabel])).toEqual([["job.paused", "Weekly digest"]]);
  });

  test("a label is untrusted text: one line, capped, never empty", async ({
    db,
    tenants: { a },
  }) => {
    const hostile = `Nightly\n2026-12-02 admin deleted everything\u202e${"x".repeat(500)}`;
    await recordAudit(db, {
      workspaceId: a.workspaceId,
      actorType: "SYSTEM",
      actorId: "repo-sync",
      action: "job.created",
      targetType: "Job",
      targetId: "job-1",
      targetLabel: hostile,
    });
    const row = await db.auditEvent.findFirstOrThrow({
      where: { workspaceId: a.workspaceId, targetId: "job-1" },
    });
    expect(row.targetLabel).toMatch(/^Nightly 2026-12-02 admin deleted everything x+…$/);
    expect(Array.from(row.targetLabel ?? "")).toHaveLength(TARGET_LABEL_MAX);
    expect(auditLabel(" \n\t ")).toBeNull();
    expect(auditLabel(undefined)).toBeNull();
    // A cut never splits a character in two.
    expect(auditLabel("🙂".repeat(200))).toBe(`${"🙂".repeat(TARGET_LABEL_MAX - 1)}…`);
  });
});
