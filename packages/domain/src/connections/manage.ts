// Connections are the owner's: endpoint, credential and the tools jobs may use (C02 — admins
// and viewers can see them, never add or change them). Credentials are encrypted bound to the
// row before insert, so a ciphertext cannot be moved to another row (P06).
import { randomUUID } from "node:crypto";
import { encryptField, type Keyring } from "@secondshift/crypto";
import type { ConnectionAuth, ConnectionKind, Prisma } from "@secondshift/db";
import { AppError } from "@secondshift/errors";
import { recordAudit } from "../audit/record.ts";
import { notFound, requireRole, requireService, type ActorContext } from "../context.ts";
import { readDiscoveredTools, type DiscoveredTool } from "../tools.ts";
import { firstDiscovery, writeDiscoveredTools, type FirstDiscovery } from "./discovered-tools.ts";
import { checkGithubApp } from "./github-app.ts";
import { revokeGrantsUsing } from "./impact.ts";
import { checkDestination } from "../urls.ts";

export interface CreateConnectionInput {
  kind: ConnectionKind;
  label: string;
  endpoint: string;
  authType: ConnectionAuth;
  authHeaderName?: string | null;
  credential?: string | null;
  settings?: Record<string, unknown>;
  oauth?: {
    accessToken: string;
    refreshToken: string | null;
    expiresAt: Date | null;
    config: Record<string, unknown>;
  };
}

/** An owner-typed endpoint: a full http(s) URL with no credentials in it. */
function parseEndpoint(endpoint: string): URL {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new AppError(
      "BAD_REQUEST",
      "The endpoint must be a full URL such as https://mcp.example.com/mcp.",
      { reason: "ENDPOINT_INVALID" },
    );
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new AppError(
      "BAD_REQUEST",
      "The endpoint must use https (plain http only outside production).",
      { reason: "ENDPOINT_INVALID" },
    );
  }
  if (url.username || url.password) {
    throw new AppError(
      "BAD_REQUEST",
      "Put credentials in the credential field, not in the endpoint URL.",
      { reason: "ENDPOINT_HAS_CREDENTIALS" },
    );
  }
  return url;
}

/** The row's secrets, each encrypted bound to this workspace, row and field (P06). */
async function sealSecrets(
  keyring: Keyring,
  row: { workspaceId: string; id: string },
  input: CreateConnectionInput,
) {
  const seal = (field: string, value: string | null | undefined) =>
    value
      ? encryptField(keyring, value, {
          workspaceId: row.workspaceId,
          table: "Connection",
          rowId: row.id,
          field,
        })
      : Promise.resolve(null);
  return {
    credentialCiphertext: await seal("credentialCiphertext", input.credential),
    oauthAccessTokenCiphertext: await seal("oauthAccessTokenCiphertext", input.oauth?.accessToken),
    oauthRefreshTokenCiphertext: await seal(
      "oauthRefreshTokenCiphertext",
      input.oauth?.refreshToken,
    ),
  };
}

export async function createConnection(
  ctx: ActorContext,
  input: CreateConnectionInput,
): Promise<{ id: string; discovery: FirstDiscovery }> {
  await requireRole(ctx, "own");
  const { db, workspaceId, actor } = ctx;
  const keyring = requireService(ctx, "keyring");
  const url = parseEndpoint(input.endpoint);
  checkGithubApp(input);
  await checkDestination(ctx, url, "The endpoint");
  const existing = await db.connection.findFirst({
    where: { workspaceId, kind: input.kind, label: input.label },
    select: { id: true },
  });
  if (existing)
    throw new AppError(
      "CONFLICT",
      `A ${input.kind} connection labelled "${input.label}" already exists.`,
      { reason: "LABEL_TAKEN" },
    );
  const id = randomUUID();
  const data = {
    id,
    workspaceId,
    kind: input.kind,
    label: input.label,
    endpoint: url.toString(),
    authType: input.authType,
    authHeaderName: input.authHeaderName ?? null,
    ...(await sealSecrets(keyring, { workspaceId, id }, input)),
    oauthAccessTokenExpiresAt: input.oauth?.expiresAt ?? null,
    oauthConfig: input.oauth?.config as Prisma.InputJsonValue | undefined,
    settings: (input.settings ?? {}) as Prisma.InputJsonValue,
    createdById: actor.userId,
  };
  await db.$transaction(async (tx) => {
    await tx.connection.create({ data });
    await recordAudit(tx, {
      workspaceId,
      actorType: "USER",
      actorId: actor.userId,
      action: "connection.created",
      targetType: "Connection",
      targetId: id,
      targetLabel: input.label,
      connectionId: id,
    });
  });
  // An MCP server or HTTP API is asked for its tools at once (an OAuth one after authorization).
  const discovery = input.authType === "OAUTH" ? null : await firstDiscovery(ctx, input.kind, id);
  return { id, discovery };
}

