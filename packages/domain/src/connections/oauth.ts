// OAuth 2.1 for MCP connections, in two steps:
//  1. startConnectionOAuth (owner, through the API): discovers the server's authorization
//     server, registers a client if it allows dynamic registration (RFC 7591), and returns the
//     authorization URL with a PKCE S256 challenge and a fresh state. The state is stored only
//     as its SHA-256; the PKCE verifier and the registered client are encrypted bound to the
//     connection row (P06); the pending authorization expires after ten minutes.
//  2. finishConnectionOAuth (the callback route, in the owner's browser): finds the pending
//     authorization by the state's hash and claims it once (single-use, even when two callbacks
//     race), checks that the same user — still an owner — is finishing what they started,
//     exchanges the code with the verifier, and stores the tokens encrypted on the connection.
// The network part is `ctx.mcpOAuth` (connectors, through netguard).
import { randomBytes } from "node:crypto";
import { decryptField, encryptField, hashToken, type Keyring } from "@secondshift/crypto";
import type { Db, Prisma } from "@secondshift/db";
import { AppError } from "@secondshift/errors";
import { recordAudit } from "../audit/record.ts";
import {
  notFound,
  nowOf,
  requireRole,
  requireService,
  type ActorContext,
  type McpAuthorizer,
  type McpOAuthSession,
  type ToolDiscovery,
} from "../context.ts";
import { firstDiscovery, type FirstDiscovery } from "./discovered-tools.ts";

export const OAUTH_PENDING_MS = 10 * 60_000;

interface Pending {
  userId: string;
  redirectUrl: string;
  session: McpOAuthSession;
}

const cell = (workspaceId: string, rowId: string, field: string) => ({
  workspaceId,
  table: "Connection",
  rowId,
  field,
});

const oauthError = (message: string, reason: string) =>
  new AppError("BAD_REQUEST", message, { reason });

export async function startConnectionOAuth(
  ctx: ActorContext,
  input: { connectionId: string; redirectUrl: string },
): Promise<{ authorizationUrl: string | null }> {
  await requireRole(ctx, "own");
  const keyring = requireService(ctx, "keyring");
  const authorizer = requireService(ctx, "mcpOAuth");
  const connection = await ctx.db.connection.findFirst({
    where: { id: input.connectionId, workspaceId: ctx.workspaceId, deletedAt: null },
    select: { id: true, kind: true, authType: true, endpoint: true },
  });
  if (!connection) throw notFound("Connection");
  if (connection.kind !== "MCP" || connection.authType !== "OAUTH")
    throw oauthError(
      "Only an MCP connection with OAuth sign-in can be connected this way.",
      "NOT_AN_OAUTH_CONNECTION",
    );
  const state = randomBytes(32).toString("base64url");
  const session: McpOAuthSession = {};
  const authorizationUrl = await authorizer.begin({
    endpoint: connection.endpoint,
    redirectUrl: input.redirectUrl,
    state,
    session,
  });
  if (!authorizationUrl) return { authorizationUrl: null };
  const pending: Pending = { userId: ctx.actor.userId, redirectUrl: input.redirectUrl, session };
  await ctx.db.connection.update({
    where: { id: connection.id },
    data: {
      oauthStateHash: new Uint8Array(hashToken(state)),
      oauthPendingCiphertext: await encryptField(
        keyring,
        JSON.stringify(pending),
        cell(ctx.workspaceId, connection.id, "oauthPendingCiphertext"),
      ),
      oauthPendingExpiresAt: new Date(nowOf(ctx).getTime() + OAUTH_PENDING_MS),
    },
  });
  return { authorizationUrl };
}

/** Takes the pending authorization named by the state, once; null when none is (still) there. */
async function claimPending(db: Db, state: string, now: Date) {
  const stateHash = new Uint8Array(hashToken(state));
  const row = await db.connection.findUnique({
    where: { oauthStateHash: stateHash },
    select: {
      id: true,
      workspaceId: true,
      kind: true,
      endpoint: true,
      deletedAt: true,
      oauthPendingCiphertext: true,
      oauthPendingExpiresAt: true,
    },
  });
  if (!row?.oauthPendingCiphertext || row.deletedAt) return null;
  const { count } = await db.connection.updateMany({
    where: { id: row.id, oauthStateHash: stateHash },
    data: { oauthStateHash: null, oauthPendingCiphertext: null, oauthPendingExpiresAt: null },
  });
  if (count !== 1 || !row.oauthPendingExpiresAt || row.oauthPendingExpiresAt <= now) return null;
  return row as typeof row & { oauthPendingCiphertext: Uint8Array };
}

