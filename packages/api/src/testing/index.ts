// A real API server on 127.0.0.1 for tests, and a tiny "browser": a cookie jar over fetch that
// sends our Origin, used both through @trpc/client and for raw attack requests.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type {
  DestinationCheck,
  McpAuthorizer,
  OutboundFetch,
  ToolDiscovery,
  WorkspaceServices,
} from "@secondshift/domain";
import type { WorkspaceCreationPolicy } from "@secondshift/config";
import type { Keyring } from "@secondshift/crypto";
import type { Db } from "@secondshift/db";
import { testAccounts, type TestAccounts } from "@secondshift/accounts/testing";
import { createLogger, createMemorySink } from "@secondshift/logging";
import { createTRPCClient, httpLink, type TRPCClient } from "@trpc/client";
import superjson from "superjson";
import { createApiHandler, isApiPath } from "../http.ts";
import type { AppRouter } from "../root.ts";
import type { RunEventListener } from "../run-events/listener.ts";

export interface TestApi {
  base: string;
  origin: string;
  accounts: TestAccounts;
  logs: () => string;
  /** Every response body any test browser received (for P04 scans). */
  bodies: string[];
  browser(): TestBrowser;
  close(): Promise<void>;
}

export interface TestBrowser {
  cookies: Map<string, string>;
  /** Every Set-Cookie header this browser received, verbatim. */
  setCookies: string[];
  fetch(url: string, init?: RequestInit): Promise<Response>;
  trpc: TRPCClient<AppRouter>;
}

export interface TestApiOptions {
  setupToken?: string | null;
  limits?: Parameters<typeof testAccounts>[2];
  maxBodyBytes?: number;
  runEvents?: RunEventListener;
  streamReauthorizeMs?: number;
  services?: WorkspaceServices;
  keyring?: Keyring;
  workspaceCreation?: WorkspaceCreationPolicy;
  discovery?: ToolDiscovery;
  outbound?: OutboundFetch;
  mcpOAuth?: McpAuthorizer;
  destinations?: DestinationCheck;
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)),
  );
}

export async function startTestApi(db: Db, options: TestApiOptions = {}): Promise<TestApi> {
  const accounts = testAccounts(db, {}, options.limits);
  const sink = createMemorySink();
  // The handler needs the origin, which is known once the server listens.
  const mounted: { handler?: ReturnType<typeof createApiHandler> } = {};
  const server = createServer((req, res) => {
    if (mounted.handler && isApiPath(req.url)) return mounted.handler(req, res);
    res.writeHead(404).end();
  });
  const origin = `http://127.0.0.1:${await listen(server)}`;
  mounted.handler = createApiHandler({
    accounts: accounts.deps,
    publicUrl: origin,
    setupToken: () => options.setupToken ?? null,
    logger: createLogger({ name: "api-test", destination: sink.stream }),
    maxBodyBytes: options.maxBodyBytes,
    runEvents: options.runEvents,
    ...(options.streamReauthorizeMs === undefined
      ? {}
      : { streamReauthorizeMs: options.streamReauthorizeMs }),
    ...(options.services ? { services: options.services } : {}),
    ...(options.keyring ? { keyring: options.keyring } : {}),
    ...(options.workspaceCreation ? { workspaceCreation: options.workspaceCreation } : {}),
    ...(options.discovery ? { discovery: options.discovery } : {}),
    ...(options.outbound ? { outbound: options.outbound } : {}),
    ...(options.mcpOAuth ? { mcpOAuth: options.mcpOAuth } : {}),
    ...(options.destinations ? { destinations: options.destinations } : {}),
  });
  const bodies: string[] = [];
  const base = `${origin}/api/trpc`;
  return {
    base,
    origin,
    accounts,
    logs: () => sink.text(),
    bodies,
    browser: () => testBrowser(base, origin, bodies),
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // A stream still open (a test that failed before its transcript ended) must not keep
      // the server, and the file's fixture clean-up, waiting.
      server.closeAllConnections();
      await closed;
      await accounts.close();
    },
  };
}

/** A cookie-carrying client of the API at `base` sending `origin` (also for a deployed stack). */
export function testBrowser(base: string, origin: string, bodies: string[] = []): TestBrowser {
  const cookies = new Map<string, string>();
  const setCookies: string[] = [];
  async function jarFetch(url: string | URL | Request, init: RequestInit = {}) {
    const headers = new Headers(init.headers);
    if (!headers.has("origin")) headers.set("origin", origin);
    if (cookies.size > 0 && !headers.has("cookie")) {
      headers.set("cookie", [...cookies].map(([k, v]) => `${k}=${v}`).join("; "));
    }
    const response = await fetch(url, { ...init, headers });
    for (const line of response.headers.getSetCookie()) {
      setCookies.push(line);
      const [pair = ""] = line.split(";");
      const [name = "", value = ""] = pair.split("=");
      if (/max-age=0/i.test(line)) cookies.delete(name);
      else cookies.set(name, value);
    }
    bodies.push(await response.clone().text());
    return response;
  }
  const trpc = createTRPCClient<AppRouter>({
    links: [httpLink({ url: base, transformer: superjson, fetch: jarFetch })],
  });
  return { cookies, setCookies, fetch: (url, init) => jarFetch(url, init), trpc };
}
export { startFakeOAuthMcp, type FakeOAuthMcp } from "./oauth-mcp.ts";
export { startFakeProvider, type FakeProvider } from "./fake-provider.ts";
