// The MCP connector against the real @modelcontextprotocol/server-everything on loopback, over
// streamable HTTP and over the legacy SSE transport.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpConnector } from "./connector.ts";
import { startEverything, type RunningServer } from "../testing/everything.ts";
import { callOptions, testDeps } from "../testing/outbound.ts";
import type { ConnectionTarget } from "../types.ts";

const none = { credential: null };

function target(endpoint: string): ConnectionTarget {
  return {
    connectionId: "c-everything",
    workspaceId: "w1",
    kind: "MCP",
    endpoint,
    authType: "NONE",
    authHeaderName: null,
    settings: {},
  };
}

describe.each(["streamableHttp", "sse"] as const)(
  "MCP connector against server-everything (%s)",
  (mode) => {
    let server: RunningServer;
    const t = testDeps();
    const connector = createMcpConnector(t.deps);

    beforeAll(async () => {
      server = await startEverything(mode);
    });
    afterAll(async () => {
      await connector.close?.();
      await t.close();
      await server.stop();
    });

    it("discovers tools with annotations as hints", async () => {
      const tools = await connector.listTools(target(server.url), none, {
        signal: new AbortController().signal,
        timeoutMs: 10_000,
      });
      const names = tools.map((x) => x.name);
      expect(names).toEqual(
        expect.arrayContaining(["echo", "get-sum", "trigger-long-running-operation"]),
      );
      const echo = tools.find((x) => x.name === "echo");
      expect(echo?.inputSchema).toMatchObject({
        type: "object",
        properties: { message: { type: "string" } },
      });
      // No explicit readOnlyHint → shown to the owner as possibly changing data.
      for (const tool of tools)
        expect(tool.mayChangeData).toBe(tool.annotations?.readOnlyHint !== true);
      // The SSE server answers 404 to the streamable-HTTP POST; the connector falls back.
      expect(t.logs().includes("legacy SSE transport")).toBe(mode === "sse");
    });

    it("calls echo and get-sum", async () => {
      const echo = await connector.callTool(
        target(server.url),
        none,
        "echo",
        { message: "hello" },
        callOptions(),
      );
      expect(echo).toMatchObject({ isError: false, truncated: false });
      expect(echo.content[0]?.text).toContain("hello");
      const sum = await connector.callTool(
        target(server.url),
        none,
        "get-sum",
        { a: 2, b: 40 },
        callOptions(),
      );
      expect(sum.content.map((c) => c.text).join("")).toContain("42");
    });

    it("reports progress from the long-running operation", async () => {
      const progress: number[] = [];
      const result = await connector.callTool(
        target(server.url),
        none,
        "trigger-long-running-operation",
        { duration: 1, steps: 3 },
        callOptions({ onProgress: (p: { progress: number }) => progress.push(p.progress) }),
      );
      expect(result.isError).toBe(false);
      expect(progress.length).toBeGreaterThanOrEqual(2);
    });

    it("caps a large result and marks it truncated", async () => {
      const big = "x".repeat(50_000);
      const result = await connector.callTool(
        target(server.url),
        none,
        "echo",
        { message: big },
        callOptions({ maxResultBytes: 1_000 }),
      );
      expect(result.truncated).toBe(true);
      const text = result.content.map((c) => c.text).join("");
      expect(text).toContain("[truncated");
      expect(Buffer.byteLength(text)).toBeLessThan(1_100);
    });

    it("summarises an image instead of passing it raw", async () => {
      const result = await connector.callTool(
        target(server.url),
        none,
        "get-tiny-image",
        {},
        callOptions(),
      );
      const text = result.content.map((c) => c.text).join("\n");
      expect(text).toMatch(/\[image omitted: image\/png, \d+ bytes\]/);
      expect(result.content.every((c) => c.type === "text")).toBe(true);
    });

    it("times out a call that takes longer than the limit", async () => {
      const started = Date.now();
      await expect(
        connector.callTool(
          target(server.url),
          none,
          "trigger-long-running-operation",
          { duration: 5, steps: 5 },
          callOptions({ timeoutMs: 500 }),
        ),
      ).rejects.toMatchObject({ reason: "TIMEOUT" });
      expect(Date.now() - started).toBeLessThan(3_000);
    });
  },
);