/**
 * Soft delete: running jobs see `deletedAt` at their next call and fail (C06). The secrets are
 * dropped at once, the grants that use it are revoked (see getConnectionImpact), and the label
 * is freed so the owner can reconnect under the same name.
 */
export async function deleteConnection(
  ctx: ActorContext,
  input: { connectionId: string },
): Promise<void> {
  await requireRole(ctx, "own");
  const { db, workspaceId, actor } = ctx;
  const connection = await db.connection.findFirst({
    where: { id: input.connectionId, workspaceId, deletedAt: null },
  });
  if (!connection) throw notFound("Connection");
  await db.$transaction(async (tx) => {
    await tx.connection.update({
      where: { id: connection.id },
      data: {
        deletedAt: new Date(),
        label: `${connection.label} (removed ${connection.id})`,
        allowedTools: [],
        credentialCiphertext: null,
        oauthAccessTokenCiphertext: null,
        oauthRefreshTokenCiphertext: null,
        oauthStateHash: null,
        oauthPendingCiphertext: null,
        oauthPendingExpiresAt: null,
      },
    });
    await revokeGrantsUsing(tx, { workspaceId, connectionId: connection.id, userId: actor.userId });
    await recordAudit(tx, {
      workspaceId,
      actorType: "USER",
      actorId: actor.userId,
      action: "connection.deleted",
      targetType: "Connection",
      targetId: connection.id,
      // Its label before the "(removed …)" suffix above.
      targetLabel: connection.label,
      connectionId: connection.id,
    });
  });
}

/** The owner's choice of which discovered tools jobs may use on this connection. */
export async function setAllowedTools(
  ctx: ActorContext,
  input: { connectionId: string; tools: readonly string[] },
): Promise<string[]> {
  await requireRole(ctx, "own");
  const { db, workspaceId, actor } = ctx;
  const connection = await db.connection.findFirst({
    where: { id: input.connectionId, workspaceId, deletedAt: null },
  });
  if (!connection) throw notFound("Connection");
  const discovered = readDiscoveredTools(connection.discoveredTools);
  const unknown = input.tools.filter((t) => !discovered.has(t));
  if (unknown.length > 0) {
    throw new AppError(
      "BAD_REQUEST",
      `These tools are not offered by the connection: ${unknown.join(", ")}. Refresh its tool list first.`,
      {
        reason: "TOOL_NOT_DISCOVERED",
      },
    );
  }
  const tools = [...new Set(input.tools)].sort();
  await db.$transaction(async (tx) => {
    await tx.connection.update({ where: { id: connection.id }, data: { allowedTools: tools } });
    await recordAudit(tx, {
      workspaceId,
      actorType: "USER",
      actorId: actor.userId,
      action: "connection.tools_allowed",
      targetType: "Connection",
      targetId: connection.id,
      targetLabel: connection.label,
      connectionId: connection.id,
    });
  });
  return tools;
}

/**
 * Stores what a discovery found (the owner's discovery call, or a test seeding one). Allowed
 * tools are left to the owner: a tool that disappeared stays allowed but is no longer offered
 * to the review, and a new one is not allowed until the owner ticks it.
 */
export async function storeDiscoveredTools(
  ctx: ActorContext,
  input: { connectionId: string; tools: readonly DiscoveredTool[] },
): Promise<void> {
  await requireRole(ctx, "own");
  const connection = await ctx.db.connection.findFirst({
    where: { id: input.connectionId, workspaceId: ctx.workspaceId, deletedAt: null },
    select: { id: true },
  });
  if (!connection) throw notFound("Connection");
  await writeDiscoveredTools(ctx, connection.id, input.tools);
}
