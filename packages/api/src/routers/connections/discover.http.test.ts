// Tool discovery and connection state over HTTP, against the real
// @modelcontextprotocol/server-everything on loopback: the web process's discovery goes
// through netguard (loopback allowed explicitly, as an operator allows an internal host) with
// the connection's stored credential, stores the tools for the allowed-tools checklist, and
// never returns the credential (C25, P04).
import { randomUUID } from "node:crypto";
import { testKeyring } from "@secondshift/access/testing";
import { startEverything, type RunningServer } from "@secondshift/connectors/testing";
import { createTestDatabase, type TestDatabase } from "@secondshift/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApi, type TestApi, type TestBrowser } from "../../testing/index.ts";
import { testDiscovery } from "../../testing/outbound.ts";
import { seedHttpTenant, signedInBrowser, type HttpTenant } from "../../testing/tenants.ts";

const keyring = testKeyring();
const credential = `mcp-bearer-${randomUUID()}`;
let t: TestDatabase;
let everything: RunningServer;
let wiring: ReturnType<typeof testDiscovery>;
let api: TestApi;
let a: HttpTenant;
let owner: TestBrowser;
let viewer: TestBrowser;

beforeAll(async () => {
  t = await createTestDatabase();
  everything = await startEverything("streamableHttp");
  wiring = testDiscovery(t.db, keyring);
  api = await startTestApi(t.db, { keyring, discovery: wiring.discovery });
  a = await seedHttpTenant(t.db, keyring, "acme");
  owner = await signedInBrowser(api, a.emails.owner);
  viewer = await signedInBrowser(api, a.emails.viewer);
}, 60_000);
afterAll(async () => {
  await api?.close();
  await wiring?.close();
  await everything?.stop();
  await t?.drop();
});

const workspaceId = () => a.workspaceId;

async function mcpConnection(endpoint: string): Promise<string> {
  const { id } = await owner.trpc.connections.create.mutate({
    workspaceId: workspaceId(),
    kind: "MCP",
    label: `everything-${randomUUID().slice(0, 8)}`,
    endpoint,
    authType: "BEARER",
    credential,
  });
  return id;
}

