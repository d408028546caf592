// A small MCP server built from the SDK's own server classes, on 127.0.0.1, for what
// server-everything cannot show: credential checks, 401s, and forgetting sessions (404).
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server as HttpServer } from "node:http";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

export interface FakeMcp {
  url: string;
  /** Header values accepted as credentials (compared to `header`). */
  accepted: Set<string>;
  /** Every credential header value received, in order. */
  seen: string[];
  initializeCount(): number;
  /** Drops all sessions: the next request with an old session id gets 404. */
  forgetSessions(): void;
  stop(): Promise<void>;
}

export async function startFakeMcp(header = "authorization"): Promise<FakeMcp> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const accepted = new Set<string>();
  const seen: string[] = [];
  let initializes = 0;

  function mcpServer(): Server {
    const server = new Server({ name: "fake", version: "1.0.0" }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: [
        {
          name: "ping",
          description: "Answers pong.",
          inputSchema: { type: "object", properties: {} },
          annotations: { readOnlyHint: true },
        },
      ],
    }));
    server.setRequestHandler(CallToolRequestSchema, () => ({
      content: [{ type: "text", text: "pong" }],
    }));
    return server;
  }

  async function body(req: IncomingMessage): Promise<unknown> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString();
    return text ? (JSON.parse(text) as unknown) : undefined;
  }

  const http: HttpServer = createServer((req, res) => {
    void (async () => {
      const credential = req.headers[header];
      const value = Array.isArray(credential) ? credential.join(",") : (credential ?? "");
      seen.push(value);
      if (!accepted.has(value)) {
        res.writeHead(401, {
          "www-authenticate": 'Bearer error="invalid_token"',
          "content-type": "application/json",
        });
        // An unhelpful server that echoes the credential: the connector must never pass this on.
        res.end(JSON.stringify({ error: "invalid_token", received: value }));
        return;
      }
      const parsed = req.method === "POST" ? await body(req) : undefined;
      const sessionId = req.headers["mcp-session-id"];
      if (typeof sessionId === "string") {
        const transport = transports.get(sessionId);
        if (!transport) {
          res.writeHead(404, { "content-type": "application/json" }).end(
            JSON.stringify({
              jsonrpc: "2.0",
              error: { code: -32001, message: "Session not found" },
              id: null,
            }),
          );
          return;
        }
        await transport.handleRequest(req, res, parsed);
        return;
      }
      initializes += 1;
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => void transports.set(id, transport),
      });
      await mcpServer().connect(transport);
      await transport.handleRequest(req, res, parsed);
    })().catch(() => res.headersSent || res.writeHead(500).end());
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const address = http.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    accepted,
    seen,
    initializeCount: () => initializes,
    forgetSessions: () => transports.clear(),
    stop: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
