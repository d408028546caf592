export type {
  CallOptions,
  CallScope,
  ConnectionKind,
  ConnectionSecrets,
  ConnectionTarget,
  Connector,
  JsonSchema,
  ToolDescriptor,
  ToolResult,
  ToolResultContent,
} from "./types.ts";
export { closeConnectors, createConnectors, disposeRun } from "./factory.ts";
export { outboundFromNetguard } from "./shared/deps.ts";
export type { ConnectorDeps, OutboundFetch } from "./shared/deps.ts";
export { connectorReasons, isConnectorError } from "./shared/errors.ts";
export type { ConnectorReason } from "./shared/errors.ts";
export { githubTools } from "./github/tools.ts";
export { sentryTools } from "./sentry/tools.ts";
export { appJwt } from "./github/app-auth.ts";
export { DEFAULT_GITHUB_API } from "./github/connector.ts";
export { DEFAULT_SENTRY_URL } from "./sentry/connector.ts";
export { parseOperations } from "./http/operations.ts";
export type { HttpOperation } from "./http/operations.ts";
export {
  beginMcpOAuth,
  createMcpAuthorizer,
  createMcpOAuthProvider,
  finishMcpOAuth,
  refreshMcpOAuth,
  tokenExpiresAt,
} from "./mcp/oauth.ts";
export type { McpOAuthOptions, McpOAuthSession, McpOAuthStore } from "./mcp/oauth.ts";
export { createRepositoryTokenMinter } from "./github/repository-token.ts";
export type {
  MintRepositoryToken,
  RepositoryInstallation,
  RepositoryToken,
  TokenPermissions,
} from "./github/repository-token.ts";
