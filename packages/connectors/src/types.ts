// The contract between the tool broker and the services it reaches. A connector talks to one
// kind of service; it receives the owner's endpoint and the decrypted credential from the broker
// for one call, and never sees repository configuration.

export type JsonSchema = Record<string, unknown>;

export type ConnectionKind = "MCP" | "HTTP" | "GITHUB" | "SENTRY";

/** A tool as offered to the owner for selection (and snapshotted into a run's frozen plan). */
export interface ToolDescriptor {
  name: string;
  description?: string;
  inputSchema: JsonSchema;
  /** Whether the tool may change data. For MCP this comes from server hints and is shown to
   * the owner, never trusted for enforcement; built-in GitHub/Sentry tools are all read-only. */
  mayChangeData: boolean;
  /** Raw annotations as the service sent them (MCP), for display only. */
  annotations?: Record<string, unknown>;
}

/** What a connector needs to reach the owner's service, as stored on the Connection row. */
export interface ConnectionTarget {
  connectionId: string;
  workspaceId: string;
  kind: ConnectionKind;
  /** Base URL chosen by the owner (MCP endpoint, API base, GitHub/Sentry API base). */
  endpoint: string;
  authType: "NONE" | "BEARER" | "HEADER" | "OAUTH" | "GITHUB_APP";
  authHeaderName: string | null;
  /** Kind-specific non-secret settings (Sentry organization, HTTP operations, GitHub App id). */
  settings: Record<string, unknown>;
}

/** Secrets for one call, decrypted by the broker just before it and dropped after. */
export interface ConnectionSecrets {
  /** Static token / header value / GitHub App private key, as the auth type needs. */
  credential: string | null;
  /** OAuth: current access token and a way to get a fresh one when it has expired. */
  oauth?: {
    accessToken: string | null;
    /** When the access token expires (epoch ms), if the authorization server said so. The
     * connector refreshes only once this has passed, or when the service answers 401. */
    expiresAt?: number | null;
    /** Refreshes with the stored refresh token (worker-side), persists, returns the new token. */
    refresh(): Promise<string>;
  };
}

export interface CallScope {
  /** owner/name of the job's repository: the only repository GitHub tools may touch. */
  repositoryFullName: string | null;
  /** The run this call belongs to. Run-scoped credentials (GitHub App installation tokens) are
   * cached under it and discarded by `disposeRun`; without it nothing is cached. */
  runId?: string;
}

export interface CallOptions {
  signal: AbortSignal;
  timeoutMs: number;
  /** Results longer than this are cut and marked truncated. */
  maxResultBytes: number;
  scope: CallScope;
  /** Progress notifications from long-running tools (MCP), if the caller wants them. */
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
}

export interface ToolResultContent {
  type: "text";
  text: string;
}

export interface ToolResult {
  content: ToolResultContent[];
  isError: boolean;
  truncated: boolean;
}

export interface Connector {
  readonly kind: ConnectionKind;
  /** Tools the service offers, for the owner to choose from. */
  listTools(
    target: ConnectionTarget,
    secrets: ConnectionSecrets,
    options: { signal: AbortSignal; timeoutMs: number },
  ): Promise<ToolDescriptor[]>;
  /**
   * Calls one tool. Arguments were already validated against the snapshotted schema by the
   * broker; the connector still refuses anything outside `scope` before any request is sent.
   */
  callTool(
    target: ConnectionTarget,
    secrets: ConnectionSecrets,
    tool: string,
    args: Record<string, unknown>,
    options: CallOptions,
  ): Promise<ToolResult>;
  /** Forgets (and where possible revokes) credentials minted for one run. Call when it ends. */
  disposeRun?(runId: string): Promise<void>;
  /** Closes pooled sessions (worker shutdown). */
  close?(): Promise<void>;
}
