// MCP credentials: static bearer / custom header, OAuth refresh only on expiry, stale-session
// re-initialization, and no credential in results, errors or logs.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createMcpConnector } from "./connector.ts";
import { startFakeMcp, type FakeMcp } from "../testing/fake-mcp.ts";
import { callOptions, testDeps } from "../testing/outbound.ts";
import type { ConnectionTarget } from "../types.ts";

const PLANTED = "sk-planted-credential-6f1d2c9a";

function target(url: string, overrides: Partial<ConnectionTarget> = {}): ConnectionTarget {
  return {
    connectionId: "c-fake",
    workspaceId: "w1",
    kind: "MCP",
    endpoint: url,
    authType: "BEARER",
    authHeaderName: null,
    settings: {},
    ...overrides,
  };
}

function scan(haystack: unknown, needle: string) {
  const text =
    typeof haystack === "string"
      ? haystack
      : JSON.stringify(haystack, Object.getOwnPropertyNames(haystack ?? {}));
  expect(text.includes(needle), `found ${needle}`).toBe(false);
}

describe("MCP credentials", () => {
  let server: FakeMcp;
  const t = testDeps();
  const connector = createMcpConnector(t.deps);

  beforeAll(async () => {
    server = await startFakeMcp();
  });
  afterEach(async () => {
    await connector.close?.();
    server.accepted.clear();
    server.seen.length = 0;
  });
  afterAll(async () => {
    await t.close();
    await server.stop();
  });

  it("[C25] sends the bearer credential to the server and nowhere else", async () => {
    server.accepted.add(`Bearer ${PLANTED}`);
    const tools = await connector.listTools(
      target(server.url),
      { credential: PLANTED },
      callOptions(),
    );
    expect(tools).toEqual([expect.objectContaining({ name: "ping", mayChangeData: false })]);
    const result = await connector.callTool(
      target(server.url),
      { credential: PLANTED },
      "ping",
      {},
      callOptions(),
    );
    expect(result.content[0]?.text).toBe("pong");
    expect(server.seen.every((v) => v === `Bearer ${PLANTED}`)).toBe(true);
    scan(result, PLANTED);
    scan(tools, PLANTED);
    scan(t.logs(), PLANTED);
  });

  it("[C25] a refused credential gives AUTH_FAILED without the credential or the server's echo of it", async () => {
    const error: unknown = await connector
      .callTool(target(server.url), { credential: PLANTED }, "ping", {}, callOptions())
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ reason: "AUTH_FAILED" });
    scan(error, PLANTED);
    scan((error as Error).stack ?? "", PLANTED);
    scan(String((error as Error).cause), PLANTED);
    scan(t.logs(), PLANTED);
  });

  it("[C25] sends a custom header credential", async () => {
    const custom = await startFakeMcp("x-api-key");
    try {
      custom.accepted.add(PLANTED);
      const result = await connector.callTool(
        target(custom.url, { authType: "HEADER", authHeaderName: "X-Api-Key" }),
        { credential: PLANTED },
        "ping",
        {},
        callOptions(),
      );
      expect(result.content[0]?.text).toBe("pong");
      expect(custom.seen).toContain(PLANTED);
      scan(t.logs(), PLANTED);
    } finally {
      await connector.close?.();
      await custom.stop();
    }
  });

  it("re-initializes when the server answers 404 for a stale session", async () => {
    server.accepted.add(`Bearer ${PLANTED}`);
    await connector.callTool(
      target(server.url),
      { credential: PLANTED },
      "ping",
      {},
      callOptions(),
    );
    const before = server.initializeCount();
    server.forgetSessions();
    const result = await connector.callTool(
      target(server.url),
      { credential: PLANTED },
      "ping",
      {},
      callOptions(),
    );
    expect(result.content[0]?.text).toBe("pong");
    expect(server.initializeCount()).toBe(before + 1);
  });

  it("reuses one session for consecutive calls with the same credential", async () => {
    server.accepted.add(`Bearer ${PLANTED}`);
    const before = server.initializeCount();
    for (let i = 0; i < 3; i += 1)
      await connector.callTool(
        target(server.url),
        { credential: PLANTED },
        "ping",
        {},
        callOptions(),
      );
    expect(server.initializeCount()).toBe(before + 1);
    expect(connector.sessionCount()).toBe(1);
  });

  describe("OAuth", () => {
    const oauthTarget = () => target(server.url, { authType: "OAUTH", connectionId: "c-oauth" });

    it("[C26] never refreshes while the access token is valid", async () => {
      server.accepted.add("Bearer access-1");
      const refresh = vi.fn(() => Promise.resolve("access-2"));
      const secrets = {
        credential: null,
        oauth: { accessToken: "access-1", expiresAt: Date.now() + 3_600_000, refresh },
      };
      for (let i = 0; i < 3; i += 1)
        await connector.callTool(oauthTarget(), secrets, "ping", {}, callOptions());
      expect(refresh).not.toHaveBeenCalled();
    });

    it("[C26] refreshes once, before the request, when the access token has expired", async () => {
      server.accepted.add("Bearer access-2");
      const refresh = vi.fn(() => Promise.resolve("access-2"));
      const secrets = {
        credential: null,
        oauth: { accessToken: "access-1", expiresAt: Date.now() - 1_000, refresh },
      };
      const result = await connector.callTool(oauthTarget(), secrets, "ping", {}, callOptions());
      expect(result.content[0]?.text).toBe("pong");
      expect(refresh).toHaveBeenCalledTimes(1);
      // The expired token was never sent.
      expect(server.seen).not.toContain("Bearer access-1");
    });

    it("[C26] refreshes once when the server says the token expired (401), then retries", async () => {
      server.accepted.add("Bearer access-2");
      const refresh = vi.fn(() => Promise.resolve("access-2"));
      const secrets = {
        credential: null,
        oauth: { accessToken: "access-1", expiresAt: null, refresh },
      };
      const result = await connector.callTool(oauthTarget(), secrets, "ping", {}, callOptions());
      expect(result.content[0]?.text).toBe("pong");
      expect(refresh).toHaveBeenCalledTimes(1);
    });

    it("[C26] does not loop: a refreshed token that is refused again fails with AUTH_FAILED", async () => {
      const refresh = vi.fn(() => Promise.resolve("access-still-bad"));
      const secrets = {
        credential: null,
        oauth: { accessToken: "access-1", expiresAt: null, refresh },
      };
      await expect(
        connector.callTool(oauthTarget(), secrets, "ping", {}, callOptions()),
      ).rejects.toMatchObject({ reason: "AUTH_FAILED" });
      expect(refresh).toHaveBeenCalledTimes(1);
    });
  });
});
