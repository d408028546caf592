// A loopback MCP server protected by its own OAuth 2.1 authorization server, speaking the real
// wire formats: 401 with `WWW-Authenticate: Bearer resource_metadata=…`, protected resource
// metadata (RFC 9728), authorization server metadata (RFC 8414), dynamic client registration
// (RFC 7591), an authorization endpoint that approves at once and redirects with code and
// state, and a token endpoint that checks the PKCE S256 verifier, the client, the redirect URI
// and the resource (RFC 8707), and refreshes with rotation. The MCP endpoint (the SDK's own server) accepts only tokens it
// issued.
import { createHash, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

interface PendingCode {
  clientId: string;
  redirectUri: string;
  challenge: string;
  resource: string | null;
}

export interface FakeOAuthMcp {
  url: string;
  issuer: string;
  registrations: Array<Record<string, unknown>>;
  authorizeRequests: URL[];
  tokenRequests: URLSearchParams[];
  /** Access tokens issued (the MCP endpoint accepts exactly these). */
  issued: Array<{ accessToken: string; refreshToken: string }>;
  /** Tokens the MCP endpoint received. */
  seenTokens: string[];
  close(): Promise<void>;
}

const json = (res: ServerResponse, status: number, body: unknown) =>
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString();
}

function mcpServer(): Server {
  const server = new Server(
    { name: "oauth-fake", version: "1.0.0" },
    { capabilities: { tools: {} } },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [
      {
        name: "whoami",
        description: "Says which account the token belongs to.",
        inputSchema: { type: "object", properties: {} },
        annotations: { readOnlyHint: true },
      },
    ],
  }));
  server.setRequestHandler(CallToolRequestSchema, () => ({
    content: [{ type: "text", text: "owner@example.test" }],
  }));
  return server;
}

export async function startFakeOAuthMcp(): Promise<FakeOAuthMcp> {
  const codes = new Map<string, PendingCode>();
  const clients = new Map<string, string[]>();
  const state = {
    registrations: [] as Array<Record<string, unknown>>,
    authorizeRequests: [] as URL[],
    tokenRequests: [] as URLSearchParams[],
    issued: [] as Array<{ accessToken: string; refreshToken: string }>,
    seenTokens: [] as string[],
  };
  let origin = "";

  function authorize(url: URL, res: ServerResponse) {
    state.authorizeRequests.push(url);
    const q = url.searchParams;
    const clientId = q.get("client_id") ?? "";
    const redirectUri = q.get("redirect_uri") ?? "";
    if (!clients.get(clientId)?.includes(redirectUri) || q.get("code_challenge_method") !== "S256")
      return json(res, 400, { error: "invalid_request" });
    const code = `code-${randomUUID()}`;
    codes.set(code, {
      clientId,
      redirectUri,
      challenge: q.get("code_challenge") ?? "",
      resource: q.get("resource"),
    });
    const back = new URL(redirectUri);
    back.searchParams.set("code", code);
    back.searchParams.set("state", q.get("state") ?? "");
    res.writeHead(302, { location: back.toString() }).end();
  }

  function issue(res: ServerResponse) {
    const issued = { accessToken: `at-${randomUUID()}`, refreshToken: `rt-${randomUUID()}` };
    state.issued.push(issued);
    json(res, 200, {
      access_token: issued.accessToken,
      refresh_token: issued.refreshToken,
      token_type: "Bearer",
      expires_in: 3600,
    });
  }

  /** RFC 6749 §6 with rotation: the spent refresh token stops working. */
  function refresh(form: URLSearchParams, res: ServerResponse) {
    const spent = state.issued.find((t) => t.refreshToken === form.get("refresh_token"));
    if (
      !spent ||
      !clients.has(form.get("client_id") ?? "") ||
      form.get("resource") !== `${origin}/mcp`
    )
      return json(res, 400, { error: "invalid_grant" });
    spent.refreshToken = `spent-${randomUUID()}`;
    issue(res);
  }

  function token(form: URLSearchParams, res: ServerResponse) {
    state.tokenRequests.push(form);
    if (form.get("grant_type") === "refresh_token") return refresh(form, res);
    const code = codes.get(form.get("code") ?? "");
    codes.delete(form.get("code") ?? "");
    const verifier = form.get("code_verifier") ?? "";
    const challenge = createHash("sha256").update(verifier).digest("base64url");
    if (
      form.get("grant_type") !== "authorization_code" ||
      !code ||
      code.clientId !== form.get("client_id") ||
      code.redirectUri !== form.get("redirect_uri") ||
      code.challenge !== challenge ||
      code.resource !== form.get("resource")
    )
      return json(res, 400, { error: "invalid_grant" });
    issue(res);
  }

  async function mcp(req: IncomingMessage, res: ServerResponse) {
    const presented = (req.headers.authorization ?? "").replace(/^Bearer /, "");
    state.seenTokens.push(presented);
    if (!state.issued.some((t) => t.accessToken === presented)) {
      res
        .writeHead(401, {
          "www-authenticate": `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`,
          "content-type": "application/json",
        })
        .end(JSON.stringify({ error: "invalid_token" }));
      return;
    }
    const body = req.method === "POST" ? (JSON.parse(await readBody(req)) as unknown) : undefined;
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    await mcpServer().connect(transport);
    await transport.handleRequest(req, res, body);
  }

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? "/", origin);
      if (url.pathname === "/mcp") return mcp(req, res);
      if (url.pathname.startsWith("/.well-known/oauth-protected-resource"))
        return json(res, 200, {
          resource: `${origin}/mcp`,
          authorization_servers: [origin],
          scopes_supported: ["tools"],
        });
      if (url.pathname === "/.well-known/oauth-authorization-server")
        return json(res, 200, {
          issuer: origin,
          authorization_endpoint: `${origin}/authorize`,
          token_endpoint: `${origin}/token`,
          registration_endpoint: `${origin}/register`,
          response_types_supported: ["code"],
          grant_types_supported: ["authorization_code", "refresh_token"],
          code_challenge_methods_supported: ["S256"],
          token_endpoint_auth_methods_supported: ["none"],
        });
      if (url.pathname === "/register" && req.method === "POST") {
        const metadata = JSON.parse(await readBody(req)) as Record<string, unknown>;
        state.registrations.push(metadata);
        const clientId = `client-${randomUUID()}`;
        clients.set(clientId, (metadata.redirect_uris as string[]) ?? []);
        return json(res, 201, { ...metadata, client_id: clientId });
      }
      if (url.pathname === "/authorize") return authorize(url, res);
      if (url.pathname === "/token" && req.method === "POST")
        return token(new URLSearchParams(await readBody(req)), res);
      json(res, 404, { error: "not_found" });
    })().catch(() => res.headersSent || res.writeHead(500).end());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(state, {
    url: `${origin}/mcp`,
    issuer: origin,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