describe("connections.discover", () => {
  it("[C25] lists the real server's tools through netguard, stores them, and the checklist follows", async () => {
    const connectionId = await mcpConnection(everything.url);
    const first = await owner.trpc.connections.discover.mutate({
      workspaceId: workspaceId(),
      connectionId,
    });
    const names = first.tools.map((x) => x.name);
    expect(names).toEqual(
      expect.arrayContaining(["echo", "get-sum", "trigger-long-running-operation"]),
    );
    expect(first.tools.every((x) => !x.allowed)).toBe(true);
    // The mark is the server's readOnlyHint; without one a tool shows as possibly changing data.
    const stored = await t.db.connection.findUniqueOrThrow({ where: { id: connectionId } });
    const hints = new Map(
      (
        stored.discoveredTools as Array<{ name: string; annotations?: { readOnlyHint?: boolean } }>
      ).map((x) => [x.name, x.annotations?.readOnlyHint === true]),
    );
    for (const x of first.tools) expect(x.mayChangeData, x.name).toBe(!hints.get(x.name));
    expect(new Set(first.tools.map((x) => x.mayChangeData))).toEqual(new Set([true, false]));
    expect(first.tools.find((x) => x.name === "echo")?.description).toMatch(/echo/i);

    await owner.trpc.connections.setAllowedTools.mutate({
      workspaceId: workspaceId(),
      connectionId,
      tools: ["echo"],
    });
    const again = await owner.trpc.connections.discover.mutate({
      workspaceId: workspaceId(),
      connectionId,
    });
    expect(again.tools.filter((x) => x.allowed).map((x) => x.name)).toEqual(["echo"]);

    // Every member sees the stored result; the audit says who asked.
    const detail = await viewer.trpc.connections.get.query({
      workspaceId: workspaceId(),
      connectionId,
    });
    expect(detail.tools.map((x) => x.name).sort()).toEqual([...names].sort());
    expect(detail).toMatchObject({ allowedTools: ["echo"], reconnect: null, jobs: [] });
    const audits = await t.db.auditEvent.count({
      where: { connectionId, action: "connection.tools_discovered", actorId: a.ownerId },
    });
    expect(audits).toBe(2);

    for (const body of api.bodies) expect(body).not.toContain(credential);
    expect(api.logs()).not.toContain(credential);
    expect(wiring.logs()).not.toContain(credential);
  });

  it("[C21] discovery leaves through netguard: a loopback endpoint the policy does not allow is refused", async () => {
    const strict = testDiscovery(t.db, keyring, { allowLoopback: false });
    const strictApi = await startTestApi(t.db, { keyring, discovery: strict.discovery });
    try {
      const browser = await signedInBrowser(strictApi, a.emails.owner);
      const connectionId = await mcpConnection(everything.url);
      const error = await browser.trpc.connections.discover
        .mutate({ workspaceId: workspaceId(), connectionId })
        .catch((e: unknown) => e as { data?: { reason?: string }; message: string });
      // Refused at the resolved address, before connecting; nothing was stored.
      expect(error).toMatchObject({ data: { reason: "ADDRESS_NOT_PUBLIC" } });
      expect((error as { message: string }).message).toMatch(/refused/i);
      const row = await t.db.connection.findUniqueOrThrow({ where: { id: connectionId } });
      expect(row.discoveredTools).toEqual([]);
      for (const body of strictApi.bodies) expect(body).not.toContain(credential);
    } finally {
      await strictApi.close();
      await strict.close();
    }
  });

  it("GitHub connections offer the built-in read tools, all marked read-only", async () => {
    const { id: connectionId } = await owner.trpc.connections.create.mutate({
      workspaceId: workspaceId(),
      kind: "GITHUB",
      label: `gh-${randomUUID().slice(0, 8)}`,
      endpoint: "https://api.github.com",
      authType: "BEARER",
      credential,
    });
    const { tools } = await owner.trpc.connections.discover.mutate({
      workspaceId: workspaceId(),
      connectionId,
    });
    expect(tools.length).toBeGreaterThan(0);
    expect(tools.every((x) => !x.mayChangeData)).toBe(true);
  });
});

describe("connection state", () => {
  it("a connection the OAuth server refused shows reconnect-needed with its message; discovery is refused", async () => {
    const connectionId = await mcpConnection(everything.url);
    const since = new Date("2026-11-30T12:00:00Z");
    await t.db.connection.update({
      where: { id: connectionId },
      data: {
        reconnectRequiredAt: since,
        authError: "The service refused to renew this connection's authorization.",
      },
    });
    const listed = await viewer.trpc.connections.list.query({ workspaceId: a.workspaceId });
    const row = listed.find((c) => c.id === connectionId);
    expect(row?.reconnect).toEqual({
      since,
      message: "The service refused to renew this connection's authorization.",
    });
    const error = await owner.trpc.connections.discover
      .mutate({ workspaceId: workspaceId(), connectionId })
      .catch((e: unknown) => e as { data?: { code?: string; reason?: string } });
    expect(error).toMatchObject({
      data: { code: "PRECONDITION_FAILED", reason: "RECONNECT_REQUIRED" },
    });
  });

  it("get lists the jobs whose grant uses the connection", async () => {
    const connectionId = await mcpConnection(everything.url);
    const job = await t.db.job.findFirst({ where: { workspaceId: workspaceId() } });
    const jobId =
      job?.id ??
      (
        await t.db.job.create({
          data: {
            workspaceId: workspaceId(),
            repositoryId: a.repositoryId,
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
    const grant = await t.db.grant.create({
      data: {
        workspaceId: workspaceId(),
        jobId,
        requestHash: "h",
        approvedById: a.ownerId,
        bindings: [{ kind: "MCP", label: "docs", connectionId }],
      },
    });
    const detail = await viewer.trpc.connections.get.query({
      workspaceId: workspaceId(),
      connectionId,
    });
    expect(detail.jobs).toEqual([expect.objectContaining({ jobId, grantId: grant.id })]);
  });
});
