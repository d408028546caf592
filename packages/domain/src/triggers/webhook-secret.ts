// Owner: set or rotate a GitHub App connection's webhook secret (issue #25 item 1). GitHub signs
// the App's deliveries with it and the web process verifies them on the connection's own path.
// Made here (random, as a repository's push secret is), encrypted bound to the row (P06) and
// returned once with the path to paste into the App's settings. Rotating replaces it at once:
// deliveries signed with the old secret are refused from then on.
import { encryptField, mintToken } from "@secondshift/crypto";
import { AppError } from "@secondshift/errors";
import { recordAudit } from "../audit/record.ts";
import { notFound, requireRole, requireService, type ActorContext } from "../context.ts";

/** Where a GitHub App connection's deliveries arrive on the web app (the API adds the origin). */
export const githubAppWebhookPath = (connectionId: string): string =>
  `/webhooks/github-app/${connectionId}`;

export interface ConnectionWebhookSecret {
  connectionId: string;
  /** Path of the App's webhook on the web app (the API prefixes the public URL). */
  webhookPath: string;
  /** Shown once: paste it into the GitHub App's "Webhook secret". */
  webhookSecret: string;
}

export async function setConnectionWebhookSecret(
  ctx: ActorContext,
  input: { connectionId: string },
): Promise<ConnectionWebhookSecret> {
  await requireRole(ctx, "own");
  const keyring = requireService(ctx, "keyring");
  const { db, workspaceId, actor } = ctx;
  const where = { id: input.connectionId, workspaceId, deletedAt: null };
  const connection = await db.connection.findFirst({
    where,
    select: { id: true, label: true, authType: true },
  });
  if (!connection) throw notFound("Connection");
  if (connection.authType !== "GITHUB_APP") {
    throw new AppError(
      "BAD_REQUEST",
      "Only a GitHub App connection has a webhook secret: events from a repository added with a token arrive on its push webhook.",
      { reason: "CONNECTION_NOT_GITHUB_APP" },
    );
  }
  const webhookSecret = mintToken("webhook").token;
  const webhookSecretCiphertext = await encryptField(keyring, webhookSecret, {
    workspaceId,
    table: "Connection",
    rowId: connection.id,
    field: "webhookSecretCiphertext",
  });
  await db.$transaction(async (tx) => {
    const rotated = await tx.connection.count({
      where: { ...where, webhookSecretCiphertext: { not: null } },
    });
    const { count } = await tx.connection.updateMany({ where, data: { webhookSecretCiphertext } });
    if (count === 0) throw notFound("Connection");
    await recordAudit(tx, {
      workspaceId,
      actorType: "USER",
      actorId: actor.userId,
      action: "connection.webhook_secret_set",
      targetType: "Connection",
      targetId: connection.id,
      targetLabel: connection.label,
      connectionId: connection.id,
      outcome: rotated > 0 ? "rotated" : "set",
    });
  });
  return {
    connectionId: connection.id,
    webhookPath: githubAppWebhookPath(connection.id),
    webhookSecret,
  };
}

/** Which of these connections have a webhook secret set (reads no ciphertext). */
export async function withWebhookSecret(
  ctx: ActorContext,
  connectionIds: string[],
): Promise<Set<string>> {
  if (connectionIds.length === 0) return new Set();
  const rows = await ctx.db.connection.findMany({
    where: {
      workspaceId: ctx.workspaceId,
      id: { in: connectionIds },
      webhookSecretCiphertext: { not: null },
    },
    select: { id: true },
  });
  return new Set(rows.map((r) => r.id));
}
