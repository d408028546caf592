// Tool discovery: asks a connection's service what it offers, with the connection's decrypted
// credential (an expired OAuth token refreshed first, under the row lock like a run's call), for
// the owner to choose from. The owner's use case (`discoverConnectionTools` in
// @secondshift/domain) authorizes, stores and audits; this is the mechanism it reaches through
// `ctx.discovery`. Annotations are kept for display; they are never trusted for enforcement.
import {
  discoverConnectionTools,
  notFound,
  type ActorContext,
  type DiscoveredTool,
  type ToolDiscovery,
} from "@secondshift/domain";
import type { ConnectionKind, Connector } from "@secondshift/connectors";
import type { Keyring } from "@secondshift/crypto";
import type { Db } from "@secondshift/db";
import { AppError } from "@secondshift/errors";
import { SecretMasker } from "@secondshift/logging";
import { loadSecrets, type OAuthRefresher } from "./secrets.ts";

export interface ToolDiscoveryDeps {
  db: Db;
  keyring: Keyring;
  /** Connectors built on netguard's guarded fetch (every request leaves through it, C21). */
  connectors: Partial<Record<ConnectionKind, Connector>>;
  timeoutMs: number;
  masker?: SecretMasker;
  oauthRefresher?: OAuthRefresher;
  now?: () => Date;
}

async function readConnection(db: Db, ids: { workspaceId: string; connectionId: string }) {
  const connection = await db.connection.findFirst({
    where: { id: ids.connectionId, workspaceId: ids.workspaceId, deletedAt: null },
  });
  if (!connection) throw notFound("Connection");
  return connection;
}

export function createToolDiscovery(deps: ToolDiscoveryDeps): ToolDiscovery {
  const masker = deps.masker ?? new SecretMasker();
  return {
    async discover(ids) {
      const connection = await readConnection(deps.db, ids);
      if (connection.reconnectRequiredAt)
        throw new AppError(
          "PRECONDITION_FAILED",
          "This connection must be reconnected before its tools can be listed.",
          { reason: "RECONNECT_REQUIRED" },
        );
      const connector = deps.connectors[connection.kind];
      if (!connector)
        throw new AppError(
          "PRECONDITION_FAILED",
          `Tool discovery for ${connection.kind} connections is not available on this server.`,
          { reason: "CONNECTOR_NOT_WIRED" },
        );
      const settings = connection.settings as Record<string, unknown>;
      // The credential is masked while discovery holds it and leaves the masker afterwards.
      const scope = masker.scope();
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), deps.timeoutMs);
      try {
        const secrets = await loadSecrets(
          {
            db: deps.db,
            keyring: deps.keyring,
            masker: scope,
            refresher: deps.oauthRefresher,
            now: deps.now ?? (() => new Date()),
          },
          ids,
          {
            ...connection,
            settings,
            oauthConfig: connection.oauthConfig as Record<string, unknown> | null,
          },
          controller.signal,
        );
        const target = {
          ...ids,
          kind: connection.kind,
          endpoint: connection.endpoint,
          authType: connection.authType,
          authHeaderName: connection.authHeaderName,
          settings,
        };
        return await connector.listTools(target, secrets, {
          signal: controller.signal,
          timeoutMs: deps.timeoutMs,
        });
      } finally {
        clearTimeout(timer);
        scope.close();
      }
    },
  };
}

export type ListConnectionToolsInput = ActorContext &
  ToolDiscoveryDeps & {
    connectionId: string;
  };

/** The owner's discovery use case with a discovery built from these deps (tests, e2e seed). */
export async function listConnectionTools(
  input: ListConnectionToolsInput,
): Promise<DiscoveredTool[]> {
  const discovery = createToolDiscovery(input);
  let found: DiscoveredTool[] = [];
  await discoverConnectionTools(
    {
      ...input,
      discovery: { discover: async (ids) => (found = await discovery.discover(ids)) },
    },
    { connectionId: input.connectionId },
  );
  return found;
}
