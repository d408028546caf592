// Owner-triggered tool discovery: asks the service what it offers and stores it for the owner
// to choose from. Annotations are kept for display; they are never trusted for enforcement.
import {
  requireRole,
  notFound,
  storeDiscoveredTools,
  type ActorContext,
  type DiscoveredTool,
} from "@secondshift/access";
import type { ConnectionKind, Connector } from "@secondshift/connectors";
import type { Keyring } from "@secondshift/crypto";
import { SecretMasker } from "@secondshift/logging";
import { loadSecrets, type OAuthRefresher } from "./secrets.ts";

export interface ListConnectionToolsInput extends ActorContext {
  keyring: Keyring;
  connectors: Partial<Record<ConnectionKind, Connector>>;
  connectionId: string;
  timeoutMs: number;
  masker?: SecretMasker;
  oauthRefresher?: OAuthRefresher;
}

export async function listConnectionTools(
  input: ListConnectionToolsInput,
): Promise<DiscoveredTool[]> {
  await requireRole(input, "own");
  const { db, workspaceId, connectionId } = input;
  const connection = await db.connection.findFirst({
    where: { id: connectionId, workspaceId, deletedAt: null },
  });
  if (!connection) throw notFound("Connection");
  const connector = input.connectors[connection.kind];
  if (!connector) throw notFound("Connector");
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), input.timeoutMs);
  try {
    const stored = {
      endpoint: connection.endpoint,
      authType: connection.authType,
      authHeaderName: connection.authHeaderName,
      settings: connection.settings as Record<string, unknown>,
      credentialCiphertext: connection.credentialCiphertext,
      oauthAccessTokenCiphertext: connection.oauthAccessTokenCiphertext,
      oauthRefreshTokenCiphertext: connection.oauthRefreshTokenCiphertext,
      oauthAccessTokenExpiresAt: connection.oauthAccessTokenExpiresAt,
      oauthConfig: connection.oauthConfig as Record<string, unknown> | null,
    };
    const secrets = await loadSecrets(
      {
        db,
        keyring: input.keyring,
        masker: input.masker ?? new SecretMasker(),
        refresher: input.oauthRefresher,
        now: () => new Date(),
      },
      { workspaceId, connectionId },
      stored,
      controller.signal,
    );
    const target = {
      connectionId,
      workspaceId,
      kind: connection.kind,
      endpoint: connection.endpoint,
      authType: connection.authType,
      authHeaderName: connection.authHeaderName,
      settings: connection.settings as Record<string, unknown>,
    };
    const tools = await connector.listTools(target, secrets, {
      signal: controller.signal,
      timeoutMs: input.timeoutMs,
    });
    await storeDiscoveredTools(input, { connectionId, tools });
    return tools;
  } finally {
    clearTimeout(timer);
  }
}
