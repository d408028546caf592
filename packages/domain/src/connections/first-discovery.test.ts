// A new MCP / HTTP connection is asked for its tools at once; a service that does not answer
// never fails the creation (the owner is told, and discovers again from the page). Kinds with
// built-in tools and OAuth connections (not authorized yet) are not asked.
import { AppError } from "@secondshift/errors";
import { dbTest } from "@secondshift/db/testing/vitest";
import { describe, expect } from "vitest";
import { actorContext, seedTenant, staticDiscovery, testKeyring, tool } from "../testing/index.ts";
import { createConnection } from "./manage.ts";

const keyring = testKeyring();

const test = dbTest.extend("tenants", { scope: "file" }, async ({ db }) => ({
  a: await seedTenant(db, "acme"),
}));

const input = (label: string, overrides: object = {}) => ({
  kind: "MCP" as const,
  label,
  endpoint: "https://service.example/mcp",
  authType: "NONE" as const,
  ...overrides,
});

describe("the first discovery", () => {
  test("stores what the service lists, or says why it listed nothing", async ({
    db,
    tenants: { a },
  }) => {
    const discovery = staticDiscovery([tool("search"), tool("write_page", true)]);
    const owner = actorContext(db, a, a.ownerId, { keyring, discovery });
    const made = await createConnection(owner, input("docs"));
    expect(made.discovery).toEqual({ tools: 2 });
    const row = await db.connection.findUniqueOrThrow({ where: { id: made.id } });
    expect((row.discoveredTools as Array<{ name: string }>).map((t) => t.name)).toEqual([
      "search",
      "write_page",
    ]);

    const down = {
      discover: () =>
        Promise.reject(
          new AppError("BAD_GATEWAY", "Could not connect to the service.", { reason: "X" }),
        ),
    };
    const offline = await createConnection(
      actorContext(db, a, a.ownerId, { keyring, discovery: down }),
      input("offline"),
    );
    expect(offline.discovery).toEqual({ error: "Could not connect to the service." });
    expect(await db.connection.count({ where: { id: offline.id } })).toBe(1);

    // Not asked: GitHub (built-in tools) and OAuth (nothing to present before authorization).
    const before = discovery.calls.length;
    const gh = await createConnection(
      owner,
      input("gh", { kind: "GITHUB", credential: "t", authType: "BEARER" }),
    );
    const oauth = await createConnection(owner, input("sso", { authType: "OAUTH" }));
    expect([gh.discovery, oauth.discovery, discovery.calls.length]).toEqual([null, null, before]);
  });
});
