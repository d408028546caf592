// MCP sessions: streamable HTTP first, the legacy HTTP+SSE transport when the server does not
// speak it, and a small cache so consecutive calls of a run reuse one initialized session.
// Cache keys hold a keyed hash of the credential, never the credential itself.
import { createHmac, randomBytes } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { ConnectionSecrets, ConnectionTarget } from "../types.ts";
import type { ConnectorDeps } from "../shared/deps.ts";
import { connectorError } from "../shared/errors.ts";
import { authorisedFetch, McpAuth } from "./auth-fetch.ts";

export interface McpSession {
  key: string;
  client: Client;
  transport: Transport;
  auth: McpAuth;
  legacy: boolean;
  lastUsed: number;
}

// Per process: a hash in a heap dump or a debug line cannot be tested against guessed tokens.
const cacheKeySecret = randomBytes(32);
const MAX_SESSIONS = 64;
const IDLE_MS = 5 * 60_000;

export function sessionKey(target: ConnectionTarget, secrets: ConnectionSecrets): string {
  // OAuth sessions survive token refreshes (the token is set per request); static credentials
  // get a new session when the owner changes them.
  const material = target.authType === "OAUTH" ? "oauth" : (secrets.credential ?? "");
  const hash = createHmac("sha256", cacheKeySecret)
    .update(`${target.authType}\0${target.authHeaderName ?? ""}\0${material}`)
    .digest("base64url");
  return `${target.connectionId}|${target.endpoint}|${hash}`;
}

/** Statuses with which a server says "I do not speak streamable HTTP" (spec: backwards compatibility). */
function shouldFallBack(error: unknown): boolean {
  return (
    error instanceof StreamableHTTPError &&
    error.code !== undefined &&
    [400, 404, 405].includes(error.code)
  );
}

export class McpSessionPool {
  readonly #sessions = new Map<string, Promise<McpSession>>();
  readonly #sweeper: NodeJS.Timeout;

  constructor(private readonly deps: ConnectorDeps) {
    this.#sweeper = setInterval(() => void this.#sweep(), 30_000);
    this.#sweeper.unref();
  }

  async acquire(
    target: ConnectionTarget,
    secrets: ConnectionSecrets,
    signal: AbortSignal,
    timeoutMs: number,
  ): Promise<McpSession> {
    const key = sessionKey(target, secrets);
    let pending = this.#sessions.get(key);
    const reused = pending !== undefined;
    if (!pending) {
      pending = this.#open(key, target, secrets, signal, timeoutMs);
      this.#sessions.set(key, pending);
      // A failed connect must not poison the cache.
      pending.catch(() => this.#sessions.get(key) === pending && this.#sessions.delete(key));
      if (this.#sessions.size > MAX_SESSIONS) await this.#evictOldest();
    }
    const session = await pending;
    // A new session already holds this call's secrets (and maybe a token refreshed while
    // connecting, which must not be replaced by the expired one the call started with).
    if (reused) session.auth.beginCall(target, secrets);
    session.lastUsed = Date.now();
    return session;
  }

  /** Drops a session (stale id, broken transport); the next acquire initializes a new one. */
  async evict(session: McpSession): Promise<void> {
    const current = this.#sessions.get(session.key);
    if (current && (await current.catch(() => null)) === session)
      this.#sessions.delete(session.key);
    await session.client.close().catch(() => undefined);
  }

  async close(): Promise<void> {
    clearInterval(this.#sweeper);
    const all = [...this.#sessions.values()];
    this.#sessions.clear();
    await Promise.all(
      all.map(async (p) => (await p.catch(() => null))?.client.close().catch(() => undefined)),
    );
  }

  async #open(
    key: string,
    target: ConnectionTarget,
    secrets: ConnectionSecrets,
    signal: AbortSignal,
    timeoutMs: number,
  ): Promise<McpSession> {
    let url: URL;
    try {
      url = new URL(target.endpoint);
    } catch {
      throw connectorError(
        "INVALID_SETTINGS",
        "The MCP connection's endpoint is not a valid URL. Ask the workspace owner to fix it.",
      );
    }
    const auth = new McpAuth(target, secrets, this.deps.now ?? Date.now);
    const fetch = authorisedFetch(this.deps.outbound, auth);
    const requestOptions = { signal, timeout: timeoutMs + 1_000 };
    const log = this.deps.logger.child({ connectionId: target.connectionId });

    const streamable = new StreamableHTTPClientTransport(url, {
      fetch,
      // Resumption after a dropped SSE stream (Last-Event-ID); bounded so a dead server fails fast.
      reconnectionOptions: {
        initialReconnectionDelay: 500,
        maxReconnectionDelay: 5_000,
        reconnectionDelayGrowFactor: 1.5,
        maxRetries: 3,
      },
    });
    const client = this.#client();
    try {
      await client.connect(streamable, requestOptions);
      log.debug({ transport: "streamable-http" }, "mcp: session initialized");
      return this.#track({
        key,
        client,
        transport: streamable,
        auth,
        legacy: false,
        lastUsed: Date.now(),
      });
    } catch (error) {
      await client.close().catch(() => undefined);
      if (!shouldFallBack(error)) throw error;
    }
    log.info(
      { transport: "sse" },
      "mcp: server does not support streamable HTTP; using the legacy SSE transport",
    );
    const legacyClient = this.#client();
    const sse = new SSEClientTransport(url, { fetch });
    await legacyClient.connect(sse, requestOptions);
    return this.#track({
      key,
      client: legacyClient,
      transport: sse,
      auth,
      legacy: true,
      lastUsed: Date.now(),
    });
  }

  #client(): Client {
    // No sampling, elicitation or roots: a run's MCP server must not be able to ask the worker
    // (or the model) for anything.
    return new Client(this.deps.clientInfo, { capabilities: {} });
  }

  #track(session: McpSession): McpSession {
    // A transport that closes (server went away, session deleted) leaves the cache at once.
    session.client.onclose = () => {
      void this.#sessions.get(session.key)?.then(
        (s) => s === session && this.#sessions.delete(session.key),
        () => undefined,
      );
    };
    return session;
  }

  async #sweep(): Promise<void> {
    const now = Date.now();
    for (const pending of [...this.#sessions.values()]) {
      const session = await pending.catch(() => null);
      if (session && now - session.lastUsed > IDLE_MS) await this.evict(session);
    }
  }

  async #evictOldest(): Promise<void> {
    let oldest: McpSession | null = null;
    for (const pending of this.#sessions.values()) {
      const s = await pending.catch(() => null);
      if (s && (!oldest || s.lastUsed < oldest.lastUsed)) oldest = s;
    }
    if (oldest) await this.evict(oldest);
  }

  get size(): number {
    return this.#sessions.size;
  }
}
