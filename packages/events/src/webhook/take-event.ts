// A verified pull_request / issues / issue_comment delivery for a known repository: parsed,
// checked for staleness, then the intake. Shared by the repository hook and the App hook.
import { webhookHeader, type WebhookHeaders } from "@secondshift/repo-sync";
import { parseDelivery } from "../deliveries/parse.ts";
import type { EventName } from "../deliveries/types.ts";
import type { Db } from "@secondshift/db";
import { staleness } from "../freshness.ts";
import { intakeDelivery, summaryMessage } from "../intake.ts";
import { ignored, type EventWebhookDeps, type WebhookResponse } from "./deps.ts";

export interface EventTarget {
  repository: { id: string; workspaceId: string };
  event: EventName;
  headers: WebhookHeaders;
  payload: unknown;
  now: Date;
}

const DELIVERY_ID = /^[\w-]{1,100}$/;

export async function takeEvent(
  db: Db,
  deps: EventWebhookDeps,
  target: EventTarget,
): Promise<WebhookResponse> {
  const deliveryId = webhookHeader(target.headers, "X-GitHub-Delivery");
  if (deliveryId === undefined || !DELIVERY_ID.test(deliveryId))
    return { status: 400, message: "The X-GitHub-Delivery header is missing or malformed." };
  const parsed = parseDelivery(target.event, target.payload);
  if (!parsed.ok) return ignored(parsed.reason);
  const stale = staleness(parsed.delivery.occurredAt, target.now, deps.maxEventAgeSeconds);
  if (stale !== null) return { status: 422, message: stale };
  const summary = await intakeDelivery(db, deps, {
    repository: target.repository,
    delivery: parsed.delivery,
    deliveryId,
    now: target.now,
  });
  return { status: 202, message: summaryMessage(summary) };
}
