// Sends due run reports, output events and test events. The webhook URL and signing secret are decrypted here and nowhere
// else (C27), registered with the masker at once so no log line can carry them, and used only
// for the one request. The worker calls `deliverDue` on an interval (createDeliveryProcessor);
// all state is in PostgreSQL, so a restart of the worker or of Redis loses nothing.
import { CryptoError, decryptField, type Keyring } from "@secondshift/crypto";
import type { Db } from "@secondshift/db";
import type { Logger, SecretMasker } from "@secondshift/logging";
import type { OutboundClient } from "@secondshift/netguard";
import {
  abandon,
  claim,
  findDue,
  recordAttempt,
  type DueDelivery,
  type RecordedState,
} from "./delivery-state.ts";
import type { WebhookMetrics } from "./metrics.ts";
import { buildOutputEventBody } from "./output-event-body.ts";
import { buildReportBody } from "./report-body.ts";
import { sendAttempt, type AttemptOutcome } from "./send.ts";
import { DELIVERY_HEADER, EVENT_HEADER, SIGNATURE_HEADER, signatureHeader } from "./signature.ts";

export const REPORT_EVENT = "run.finished";
/** An owner's test event (webhooks.testDelivery): same signature, headers and path. */
export const TEST_EVENT = "webhook.test";
export const DEFAULT_ATTEMPT_TIMEOUT_MS = 10_000;

export interface DeliveryDeps {
  keyring: Keyring;
  /** A netguard outbound client (createOutboundClient(policy)); nothing else may send. */
  client: Pick<OutboundClient, "fetch">;
  /** Masks secret values in report bodies and, via the logger's stream, in log lines. */
  masker: SecretMasker;
  logger: Logger;
  /** The run's page in the UI: `${publicUrl}${runPagePath(run.workspaceId, run.id)}`. */
  runLink: (run: { workspaceId: string; id: string }) => string;
  /** Per attempt; default 10 s. */
  timeoutMs?: number;
  /** How long a claim holds before another worker may retry; default 2 × timeout + 30 s. */
  leaseMs?: number;
  /** [0, 1); injectable for deterministic jitter in tests. */
  random?: () => number;
  /** Failed attempts are counted here when given (createWebhookMetrics). */
  metrics?: WebhookMetrics;
}

export interface DeliverySummary {
  attempted: number;
  delivered: number;
  retrying: number;
  failed: number;
}

async function loadDelivery(db: Db, due: DueDelivery) {
  return db.webhookDelivery.findFirst({
    where: { id: due.id, workspaceId: due.workspaceId },
    select: {
      id: true,
      event: true,
      createdAt: true,
      webhook: {
        select: {
          id: true,
          name: true,
          enabled: true,
          urlCiphertext: true,
          secretCiphertext: true,
        },
      },
      run: {
        include: {
          job: { select: { key: true, name: true, repository: { select: { fullName: true } } } },
          outputs: {
            select: { id: true, kind: true, state: true, resultUrl: true, reason: true },
            orderBy: { seq: "asc" },
          },
          triggerEvent: {
            select: {
              kind: true,
              action: true,
              subjectType: true,
              subjectNumber: true,
              subjectTitle: true,
              subjectUrl: true,
              actorLogin: true,
            },
          },
        },
      },
      output: {
        select: {
          id: true,
          workspaceId: true,
          runId: true,
          kind: true,
          state: true,
          resultUrl: true,
          reason: true,
          job: { select: { key: true, name: true, repository: { select: { fullName: true } } } },
        },
      },
    },
  });
}

type LoadedDelivery = NonNullable<Awaited<ReturnType<typeof loadDelivery>>>;

async function decryptTarget(
  keyring: Keyring,
  workspaceId: string,
  webhookId: string,
  row: LoadedDelivery["webhook"],
) {
  const binding = { workspaceId, table: "Webhook", rowId: webhookId };
  const url = await decryptField(keyring, row.urlCiphertext, {
    ...binding,
    field: "urlCiphertext",
  });
  const secret = await decryptField(keyring, row.secretCiphertext, {
    ...binding,
    field: "secretCiphertext",
  });
  return { url, secret };
}

async function attempt(
  deps: DeliveryDeps,
  loaded: LoadedDelivery,
  workspaceId: string,
  now: Date,
): Promise<AttemptOutcome> {
  let target: { url: string; secret: string };
  try {
    target = await decryptTarget(deps.keyring, workspaceId, loaded.webhook.id, loaded.webhook);
  } catch (error) {
    // A ciphertext that fails authentication was altered or moved here from another row, field
    // or workspace (P06): only the owner can fix it. Anything else is the operator's key setup.
    const moved = error instanceof CryptoError && error.reason === "DECRYPTION_FAILED";
    return {
      delivered: false,
      statusCode: null,
      error: moved
        ? "The webhook's stored URL or secret does not decrypt for this webhook: it was altered or copied from another row, field or workspace. Ask the workspace owner to set the webhook's URL and secret again."
        : "The webhook's URL or secret could not be decrypted with the configured keys; check SECONDSHIFT_ENCRYPTION_KEY.",
      durationMs: 0,
    };
  }
  // Masked for this attempt; they leave the masker with it (P02).
  const secrets = deps.masker.scope();
  secrets.add(target.url, target.secret);
  try {
    return await sendTarget(deps, loaded, workspaceId, now, target);
  } finally {
    secrets.close();
  }
}

/**
 * What one delivery sends: a run's report, an output's event (applied / failed, after the
 * report), or for a test delivery a small body that says so and names the webhook. Null for an
 * output that is neither applied nor failed (APPLIED and FAILED are final, so not expected).
 */