/** Non-secret facts the worker's refresher needs (token endpoint, client id, resource). */
function oauthConfigOf(session: McpOAuthSession): Record<string, unknown> {
  const discovery = (session.discoveryState ?? {}) as {
    authorizationServerUrl?: string;
    authorizationServerMetadata?: { token_endpoint?: string; issuer?: string };
    resourceMetadata?: { resource?: string };
  };
  const server = discovery.authorizationServerUrl;
  return {
    tokenEndpoint:
      discovery.authorizationServerMetadata?.token_endpoint ??
      (server ? new URL("/token", server).toString() : null),
    issuer: discovery.authorizationServerMetadata?.issuer ?? server ?? null,
    clientId: session.clientInformation?.client_id ?? null,
    resource: discovery.resourceMetadata?.resource ?? null,
  };
}

export interface FinishOAuthDeps {
  db: Db;
  keyring: Keyring;
  mcpOAuth: McpAuthorizer;
  /** Lists the tools once authorized (absent: the owner discovers them from the page). */
  discovery?: ToolDiscovery;
  now?: () => Date;
}

/**
 * The callback: `userId` is the signed-in user whose browser arrived with `state` and `code`.
 * Not a workspace use case (the workspace is known only from the state), so it is not in the
 * area's index; it authorizes with requireRole once the state names the workspace.
 */
export async function finishConnectionOAuth(
  deps: FinishOAuthDeps,
  input: { userId: string; state: string; code: string },
): Promise<{ workspaceId: string; connectionId: string; discovery: FirstDiscovery }> {
  const now = deps.now ?? (() => new Date());
  const row = await claimPending(deps.db, input.state, now());
  if (!row)
    throw oauthError(
      "This authorization link is no longer valid (used, expired or replaced). Start connecting again.",
      "OAUTH_STATE_UNKNOWN",
    );
  const ctx: ActorContext = {
    db: deps.db,
    actor: { userId: input.userId },
    workspaceId: row.workspaceId,
    keyring: deps.keyring,
    now,
  };
  const pending = JSON.parse(
    await decryptField(
      deps.keyring,
      row.oauthPendingCiphertext,
      cell(row.workspaceId, row.id, "oauthPendingCiphertext"),
    ),
  ) as Pending;
  // Someone else's browser with a leaked callback link must not attach their session to it.
  if (pending.userId !== input.userId) throw notFound("Connection");
  await requireRole(ctx, "own");
  const session = pending.session;
  await deps.mcpOAuth.finish({
    endpoint: row.endpoint,
    redirectUrl: pending.redirectUrl,
    code: input.code,
    session,
  });
  if (!session.tokens?.access_token)
    throw new AppError("BAD_GATEWAY", "The authorization server returned no access token.", {
      reason: "OAUTH_NO_TOKEN",
    });
  await storeTokens(ctx, deps.keyring, row.id, session);
  // Authorized: the server can list its tools now (kept for the owner's checklist).
  const discovery = await firstDiscovery(
    deps.discovery ? { ...ctx, discovery: deps.discovery } : ctx,
    row.kind,
    row.id,
  );
  return { workspaceId: row.workspaceId, connectionId: row.id, discovery };
}

async function storeTokens(
  ctx: ActorContext,
  keyring: Keyring,
  connectionId: string,
  session: McpOAuthSession,
) {
  const tokens = session.tokens!;
  const seal = (field: string, value: string) =>
    encryptField(keyring, value, cell(ctx.workspaceId, connectionId, field));
  const data = {
    oauthAccessTokenCiphertext: await seal("oauthAccessTokenCiphertext", tokens.access_token),
    oauthRefreshTokenCiphertext: tokens.refresh_token
      ? await seal("oauthRefreshTokenCiphertext", tokens.refresh_token)
      : null,
    oauthAccessTokenExpiresAt:
      typeof tokens.expires_in === "number"
        ? new Date(nowOf(ctx).getTime() + tokens.expires_in * 1000)
        : null,
    oauthConfig: oauthConfigOf(session) as Prisma.InputJsonValue,
    reconnectRequiredAt: null,
    authError: null,
  };
  await ctx.db.$transaction(async (tx) => {
    const { label } = await tx.connection.update({
      where: { id: connectionId },
      data,
      select: { label: true },
    });
    await recordAudit(tx, {
      workspaceId: ctx.workspaceId,
      actorType: "USER",
      actorId: ctx.actor.userId,
      action: "connection.authorized",
      targetType: "Connection",
      targetId: connectionId,
      targetLabel: label,
      connectionId,
    });
  });
}
