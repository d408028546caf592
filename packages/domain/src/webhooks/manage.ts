// Owner: outgoing webhooks. The URL (it often carries a token) and the signing secret are
// encrypted bound to the row (P06); the secret is returned once, at creation, and neither is
// ever listed (C27).
import { randomUUID } from "node:crypto";
import { encryptField, mintToken } from "@secondshift/crypto";
import type { RunStatus } from "@secondshift/db";
import { recordAudit } from "../audit/record.ts";
import { notFound, requireRole, requireService, type ActorContext } from "../context.ts";
import { checkDestination, parseServiceUrl } from "../urls.ts";
import { webhookAddressProblems } from "./address.ts";

export interface CreateWebhookInput {
  name: string;
  url: string;
  /** Only runs of these job keys (empty: every job). */
  jobKeys?: string[];
  /** Only runs ending in these statuses (empty: every status). */
  statuses?: RunStatus[];
}

export interface WebhookSummary {
  id: string;
  name: string;
  jobKeys: string[];
  statuses: RunStatus[];
  enabled: boolean;
  createdAt: Date;
  /** The outbound policy refused its last delivery (a webhook saved before the save check). */
  addressProblem: string | null;
}

export async function createWebhook(
  ctx: ActorContext,
  input: CreateWebhookInput,
): Promise<{ id: string; secret: string }> {
  await requireRole(ctx, "own");
  const keyring = requireService(ctx, "keyring");
  const { db, workspaceId, actor } = ctx;
  const parsed = parseServiceUrl(input.url, "The webhook URL");
  await checkDestination(ctx, parsed, "The webhook URL");
  const url = parsed.toString();
  const id = randomUUID();
  const secret = mintToken("webhook").token;
  const seal = (field: string, value: string) =>
    encryptField(keyring, value, { workspaceId, table: "Webhook", rowId: id, field });
  const data = {
    id,
    workspaceId,
    name: input.name,
    urlCiphertext: await seal("urlCiphertext", url),
    secretCiphertext: await seal("secretCiphertext", secret),
    jobKeys: [...new Set(input.jobKeys ?? [])],
    statuses: [...new Set(input.statuses ?? [])],
  };
  await db.$transaction(async (tx) => {
    await tx.webhook.create({ data });
    await recordAudit(tx, {
      workspaceId,
      actorType: "USER",
      actorId: actor.userId,
      action: "webhook.created",
      targetType: "Webhook",
      targetId: id,
      targetLabel: input.name,
    });
  });
  return { id, secret };
}

export async function listWebhooks(
  ctx: ActorContext,
  _input: Record<string, never>,
): Promise<WebhookSummary[]> {
  await requireRole(ctx, "read");
  const rows = await ctx.db.webhook.findMany({
    where: { workspaceId: ctx.workspaceId },
    select: { id: true, name: true, jobKeys: true, statuses: true, enabled: true, createdAt: true },
    orderBy: { name: "asc" },
  });
  const problems = await webhookAddressProblems(ctx);
  return rows.map((row) => ({ ...row, addressProblem: problems.get(row.id) ?? null }));
}

/** Deletes the webhook with its deliveries (no more attempts are made). */
export async function deleteWebhook(
  ctx: ActorContext,
  input: { webhookId: string },
): Promise<void> {
  await requireRole(ctx, "own");
  const { db, workspaceId, actor } = ctx;
  await db.$transaction(async (tx) => {
    const where = { id: input.webhookId, workspaceId };
    const webhook = await tx.webhook.findFirst({ where, select: { name: true } });
    if (!webhook) throw notFound("Webhook");
    await tx.webhook.deleteMany({ where });
    await recordAudit(tx, {
      workspaceId,
      actorType: "USER",
      actorId: actor.userId,
      action: "webhook.deleted",
      targetType: "Webhook",
      targetId: input.webhookId,
      targetLabel: webhook.name,
    });
  });
}

export interface UpdateWebhookInput {
  webhookId: string;
  name?: string;
  /** Replaces the job filter (empty: every job). */
  jobKeys?: string[];
  /** Replaces the status filter (empty: every status). */
  statuses?: RunStatus[];
  enabled?: boolean;
}

/** Renames, refilters, pauses or resumes a webhook; its URL and secret are not changed here. */
export async function updateWebhook(ctx: ActorContext, input: UpdateWebhookInput): Promise<void> {
  await requireRole(ctx, "own");
  const { db, workspaceId, actor } = ctx;
  await db.$transaction(async (tx) => {
    const updated = await tx.webhook.updateManyAndReturn({
      where: { id: input.webhookId, workspaceId },
      select: { name: true },
      data: {
        ...(input.name === undefined ? {} : { name: input.name }),
        ...(input.jobKeys === undefined ? {} : { jobKeys: [...new Set(input.jobKeys)] }),
        ...(input.statuses === undefined ? {} : { statuses: [...new Set(input.statuses)] }),
        ...(input.enabled === undefined ? {} : { enabled: input.enabled }),
      },
    });
    const webhook = updated[0];
    if (!webhook) throw notFound("Webhook");
    await recordAudit(tx, {
      workspaceId,
      actorType: "USER",
      actorId: actor.userId,
      action: "webhook.updated",
      targetType: "Webhook",
      targetId: input.webhookId,
      targetLabel: webhook.name,
    });
  });
}