function payloadOf(
  deps: DeliveryDeps,
  loaded: LoadedDelivery,
  workspaceId: string,
): { event: string; body: unknown } | null {
  const { run, output } = loaded;
  if (output !== null) {
    const body = buildOutputEventBody(
      {
        output,
        job: output.job,
        repository: output.job.repository,
        link: deps.runLink({ workspaceId, id: output.runId }),
      },
      [deps.masker],
    );
    return body === null ? null : { event: body.event, body };
  }
  if (run === null) {
    return {
      event: TEST_EVENT,
      body: {
        event: TEST_EVENT,
        delivery: loaded.id,
        webhook: { id: loaded.webhook.id, name: loaded.webhook.name },
        sentAt: loaded.createdAt.toISOString(),
        message:
          "A test event from SecondShift. If its signature verifies, this webhook is set up.",
      },
    };
  }
  const body = buildReportBody(
    {
      run,
      job: run.job,
      repository: run.job.repository,
      link: deps.runLink({ workspaceId, id: run.id }),
      outputs: run.outputs,
      event: run.triggerEvent,
    },
    [deps.masker],
  );
  return { event: REPORT_EVENT, body };
}

async function sendTarget(
  deps: DeliveryDeps,
  loaded: LoadedDelivery,
  workspaceId: string,
  now: Date,
  target: { url: string; secret: string },
): Promise<AttemptOutcome> {
  const payload = payloadOf(deps, loaded, workspaceId);
  if (payload === null) {
    return {
      delivered: false,
      statusCode: null,
      error: "The output is no longer applied or failed; there is no event to send.",
      durationMs: 0,
    };
  }
  const body = JSON.stringify(payload.body);
  const outcome = await sendAttempt(deps.client, {
    url: target.url,
    body,
    timeoutMs: deps.timeoutMs ?? DEFAULT_ATTEMPT_TIMEOUT_MS,
    headers: {
      "content-type": "application/json",
      "user-agent": "SecondShift-Webhook/1",
      [EVENT_HEADER]: payload.event,
      [DELIVERY_HEADER]: loaded.id,
      [SIGNATURE_HEADER]: signatureHeader(target.secret, body, now),
    },
  });
  // Belt and braces: our error texts never include the URL, but mask them as if they might.
  return { ...outcome, error: outcome.error === null ? null : deps.masker.mask(outcome.error) };
}

/** Claims, sends and records one due delivery; null when another worker claimed it first. */
export async function processDelivery(
  db: Db,
  deps: DeliveryDeps,
  due: DueDelivery,
  now: Date,
): Promise<RecordedState | null> {
  const leaseMs = deps.leaseMs ?? 2 * (deps.timeoutMs ?? DEFAULT_ATTEMPT_TIMEOUT_MS) + 30_000;
  const claimed = await claim(db, due, now, leaseMs);
  if (claimed === null) return null;
  const log = deps.logger.child({
    deliveryId: due.id,
    workspaceId: due.workspaceId,
    attempt: claimed.number,
  });
  const loaded = await loadDelivery(db, due);
  if (loaded === null) return null;
  if (!loaded.webhook.enabled) {
    await abandon(db, due, claimed, "The webhook was disabled before this report was delivered.");
    log.info({ outcome: "FAILED" }, "webhook disabled; delivery abandoned");
    deps.metrics?.failures.inc({ final: "true" });
    return "FAILED";
  }
  const outcome = await attempt(deps, loaded, due.workspaceId, now);
  const state = await recordAttempt(db, due, claimed, outcome, now, deps.random ?? Math.random);
  if (state === "RETRY" || state === "FAILED")
    deps.metrics?.failures.inc({ final: state === "FAILED" ? "true" : "false" });
  log.info(
    {
      webhookId: loaded.webhook.id,
      runId: loaded.run?.id ?? loaded.output?.runId ?? null,
      outputId: loaded.output?.id ?? null,
      event: loaded.event,
      statusCode: outcome.statusCode,
      durationMs: outcome.durationMs,
      outcome: state,
      error: outcome.error,
    },
    "webhook delivery attempt",
  );
  return state;
}

/** One polling pass: every delivery due at `now` (up to `limit`) is attempted once. */
export async function deliverDue(
  db: Db,
  deps: DeliveryDeps,
  options: { now?: Date; limit?: number; concurrency?: number } = {},
): Promise<DeliverySummary> {
  const now = options.now ?? new Date();
  const summary: DeliverySummary = { attempted: 0, delivered: 0, retrying: 0, failed: 0 };
  const queue = await findDue(db, now, options.limit ?? 25);
  // A few at a time: one slow receiver must not hold up every other workspace's reports.
  const workerCount = Math.min(options.concurrency ?? 4, queue.length);
  const work = async () => {
    for (let due = queue.shift(); due !== undefined; due = queue.shift()) {
      let state: RecordedState | null;
      try {
        state = await processDelivery(db, deps, due, now);
      } catch (error) {
        // A database hiccup on one delivery must not end the pass for the others; the claim's
        // lease runs out and the delivery is tried again later.
        deps.logger.error(
          { err: error, deliveryId: due.id, workspaceId: due.workspaceId },
          "webhook delivery failed unexpectedly",
        );
        continue;
      }
      if (state === null || state === "LOST_CLAIM") continue;
      summary.attempted += 1;
      if (state === "DELIVERED") summary.delivered += 1;
      else if (state === "RETRY") summary.retrying += 1;
      else summary.failed += 1;
    }
  };
  await Promise.all(Array.from({ length: workerCount }, work));
  return summary;
}
