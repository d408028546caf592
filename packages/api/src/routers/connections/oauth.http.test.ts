// OAuth 2.1 for MCP connections over HTTP, end to end against a loopback MCP server with its
// own authorization server (real wire formats, see testing/oauth-mcp.ts), every request through
// netguard: oauthStart returns an authorization URL with PKCE S256 after dynamic client
// registration; the callback route exchanges the code and stores the tokens encrypted (C23);
// discovery then uses the token. The state is single-use, expiring and bound to the owner who
// started it; no token, verifier or code reaches a response body or a log (P04).
import { randomUUID } from "node:crypto";
import { OAUTH_PENDING_MS } from "@secondshift/access";
import { testKeyring } from "@secondshift/access/testing";
import { createMcpAuthorizer } from "@secondshift/connectors";
import { decryptField, hashToken } from "@secondshift/crypto";
import { createTestDatabase, type TestDatabase } from "@secondshift/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApi, type TestApi, type TestBrowser } from "../../testing/index.ts";
import { startFakeOAuthMcp, type FakeOAuthMcp } from "../../testing/oauth-mcp.ts";
import { testDiscovery } from "../../testing/outbound.ts";
import { seedHttpTenant, signedInBrowser, type HttpTenant } from "../../testing/tenants.ts";

const keyring = testKeyring();
let t: TestDatabase;
let fake: FakeOAuthMcp;
let wiring: ReturnType<typeof testDiscovery>;
let api: TestApi;
let a: HttpTenant;
let owner: TestBrowser;
let admin: TestBrowser;

beforeAll(async () => {
  t = await createTestDatabase();
  fake = await startFakeOAuthMcp();
  wiring = testDiscovery(t.db, keyring);
  api = await startTestApi(t.db, {
    keyring,
    discovery: wiring.discovery,
    mcpOAuth: createMcpAuthorizer(wiring.outbound, "SecondShift test"),
  });
  a = await seedHttpTenant(t.db, keyring, "acme");
  owner = await signedInBrowser(api, a.emails.owner);
  admin = await signedInBrowser(api, a.emails.admin);
});
afterAll(async () => {
  await api?.close();
  await wiring?.close();
  await fake?.close();
  await t?.drop();
});

const callbackUrl = () => `${api.origin}/api/oauth/callback`;

async function oauthConnection(): Promise<string> {
  const { id } = await owner.trpc.connections.create.mutate({
    workspaceId: a.workspaceId,
    kind: "MCP",
    label: `oauth-${randomUUID().slice(0, 8)}`,
    endpoint: fake.url,
    authType: "OAUTH",
  });
  return id;
}

async function start(connectionId: string): Promise<URL> {
  const { authorizationUrl } = await owner.trpc.connections.oauthStart.mutate({
    workspaceId: a.workspaceId,
    connectionId,
  });
  return new URL(authorizationUrl!);
}

/** The owner approves at the authorization server, which redirects to our callback. */
async function approve(authorizationUrl: URL): Promise<string> {
  const response = await fetch(authorizationUrl, { redirect: "manual" });
  expect(response.status).toBe(302);
  return response.headers.get("location")!;
}

async function land(browser: TestBrowser, callback: string) {
  const response = await browser.fetch(callback, { redirect: "manual" });
  expect(response.status).toBe(303);
  return new URL(response.headers.get("location")!);
}

const open = (workspaceId: string, rowId: string, field: string, value: Uint8Array) =>
  decryptField(keyring, value, { workspaceId, table: "Connection", rowId, field });

