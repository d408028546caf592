// The factory wires every connector to the app's guarded fetch: with a production policy, an
// owner endpoint on a loopback or plain-http address is refused by netguard before any socket.
import { createOutboundClient } from "@secondshift/netguard";
import { describe, expect, it } from "vitest";
import { closeConnectors, createConnectors } from "./factory.ts";
import { outboundFromNetguard } from "./shared/deps.ts";
import { callOptions, testDeps } from "./testing/outbound.ts";
import type { ConnectionTarget } from "./types.ts";

describe("createConnectors", () => {
  it("returns one connector per connection kind", async () => {
    const t = testDeps();
    const connectors = createConnectors(t.deps);
    expect(Object.entries(connectors).map(([k, c]) => [k, c.kind])).toEqual([
      ["MCP", "MCP"],
      ["HTTP", "HTTP"],
      ["GITHUB", "GITHUB"],
      ["SENTRY", "SENTRY"],
    ]);
    await closeConnectors(connectors);
    await t.close();
  });

  it.each([
    ["MCP", "https://127.0.0.1:9/mcp", "ping", {}],
    ["HTTP", "http://127.0.0.1:9/api", "get", {}],
    ["GITHUB", "https://127.0.0.1:9/api/v3", "get_issue", { issue_number: 1 }],
    ["SENTRY", "https://10.0.0.1", "list_projects", {}],
  ] as const)(
    "[C21] %s calls go through netguard: a non-public endpoint is refused in production",
    async (kind, endpoint, tool, args) => {
      const client = createOutboundClient({
        production: true,
        allowedPrivateHosts: [],
        allowedPrivateCidrs: [],
      });
      const base = testDeps();
      const connectors = createConnectors({ ...base.deps, outbound: outboundFromNetguard(client) });
      const target: ConnectionTarget = {
        connectionId: "c1",
        workspaceId: "w1",
        kind,
        endpoint,
        authType: "BEARER",
        authHeaderName: null,
        settings: {
          organization: "acme",
          operations: [{ name: "get", method: "GET", pathTemplate: "/x" }],
        },
      };
      const error: unknown = await connectors[kind]
        .callTool(target, { credential: "t" }, tool, args, callOptions())
        .catch((e: unknown) => e);
      expect((error as { reason?: string }).reason).toMatch(
        /^(ADDRESS_NOT_PUBLIC|HTTPS_REQUIRED)$/,
      );
      await closeConnectors(connectors);
      await client.close();
      await base.close();
    },
  );
});
