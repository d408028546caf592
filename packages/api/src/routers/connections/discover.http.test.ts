// Tool discovery and connection state over HTTP, against the real
// @modelcontextprotocol/server-everything on loopback: the web process's discovery goes
// through netguard (loopback allowed explicitly, as an operator allows an internal host) with
// the connection's stored credential, stores the tools for the allowed-tools checklist, and
// never returns the credential (C25, P04).
import { randomUUID } from "node:crypto";
import { testKeyring } from "@secondshift/domain/testing";
import { startEverything, type RunningServer } from "@secondshift/connectors/testing";
import { dbTest } from "@secondshift/db/testing/vitest";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { startTestApi } from "../../testing/index.ts";
import { testDiscovery } from "../../testing/outbound.ts";
import { seedHttpTenant, signedInBrowser } from "../../testing/tenants.ts";

const keyring = testKeyring();
const credential = `mcp-bearer-${randomUUID()}`;
// The MCP server has nothing to do with the database; it takes up to 20 s to start on a loaded
// machine, so it starts in a hook (hook time, not the first test's).
let everything: RunningServer;
beforeAll(async () => {
  everything = await startEverything("streamableHttp");
}, 60_000);
afterAll(() => everything?.stop());

const test = dbTest
  .extend("wiring", { scope: "file" }, ({ db }, { onCleanup }) => {
    const wiring = testDiscovery(db, keyring);
    onCleanup(() => wiring.close());
    return wiring;
  })
  .extend("api", { scope: "file" }, async ({ db, wiring }, { onCleanup }) => {
    const api = await startTestApi(db, { keyring, discovery: wiring.discovery });
    onCleanup(() => api.close());
    return api;
  })
  .extend("acme", { scope: "file" }, ({ db }) => seedHttpTenant(db, keyring, "acme"))
  .extend("owner", { scope: "file" }, ({ api, acme }) => signedInBrowser(api, acme.emails.owner))
  .extend("viewer", { scope: "file" }, ({ api, acme }) => signedInBrowser(api, acme.emails.viewer))
  /** The owner adds an MCP connection to `endpoint` with the bearer credential; its id. */
  .extend("mcpConnection", { scope: "file" }, ({ owner, acme }) => async (endpoint: string) => {
    const { id } = await owner.trpc.connections.create.mutate({
      workspaceId: acme.workspaceId,
      kind: "MCP",
      label: `everything-${randomUUID().slice(0, 8)}`,
      endpoint,
      authType: "BEARER",
      credential,
    });
    return id;
  });

