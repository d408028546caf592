// Scenario 7: the run's webhook receiver is down (503) when the report is first sent, stays
// down through several retries, then comes back: the report is delivered exactly once, signed,
// every attempt recorded, and the receiver's URL and secret appear nowhere. The retry schedule
// (30 s, 1, 2, 4 min …) is driven with future clock values instead of waiting it out.
import { createOutboundClient } from "@secondshift/netguard";
import { runNow } from "@secondshift/domain";
import {
  deliverDue,
  RETRY_DELAYS_MS,
  SIGNATURE_HEADER,
  verifySignature,
  type DeliveryDeps,
} from "@secondshift/webhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { actAs } from "./harness/actor.ts";
import { loopbackPolicy, startPlatform, type Platform } from "./harness/platform.ts";
import { startReceiver } from "./harness/receiver.ts";
import {
  deliveryPassDone,
  everywhere,
  findLeaks,
  waitFor,
  waitForFinishedRun,
} from "./harness/scenario.ts";
import { seedPlainWorkspace, syncAndApproveAll } from "./harness/seed-plain.ts";
import { createRepository, jobYaml, plantedSecrets } from "./harness/seed.ts";

let p: Platform;
const client = createOutboundClient(loopbackPolicy);
beforeAll(async () => {
  p = await startPlatform();
});
afterAll(async () => {
  await p?.close();
  await client.close();
});

describe("scenario: webhook receiver down, then up", () => {
  it("[P08][C27] the report is retried with backoff and delivered exactly once, signed; URL and secret appear nowhere", async () => {
    const planted = plantedSecrets();
    const receiver = await startReceiver(planted.webhookUrlPath);
    receiver.setUp(false);
    const repo = createRepository({
      ".secondshift.yaml": jobYaml([{ key: "report" }]),
      "README.md": "# Acme\n",
    });
    const ws = await seedPlainWorkspace(p, {
      planted,
      repoDir: repo.dir,
      webhookUrl: receiver.url,
    });
    await syncAndApproveAll(p, ws);
    const job = await p.t.db.job.findFirstOrThrow({
      where: { workspaceId: ws.workspaceId, key: "report" },
    });
    p.model.script([() => ({ text: "Nothing to report." })]);

    // The worker runs for real, its delivery loop included (every 200 ms on the real clock).
    await p.worker.start({ repoSync: false });
    const { runId } = await runNow(actAs(p, ws.workspaceId, ws.adminId), { jobId: job.id });
    const run = await waitForFinishedRun(p, { id: runId });
    expect(run).toMatchObject({ status: "SUCCEEDED", summary: "Nothing to report." });

    // The first attempt is made by the worker's own loop and gets the receiver's 503.
    const first = await waitFor("the first delivery attempt", async () => {
      const row = await p.t.db.webhookDelivery.findFirst({
        where: { workspaceId: ws.workspaceId, runId },
      });
      return row && row.attemptCount === 1 && row.lastStatusCode !== null && row;
    });
    expect(first).toMatchObject({
      status: "PENDING",
      lastStatusCode: 503,
      webhookId: ws.webhookId,
    });
    expect(receiver.received).toHaveLength(0);

    const deps: DeliveryDeps = {
      keyring: p.keyring,
      client,
      masker: p.masker,
      logger: p.logger.child({ service: "delivery-driver" }),
      runLink: (r) => `http://127.0.0.1:3000/runs/${r.id}`,
    };
    const rowOf = () => p.t.db.webhookDelivery.findUniqueOrThrow({ where: { id: first.id } });
    const firstAttempt = await p.t.db.webhookDeliveryAttempt.findFirstOrThrow({
      where: { deliveryId: first.id },
    });

    // Four more failures, each exactly when its backoff has passed and not a second earlier.
    let previous = firstAttempt.createdAt;
    let row = first;
    for (let retry = 0; retry < 4; retry++) {
      const due = row.nextAttemptAt!;
      const base = RETRY_DELAYS_MS[retry]!;
      const gap = due.getTime() - previous.getTime();
      expect(gap).toBeGreaterThanOrEqual(base * 0.9 - 1_000);
      expect(gap).toBeLessThanOrEqual(base * 1.1 + 1_000);
      expect(
        await deliverDue(p.t.db, deps, { now: new Date(due.getTime() - 1_000) }),
      ).toMatchObject({ attempted: 0 });
      expect(await deliverDue(p.t.db, deps, { now: due })).toMatchObject({
        attempted: 1,
        retrying: 1,
      });
      previous = due;
      row = await rowOf();
      expect(row).toMatchObject({
        status: "PENDING",
        attemptCount: retry + 2,
        lastStatusCode: 503,
      });
    }
    expect(receiver.received).toHaveLength(0);

    // The receiver is back: the next due attempt delivers, once.
    receiver.setUp(true);
    const deliveredAt = row.nextAttemptAt!;
    expect(await deliverDue(p.t.db, deps, { now: deliveredAt })).toMatchObject({
      attempted: 1,
      delivered: 1,
    });
    for (const later of [deliveredAt.getTime() + 60_000, deliveredAt.getTime() + 2 * 3_600_000]) {
      expect(await deliverDue(p.t.db, deps, { now: new Date(later) })).toMatchObject({
        attempted: 0,
      });
    }
    // The worker's own loop keeps polling too: one whole pass of it sends nothing more.
    await deliveryPassDone(p);
    expect(receiver.received).toHaveLength(1);
    expect(await rowOf()).toMatchObject({
      status: "DELIVERED",
      attemptCount: 6,
      lastStatusCode: 204,
      lastError: null,
      nextAttemptAt: null,
      deliveredAt,
    });

    const attempts = await p.t.db.webhookDeliveryAttempt.findMany({
      where: { deliveryId: first.id },
      orderBy: { createdAt: "asc" },
    });
    expect(attempts.map((a) => a.statusCode)).toEqual([503, 503, 503, 503, 503, 204]);
    for (const a of attempts.slice(0, 5)) expect(a.error).toBe("The receiver answered HTTP 503.");
    expect(attempts[5]!.error).toBeNull();
    expect(await p.t.db.webhookDelivery.count({ where: { runId } })).toBe(1);

    // [P08] signed over the timestamp of the delivering attempt and the body.
    const [received] = receiver.received;
    expect(received!.path).toBe(planted.webhookUrlPath);
    const header = received!.headers[SIGNATURE_HEADER.toLowerCase()] as string;
    expect(
      verifySignature(header, received!.body, planted.webhookSecret, { now: deliveredAt }).ok,
    ).toBe(true);
    expect(verifySignature(header, received!.body, "wrong-secret", { now: deliveredAt }).ok).toBe(
      false,
    );
    expect(
      verifySignature(header, received!.body + " ", planted.webhookSecret, { now: deliveredAt }).ok,
    ).toBe(false);
    const body = JSON.parse(received!.body) as {
      run: { id: string; status: string };
      job: { key: string };
    };
    expect(body).toMatchObject({ run: { id: runId, status: "succeeded" }, job: { key: "report" } });

    // [C27] the URL (its secret path) and the signing secret: in no attempt, log line, body,
    // run, transcript or model request.
    const places = await everywhere(p, ws.workspaceId, {
      webhookBody: received!.body,
      webhookHeaders: JSON.stringify(received!.headers),
    });
    expect(places.logs).toContain("webhook delivery attempt");
    expect(
      findLeaks(places, {
        webhookUrl: planted.webhookUrlPath,
        webhookSecret: planted.webhookSecret,
        providerKey: planted.providerKey,
      }),
    ).toEqual([]);
    await receiver.close();
  });
});
