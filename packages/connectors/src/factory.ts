// One connector per connection kind, sharing the app's guarded fetch and logger. The worker
// creates this once; connectors hold only caches (MCP sessions, run-scoped GitHub tokens).
import type { ConnectionKind, Connector } from "./types.ts";
import type { ConnectorDeps } from "./shared/deps.ts";
import { createGithubConnector } from "./github/connector.ts";
import { createHttpConnector } from "./http/connector.ts";
import { createMcpConnector } from "./mcp/connector.ts";
import { createSentryConnector } from "./sentry/connector.ts";

export function createConnectors(deps: ConnectorDeps): Record<ConnectionKind, Connector> {
  return {
    MCP: createMcpConnector(deps),
    HTTP: createHttpConnector(deps),
    GITHUB: createGithubConnector(deps),
    SENTRY: createSentryConnector(deps),
  };
}

/** Ends a run: forgets (and revokes) every credential minted for it. */
export async function disposeRun(
  connectors: Record<ConnectionKind, Connector>,
  runId: string,
): Promise<void> {
  await Promise.all(
    Object.values(connectors).map((c) => c.disposeRun?.(runId) ?? Promise.resolve()),
  );
}

/** Worker shutdown: closes pooled MCP sessions. */
export async function closeConnectors(
  connectors: Record<ConnectionKind, Connector>,
): Promise<void> {
  await Promise.all(Object.values(connectors).map((c) => c.close?.() ?? Promise.resolve()));
}