describe("connections.discover", () => {
  test("[C25] lists the real server's tools through netguard, stores them, and the checklist follows", async ({
    db,
    api,
    wiring,
    acme,
    owner,
    viewer,
    mcpConnection,
  }) => {
    const connectionId = await mcpConnection(everything.url);
    // Created: its tools were listed at once (the first of three discoveries below).
    const created = await db.connection.findUniqueOrThrow({ where: { id: connectionId } });
    expect((created.discoveredTools as unknown[]).length).toBeGreaterThan(0);
    const first = await owner.trpc.connections.discover.mutate({
      workspaceId: acme.workspaceId,
      connectionId,
    });
    const names = first.tools.map((x) => x.name);
    expect(names).toEqual(
      expect.arrayContaining(["echo", "get-sum", "trigger-long-running-operation"]),
    );
    expect(first.tools.every((x) => !x.allowed)).toBe(true);
    // The mark is the server's readOnlyHint; without one a tool shows as possibly changing data.
    const stored = await db.connection.findUniqueOrThrow({ where: { id: connectionId } });
    const hints = new Map(
      (
        stored.discoveredTools as Array<{ name: string; annotations?: { readOnlyHint?: boolean } }>
      ).map((x) => [x.name, x.annotations?.readOnlyHint === true]),
    );
    for (const x of first.tools) expect(x.mayChangeData, x.name).toBe(!hints.get(x.name));
    expect(new Set(first.tools.map((x) => x.mayChangeData))).toEqual(new Set([true, false]));
    expect(first.tools.find((x) => x.name === "echo")?.description).toMatch(/echo/i);

    await owner.trpc.connections.setAllowedTools.mutate({
      workspaceId: acme.workspaceId,
      connectionId,
      tools: ["echo"],
    });
    const again = await owner.trpc.connections.discover.mutate({
      workspaceId: acme.workspaceId,
      connectionId,
    });
    expect(again.tools.filter((x) => x.allowed).map((x) => x.name)).toEqual(["echo"]);

    // Every member sees the stored result; the audit says who asked.
    const detail = await viewer.trpc.connections.get.query({
      workspaceId: acme.workspaceId,
      connectionId,
    });
    expect(detail.tools.map((x) => x.name).sort()).toEqual([...names].sort());
    expect(detail).toMatchObject({ allowedTools: ["echo"], reconnect: null, jobs: [] });
    const audits = await db.auditEvent.count({
      where: { connectionId, action: "connection.tools_discovered", actorId: acme.ownerId },
    });
    expect(audits).toBe(3);

    for (const body of api.bodies) expect(body).not.toContain(credential);
    expect(api.logs()).not.toContain(credential);
    expect(wiring.logs()).not.toContain(credential);
  });

  test("[C21] discovery leaves through netguard: a loopback endpoint the policy does not allow is refused", async ({
    db,
    acme,
    mcpConnection,
  }) => {
    const strict = testDiscovery(db, keyring, { allowLoopback: false });
    const strictApi = await startTestApi(db, { keyring, discovery: strict.discovery });
    try {
      const browser = await signedInBrowser(strictApi, acme.emails.owner);
      const connectionId = await mcpConnection(everything.url);
      const before = await db.connection.findUniqueOrThrow({ where: { id: connectionId } });
      const error = await browser.trpc.connections.discover
        .mutate({ workspaceId: acme.workspaceId, connectionId })
        .catch((e: unknown) => e as { data?: { reason?: string }; message: string });
      // Refused at the resolved address, before connecting; nothing was stored.
      expect(error).toMatchObject({ data: { reason: "ADDRESS_NOT_PUBLIC" } });
      expect((error as { message: string }).message).toMatch(/refused/i);
      const row = await db.connection.findUniqueOrThrow({ where: { id: connectionId } });
      expect(row.discoveredTools).toEqual(before.discoveredTools);
      for (const body of strictApi.bodies) expect(body).not.toContain(credential);
    } finally {
      await strictApi.close();
      await strict.close();
    }
  });

  test("GitHub connections offer the built-in read tools, all marked read-only", async ({
    acme,
    owner,
  }) => {
    const { id: connectionId } = await owner.trpc.connections.create.mutate({
      workspaceId: acme.workspaceId,
      kind: "GITHUB",
      label: `gh-${randomUUID().slice(0, 8)}`,
      endpoint: "https://api.github.com",
      authType: "BEARER",
      credential,
    });
    const { tools } = await owner.trpc.connections.discover.mutate({
      workspaceId: acme.workspaceId,
      connectionId,
    });
    expect(tools.length).toBeGreaterThan(0);
    expect(tools.every((x) => !x.mayChangeData)).toBe(true);
  });
});

describe("connection state", () => {
  test("a connection the OAuth server refused shows reconnect-needed with its message; discovery is refused", async ({
    db,
    acme,
    owner,
    viewer,
    mcpConnection,
  }) => {
    const connectionId = await mcpConnection(everything.url);
    const since = new Date("2026-11-30T12:00:00Z");
    await db.connection.update({
      where: { id: connectionId },
      data: {
        reconnectRequiredAt: since,
        authError: "The service refused to renew this connection's authorization.",
      },
    });
    const listed = await viewer.trpc.connections.list.query({ workspaceId: acme.workspaceId });
    const row = listed.find((c) => c.id === connectionId);
    expect(row?.reconnect).toEqual({
      since,
      message: "The service refused to renew this connection's authorization.",
    });
    const error = await owner.trpc.connections.discover
      .mutate({ workspaceId: acme.workspaceId, connectionId })
      .catch((e: unknown) => e as { data?: { code?: string; reason?: string } });
    expect(error).toMatchObject({
      data: { code: "PRECONDITION_FAILED", reason: "RECONNECT_REQUIRED" },
    });
  });

  test("get lists the jobs whose grant uses the connection", async ({
    db,
    acme,
    viewer,
    mcpConnection,
  }) => {
    const connectionId = await mcpConnection(everything.url);
    const job = await db.job.findFirst({ where: { workspaceId: acme.workspaceId } });
    const jobId =
      job?.id ??
      (
        await db.job.create({
          data: {
            workspaceId: acme.workspaceId,
            repositoryId: acme.repositoryId,
            key: "uses-it",
            name: "uses-it",
            prompt: "p",
            tokenBudget: 1000,
            timeoutSeconds: 60,
            requestedTools: [],
            requestHash: "h",
            status: "APPROVED",
            configCommit: "0".repeat(40),
          },
        })
      ).id;
    const grant = await db.grant.create({
      data: {
        workspaceId: acme.workspaceId,
        jobId,
        requestHash: "h",
        approvedById: acme.ownerId,
        bindings: [{ kind: "MCP", label: "docs", connectionId }],
      },
    });
    const detail = await viewer.trpc.connections.get.query({
      workspaceId: acme.workspaceId,
      connectionId,
    });
    expect(detail.jobs).toEqual([expect.objectContaining({ jobId, grantId: grant.id })]);
  });
});
