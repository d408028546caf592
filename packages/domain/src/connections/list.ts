// Connections as every member may see them (C02: admins and viewers see, never change). The
// select is explicit: no ciphertext column is ever read here, so none can be returned.
import type { ConnectionAuth, ConnectionKind } from "@secondshift/db";
import { notFound, requireRole, type ActorContext } from "../context.ts";
import { addressProblem } from "../urls.ts";
import { githubAppWebhookPath, withWebhookSecret } from "../triggers/webhook-secret.ts";
import { getConnectionImpact, type AffectedJob } from "./impact.ts";
import {
  connectionTools,
  reconnectNeeded,
  type ConnectionTool,
  type ReconnectNeeded,
} from "./view.ts";

export interface ConnectionSummary {
  id: string;
  kind: ConnectionKind;
  label: string;
  endpoint: string;
  authType: ConnectionAuth;
  allowedTools: string[];
  discoveredTools: Array<{ name: string; mayChangeData: boolean }>;
  /** Set when the OAuth server refused a refresh: calls fail until the owner reconnects. */
  reconnect: ReconnectNeeded | null;
  /** What the outbound policy refuses about the endpoint today (rows saved before the save check). */
  addressProblem: string | null;
  /** A GitHub App connection's webhook: its path and whether a secret is set; null otherwise. */
  webhook: ConnectionWebhook | null;
  createdAt: Date;
}

export interface ConnectionWebhook {
  /** Path on the web app (the API prefixes the public URL). */
  path: string;
  secretSet: boolean;
}

const webhookOf = (
  row: { id: string; authType: ConnectionAuth },
  secrets: ReadonlySet<string>,
): ConnectionWebhook | null =>
  row.authType === "GITHUB_APP"
    ? { path: githubAppWebhookPath(row.id), secretSet: secrets.has(row.id) }
    : null;

export interface ConnectionDetail extends Omit<ConnectionSummary, "discoveredTools"> {
  authHeaderName: string | null;
  /** Kind-specific non-secret settings (Sentry organization, HTTP operations, GitHub App id). */
  settings: Record<string, unknown>;
  tools: ConnectionTool[];
  /** The jobs whose grant uses this connection (deleting it revokes those grants). */
  jobs: AffectedJob[];
  updatedAt: Date;
}

const columns = {
  id: true,
  kind: true,
  label: true,
  endpoint: true,
  authType: true,
  allowedTools: true,
  discoveredTools: true,
  reconnectRequiredAt: true,
  authError: true,
  createdAt: true,
} as const;

export async function listConnections(
  ctx: ActorContext,
  _input: Record<string, never>,
): Promise<ConnectionSummary[]> {
  await requireRole(ctx, "read");
  const rows = await ctx.db.connection.findMany({
    where: { workspaceId: ctx.workspaceId, deletedAt: null },
    select: columns,
    orderBy: { label: "asc" },
  });
  const secrets = await withWebhookSecret(
    ctx,
    rows.filter((r) => r.authType === "GITHUB_APP").map((r) => r.id),
  );
  return rows.map(({ reconnectRequiredAt, authError, discoveredTools, ...row }) => ({
    ...row,
    webhook: webhookOf(row, secrets),
    discoveredTools: connectionTools(discoveredTools, []).map((t) => ({
      name: t.name,
      mayChangeData: t.mayChangeData,
    })),
    reconnect: reconnectNeeded({ reconnectRequiredAt, authError }),
    addressProblem: addressProblem(ctx, row.endpoint, "The endpoint"),
  }));
}

export async function getConnection(
  ctx: ActorContext,
  input: { connectionId: string },
): Promise<ConnectionDetail> {
  await requireRole(ctx, "read");
  const row = await ctx.db.connection.findFirst({
    where: { id: input.connectionId, workspaceId: ctx.workspaceId, deletedAt: null },
    select: { ...columns, authHeaderName: true, settings: true, updatedAt: true },
  });
  if (!row) throw notFound("Connection");
  const { reconnectRequiredAt, authError, discoveredTools, settings, ...rest } = row;
  const [{ jobs }, secrets] = await Promise.all([
    getConnectionImpact(ctx, { connectionId: row.id }),
    withWebhookSecret(ctx, row.authType === "GITHUB_APP" ? [row.id] : []),
  ]);
  return {
    ...rest,
    webhook: webhookOf(row, secrets),
    settings: (settings ?? {}) as Record<string, unknown>,
    tools: connectionTools(discoveredTools, row.allowedTools),
    jobs,
    reconnect: reconnectNeeded({ reconnectRequiredAt, authError }),
    addressProblem: addressProblem(ctx, row.endpoint, "The endpoint"),
  };
}
