// The MCP connector: tool discovery for the owner, tool calls for the broker. Server-provided
// annotations are passed on as hints only; results are text, capped, and never raw binary.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { AppError } from "@secondshift/errors";
import type {
  ConnectionSecrets,
  ConnectionTarget,
  Connector,
  ToolDescriptor,
  ToolResult,
} from "../types.ts";
import { startDeadline, type CallDeadline } from "../shared/deadline.ts";
import type { ConnectorDeps } from "../shared/deps.ts";
import { connectorError, isConnectorError, toConnectorError } from "../shared/errors.ts";
import { buildResult } from "../shared/result.ts";
import { callResultToTexts } from "./content.ts";
import { McpSessionPool, type McpSession } from "./session.ts";

const MAX_PAGES = 50;
const MAX_TOOLS = 1_000;

/** A server answered 404 for our session id: the session is gone and must be re-initialized. */
function isStaleSession(error: unknown, session: McpSession): boolean {
  return error instanceof StreamableHTTPError && error.code === 404 && !session.legacy;
}

function mapMcpError(error: unknown, deadline: CallDeadline): AppError {
  if (deadline.timedOut())
    return connectorError("TIMEOUT", "The MCP server did not answer in time.", error);
  if (isConnectorError(error)) return error;
  if (error instanceof UnauthorizedError)
    return connectorError(
      "AUTH_FAILED",
      "The MCP server refused the connection's credential. Ask the workspace owner to check or reconnect it.",
      error,
    );
  if (error instanceof StreamableHTTPError && (error.code === 401 || error.code === 403)) {
    return connectorError(
      "AUTH_FAILED",
      `The MCP server refused the connection's credential (HTTP ${error.code}). Ask the workspace owner to check or reconnect it.`,
      error,
    );
  }
  if (error instanceof StreamableHTTPError)
    return connectorError(
      "UPSTREAM_ERROR",
      `The MCP server answered HTTP ${error.code ?? "error"}.`,
      error,
    );
  if (error instanceof McpError) {
    if (error.code === Number(ErrorCode.RequestTimeout))
      return connectorError("TIMEOUT", "The MCP server did not answer in time.", error);
    // The server's own message is untrusted text; report only the JSON-RPC code.
    return connectorError(
      "PROTOCOL_ERROR",
      `The MCP server answered with JSON-RPC error ${error.code}.`,
      error,
    );
  }
  return toConnectorError(error, "The MCP server", deadline);
}

function toDescriptor(tool: {
  name: string;
  description?: string;
  inputSchema: object;
  annotations?: object;
}): ToolDescriptor {
  const annotations =
    typeof tool.annotations === "object" && tool.annotations !== null
      ? (tool.annotations as Record<string, unknown>)
      : undefined;
  return {
    name: String(tool.name),
    ...(typeof tool.description === "string" ? { description: tool.description } : {}),
    inputSchema: (tool.inputSchema as Record<string, unknown> | undefined) ?? { type: "object" },
    // A hint for the owner's review, never used for enforcement: only an explicit read-only
    // claim marks a tool as not changing data.
    mayChangeData: annotations?.readOnlyHint !== true,
    ...(annotations ? { annotations } : {}),
  };
}

export function createMcpConnector(deps: ConnectorDeps): Connector & { sessionCount(): number } {
  const pool = new McpSessionPool(deps);

  /** Runs `fn` on a session; re-initializes once if the server forgot the session (404). */
  async function withSession<T>(
    target: ConnectionTarget,
    secrets: ConnectionSecrets,
    deadline: CallDeadline,
    timeoutMs: number,
    fn: (client: Client) => Promise<T>,
  ): Promise<T> {
    let session = await pool.acquire(target, secrets, deadline.signal, timeoutMs);
    try {
      return await fn(session.client);
    } catch (error) {
      if (!isStaleSession(error, session)) {
        // A broken transport must not be reused by the next call; server-side errors keep it.
        if (!(error instanceof McpError) || error.code === Number(ErrorCode.ConnectionClosed))
          await pool.evict(session);
        throw error;
      }
      deps.logger.info(
        { connectionId: target.connectionId },
        "mcp: session expired on the server (404); re-initializing",
      );
      await pool.evict(session);
      // The server did not process a request for an unknown session, so retrying it is safe.
      session = await pool.acquire(target, secrets, deadline.signal, timeoutMs);
      return fn(session.client);
    }
  }

  return {
    kind: "MCP",

    async listTools(target, secrets, options) {
      const deadline = startDeadline(options.signal, options.timeoutMs);
      try {
        return await withSession(target, secrets, deadline, options.timeoutMs, async (client) => {
          const tools: ToolDescriptor[] = [];
          let cursor: string | undefined;
          for (let page = 0; page < MAX_PAGES; page += 1) {
            const result = await client.listTools(cursor === undefined ? {} : { cursor }, {
              signal: deadline.signal,
              timeout: options.timeoutMs + 1_000,
            });
            for (const tool of result.tools) tools.push(toDescriptor(tool));
            cursor = result.nextCursor;
            if (!cursor || tools.length >= MAX_TOOLS) break;
          }
          return tools.slice(0, MAX_TOOLS);
        });
      } catch (error) {
        throw mapMcpError(error, deadline);
      } finally {
        deadline.clear();
      }
    },

    async callTool(target, secrets, tool, args, options): Promise<ToolResult> {
      const deadline = startDeadline(options.signal, options.timeoutMs);
      const onProgress = options.onProgress;
      try {
        const result = await withSession(target, secrets, deadline, options.timeoutMs, (client) =>
          client.callTool({ name: tool, arguments: args }, undefined, {
            signal: deadline.signal,
            timeout: options.timeoutMs + 1_000,
            ...(onProgress
              ? {
                  onprogress: (p: { progress: number; total?: number; message?: string }) =>
                    onProgress({
                      progress: p.progress,
                      ...(p.total === undefined ? {} : { total: p.total }),
                      // Progress text is server-controlled: keep it short.
                      ...(typeof p.message === "string"
                        ? { message: p.message.slice(0, 200) }
                        : {}),
                    }),
                }
              : {}),
          }),
        );
        const record = result as Record<string, unknown>;
        return buildResult(
          callResultToTexts(record),
          options.maxResultBytes,
          record.isError === true,
        );
      } catch (error) {
        throw mapMcpError(error, deadline);
      } finally {
        deadline.clear();
      }
    },

    close: () => pool.close(),
    sessionCount: () => pool.size,
  };
}
