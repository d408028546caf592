import { randomBytes, randomUUID } from "node:crypto";
import { describe, expect } from "vitest";
import { createKeyring, encryptField } from "@secondshift/crypto";
import type { Db } from "@secondshift/db";
import { dbTest } from "@secondshift/db/testing/vitest";
import { createReplayGuard, gitHubSignatureHeader, signatureHeader } from "@secondshift/webhooks";
import { handlePushWebhook, type PushWebhookDeps } from "./push-webhook.ts";

const keyring = createKeyring(new Uint8Array(randomBytes(32)));
const SECRET = "whsec_planted_push_secret_0123456789";
const now = new Date("2026-01-05T10:00:00.000Z");

/** One repository with a webhook secret, shared by the file's tests. */
const test = dbTest.extend("repository", { scope: "file" }, async ({ db }) => {
  const ws = await db.workspace.create({
    data: { slug: `ws-${randomBytes(4).toString("hex")}`, name: "w" },
  });
  const workspaceId = ws.id;
  const repositoryId = randomUUID();
  await db.repository.create({
    data: {
      id: repositoryId,
      workspaceId,
      fullName: "acme/widgets",
      cloneUrl: "https://git.example.test/acme/widgets.git",
      webhookSecretCiphertext: await encryptField(keyring, SECRET, {
        workspaceId,
        table: "Repository",
        rowId: repositoryId,
        field: "webhookSecretCiphertext",
      }),
    },
  });
  return { workspaceId, repositoryId };
});

function setup(db: Db) {
  const synced: Array<{ workspaceId: string; repositoryId: string }> = [];
  const deps: PushWebhookDeps = {
    keyring,
    replayGuard: createReplayGuard(db, { windowSeconds: 300 }),
    triggerSync: (target) => {
      synced.push(target);
      return Promise.resolve();
    },
  };
  return { deps, synced };
}

const body = Buffer.from(JSON.stringify({ ref: "refs/heads/main", after: "b".repeat(40) }));

describe("handlePushWebhook", () => {
  test("[P08] a valid timestamped signature triggers a sync of that repository", async ({
    db,
    repository: { workspaceId, repositoryId },
  }) => {
    const { deps, synced } = setup(db);
    const headers = { "secondshift-signature": signatureHeader(SECRET, body, now) };
    expect(
      await handlePushWebhook(db, deps, { repositoryId, headers, rawBody: body, now }),
    ).toEqual({ status: 202, message: "Sync started." });
    expect(synced).toEqual([{ workspaceId, repositoryId }]);
    // Marked as requested, so the repositories screen shows it syncing until the sync ends.
    const row = await db.repository.findUniqueOrThrow({ where: { id: repositoryId } });
    expect(row.syncRequestedAt).toEqual(now);
  });

  test("[P08] a tampered body, a wrong secret or a missing signature is rejected and triggers nothing", async ({
    db,
    repository: { repositoryId },
  }) => {
    const { deps, synced } = setup(db);
    const headers = { "SecondShift-Signature": signatureHeader(SECRET, body, now) };
    const tampered = Buffer.from(body.toString().replace("main", "evil"));
    expect(
      (await handlePushWebhook(db, deps, { repositoryId, headers, rawBody: tampered, now })).status,
    ).toBe(401);
    const wrong = {
      "SecondShift-Signature": signatureHeader("whsec_attacker_guess_000000", body, now),
    };
    expect(
      (await handlePushWebhook(db, deps, { repositoryId, headers: wrong, rawBody: body, now }))
        .status,
    ).toBe(401);
    expect(
      (await handlePushWebhook(db, deps, { repositoryId, headers: {}, rawBody: body, now })).status,
    ).toBe(401);
    expect(synced).toEqual([]);
  });

  test("[P08] a replayed delivery is rejected: old timestamp, and the same signature twice within the window", async ({
    db,
    repository: { repositoryId },
  }) => {
    const { deps, synced } = setup(db);
    // Deliveries are remembered in the database shared by this file's tests: sign at a time
    // no other test uses, so this delivery is new.
    const at = new Date(now.getTime() + 7_000);
    const old = {
      "secondshift-signature": signatureHeader(SECRET, body, new Date(at.getTime() - 10 * 60_000)),
    };
    expect(
      (await handlePushWebhook(db, deps, { repositoryId, headers: old, rawBody: body, now: at }))
        .status,
    ).toBe(401);
    const fresh = { "secondshift-signature": signatureHeader(SECRET, body, at) };
    expect(
      (await handlePushWebhook(db, deps, { repositoryId, headers: fresh, rawBody: body, now: at }))
        .status,
    ).toBe(202);
    const again = await handlePushWebhook(db, deps, {
      repositoryId,
      headers: fresh,
      rawBody: body,
      now: new Date(at.getTime() + 60_000),
    });
    expect(again.status).toBe(409);
    expect(synced).toHaveLength(1);
  });

  test("[P08] GitHub's X-Hub-Signature-256 is verified (constant time) and replays of it are refused", async ({
    db,
    repository: { repositoryId },
  }) => {
    const { deps, synced } = setup(db);
    const headers = {
      "X-Hub-Signature-256": gitHubSignatureHeader(SECRET, body),
      "X-GitHub-Event": "push",
    };
    expect(
      (await handlePushWebhook(db, deps, { repositoryId, headers, rawBody: body, now })).status,
    ).toBe(202);
    expect(
      (await handlePushWebhook(db, deps, { repositoryId, headers, rawBody: body, now })).status,
    ).toBe(409);
    const forged = { "X-Hub-Signature-256": gitHubSignatureHeader("not-the-secret-123", body) };
    expect(
      (await handlePushWebhook(db, deps, { repositoryId, headers: forged, rawBody: body, now }))
        .status,
    ).toBe(401);
    expect(synced).toHaveLength(1);
  });

  test("pushes to other branches are acknowledged without a sync; unknown repositories are 404", async ({
    db,
    repository: { repositoryId },
  }) => {
    const { deps, synced } = setup(db);
    const other = Buffer.from(JSON.stringify({ ref: "refs/heads/feature" }));
    const headers = { "secondshift-signature": signatureHeader(SECRET, other, now) };
    const ignored = await handlePushWebhook(db, deps, {
      repositoryId,
      headers,
      rawBody: other,
      now,
    });
    expect(ignored.status).toBe(202);
    expect(ignored.message).toContain("ignored");
    expect(synced).toEqual([]);
    expect(
      (
        await handlePushWebhook(db, deps, {
          repositoryId: randomUUID(),
          headers,
          rawBody: other,
          now,
        })
      ).status,
    ).toBe(404);
  });
});

describe("handlePushWebhook and other GitHub events", () => {
  test("[E01] a signed pull_request delivery never starts a sync", async ({
    db,
    repository: { repositoryId },
  }) => {
    const { deps, synced } = setup(db);
    const pr = Buffer.from(JSON.stringify({ action: "opened", pull_request: { number: 1 } }));
    const headers = {
      "X-Hub-Signature-256": gitHubSignatureHeader(SECRET, pr),
      "X-GitHub-Event": "pull_request",
    };
    const answer = await handlePushWebhook(db, deps, { repositoryId, headers, rawBody: pr, now });
    expect(answer).toEqual({ status: 202, message: "Ignored: only push deliveries start a sync." });
    expect(synced).toEqual([]);
  });
});