describe("connections.oauthStart and the callback", () => {
  it("[C23] PKCE S256 after dynamic registration; the callback stores the tokens encrypted; discovery uses them", async () => {
    const connectionId = await oauthConnection();
    const url = await start(connectionId);
    const q = url.searchParams;
    expect(url.origin + url.pathname).toBe(`${fake.issuer}/authorize`);
    expect(q.get("response_type")).toBe("code");
    expect(q.get("code_challenge_method")).toBe("S256");
    expect(q.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(q.get("redirect_uri")).toBe(callbackUrl());
    expect(q.get("resource")).toBe(fake.url);
    expect(fake.registrations.at(-1)).toMatchObject({
      redirect_uris: [callbackUrl()],
      token_endpoint_auth_method: "none",
    });
    const state = q.get("state")!;
    const pending = await t.db.connection.findUniqueOrThrow({ where: { id: connectionId } });
    expect(Buffer.from(pending.oauthStateHash!)).toEqual(hashToken(state));

    const landed = await land(owner, await approve(url));
    expect(landed.toString()).toBe(
      `${api.origin}/w/${a.workspaceId}/connections/${connectionId}?oauth=connected`,
    );

    const issued = fake.issued.at(-1)!;
    const verifier = fake.tokenRequests.at(-1)!.get("code_verifier")!;
    expect(verifier.length).toBeGreaterThanOrEqual(43);
    const row = await t.db.connection.findUniqueOrThrow({ where: { id: connectionId } });
    const ws = a.workspaceId;
    expect(
      await open(ws, row.id, "oauthAccessTokenCiphertext", row.oauthAccessTokenCiphertext!),
    ).toBe(issued.accessToken);
    expect(
      await open(ws, row.id, "oauthRefreshTokenCiphertext", row.oauthRefreshTokenCiphertext!),
    ).toBe(issued.refreshToken);
    expect(Buffer.from(pending.oauthPendingCiphertext!).toString("latin1")).not.toContain(verifier);
    expect(row.oauthConfig).toMatchObject({
      tokenEndpoint: `${fake.issuer}/token`,
      clientId: q.get("client_id"),
      resource: fake.url,
    });
    expect([row.oauthStateHash, row.oauthPendingCiphertext, row.reconnectRequiredAt]).toEqual([
      null,
      null,
      null,
    ]);
    expect(row.oauthAccessTokenExpiresAt!.getTime()).toBe(
      api.accounts.clock.now().getTime() + 3600_000,
    );
    expect(
      await t.db.auditEvent.count({ where: { connectionId, action: "connection.authorized" } }),
    ).toBe(1);

    const { tools } = await owner.trpc.connections.discover.mutate({
      workspaceId: a.workspaceId,
      connectionId,
    });
    expect(tools.map((x) => x.name)).toEqual(["whoami"]);
    expect(fake.seenTokens).toContain(issued.accessToken);

    const secrets = [issued.accessToken, issued.refreshToken, verifier];
    for (const value of secrets) {
      for (const body of api.bodies) expect(body).not.toContain(value);
      expect(api.logs()).not.toContain(value);
    }
  });

  it("[C02] the callback is single-use and only the owner who started it can finish it", async () => {
    const connectionId = await oauthConnection();
    const callback = await approve(await start(connectionId));
    const byAdmin = await land(admin, callback);
    expect(byAdmin.searchParams.get("oauth")).toBe("failed");
    expect(byAdmin.searchParams.get("reason")).toBe("CONNECTION_NOT_FOUND");
    // The admin's attempt spent the state: the owner starts again, nothing was stored.
    const replay = await land(owner, callback);
    expect(replay.searchParams.get("reason")).toBe("OAUTH_STATE_UNKNOWN");
    const row = await t.db.connection.findUniqueOrThrow({ where: { id: connectionId } });
    expect(row.oauthAccessTokenCiphertext).toBeNull();

    const again = await approve(await start(connectionId));
    const signedOut = await land(api.browser(), again);
    expect(signedOut.searchParams.get("reason")).toBe("SIGNED_OUT");
    expect((await land(owner, again)).searchParams.get("oauth")).toBe("connected");
    expect((await land(owner, again)).searchParams.get("reason")).toBe("OAUTH_STATE_UNKNOWN");
  });

  it("an expired authorization and a declined one are refused", async () => {
    const connectionId = await oauthConnection();
    const callback = await approve(await start(connectionId));
    // The API's clock (the accounts clock) passes the ten-minute expiry.
    api.accounts.clock.advance(OAUTH_PENDING_MS + 1000);
    expect((await land(owner, callback)).searchParams.get("reason")).toBe("OAUTH_STATE_UNKNOWN");
    const declined = await land(
      owner,
      `${callbackUrl()}?error=access_denied&state=${randomUUID()}`,
    );
    expect(declined.searchParams.get("reason")).toBe("OAUTH_NOT_AUTHORIZED");
    const row = await t.db.connection.findUniqueOrThrow({ where: { id: connectionId } });
    expect(row.oauthAccessTokenCiphertext).toBeNull();
  });

  it("[C26] once its token expires, the worker's refresher renews it with what the callback stored", async () => {
    const connectionId = await oauthConnection();
    await land(owner, await approve(await start(connectionId)));
    const first = fake.issued.at(-1)!;
    await t.db.connection.update({
      where: { id: connectionId },
      data: { oauthAccessTokenExpiresAt: new Date(Date.now() - 60_000) },
    });
    const { tools } = await owner.trpc.connections.discover.mutate({
      workspaceId: a.workspaceId,
      connectionId,
    });
    expect(tools.map((x) => x.name)).toEqual(["whoami"]);
    const renewed = fake.issued.at(-1)!;
    expect(renewed.accessToken).not.toBe(first.accessToken);
    expect(fake.tokenRequests.at(-1)!.get("grant_type")).toBe("refresh_token");
    expect(fake.seenTokens.at(-1)).toBe(renewed.accessToken);
    const row = await t.db.connection.findUniqueOrThrow({ where: { id: connectionId } });
    expect(
      await open(
        a.workspaceId,
        row.id,
        "oauthRefreshTokenCiphertext",
        row.oauthRefreshTokenCiphertext!,
      ),
    ).toBe(renewed.refreshToken);
  });

  it("only MCP connections with OAuth sign-in can be started", async () => {
    const { id } = await owner.trpc.connections.create.mutate({
      workspaceId: a.workspaceId,
      kind: "MCP",
      label: `bearer-${randomUUID().slice(0, 8)}`,
      endpoint: fake.url,
      authType: "BEARER",
      credential: "c",
    });
    const error = await owner.trpc.connections.oauthStart
      .mutate({ workspaceId: a.workspaceId, connectionId: id })
      .catch((e: unknown) => e as { data?: { reason?: string } });
    expect(error).toMatchObject({ data: { reason: "NOT_AN_OAUTH_CONNECTION" } });
  });
});
