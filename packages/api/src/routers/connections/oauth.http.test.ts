// OAuth 2.1 for MCP connections over HTTP, end to end against a loopback MCP server with its
// own authorization server (real wire formats, see testing/oauth-mcp.ts), every request through
// netguard: oauthStart returns an authorization URL with PKCE S256 after dynamic client
// registration; the callback route exchanges the code and stores the tokens encrypted (C23);
// discovery then uses the token. The state is single-use, expiring and bound to the owner who
// started it; no token, verifier or code reaches a response body or a log (P04).
import { randomUUID } from "node:crypto";
import { OAUTH_PENDING_MS } from "@secondshift/domain";
import { testKeyring } from "@secondshift/domain/testing";
import { createMcpAuthorizer } from "@secondshift/connectors";
import { decryptField, hashToken } from "@secondshift/crypto";
import { dbTest } from "@secondshift/db/testing/vitest";
import { describe, expect } from "vitest";
import { startTestApi, type TestApi, type TestBrowser } from "../../testing/index.ts";
import { startFakeOAuthMcp } from "../../testing/oauth-mcp.ts";
import { testDiscovery } from "../../testing/outbound.ts";
import { seedHttpTenant, signedInBrowser } from "../../testing/tenants.ts";

const keyring = testKeyring();

const test = dbTest
  // eslint-disable-next-line no-empty-pattern -- Vitest requires a destructuring pattern here.
  .extend("fake", { scope: "file" }, async ({}, { onCleanup }) => {
    const fake = await startFakeOAuthMcp();
    onCleanup(() => fake.close());
    return fake;
  })
  .extend("wiring", { scope: "file" }, ({ db }, { onCleanup }) => {
    const wiring = testDiscovery(db, keyring);
    onCleanup(() => wiring.close());
    return wiring;
  })
  .extend("api", { scope: "file" }, async ({ db, wiring }, { onCleanup }) => {
    const api = await startTestApi(db, {
      keyring,
      discovery: wiring.discovery,
      mcpOAuth: createMcpAuthorizer(wiring.outbound, "SecondShift test"),
    });
    onCleanup(() => api.close());
    return api;
  })
  .extend("acme", { scope: "file" }, ({ db }) => seedHttpTenant(db, keyring, "acme"))
  .extend("owner", { scope: "file" }, ({ api, acme }) => signedInBrowser(api, acme.emails.owner))
  .extend("admin", { scope: "file" }, ({ api, acme }) => signedInBrowser(api, acme.emails.admin))
  /** The owner adds an MCP connection with OAuth sign-in to the fake server; its id. */
  .extend("oauthConnection", { scope: "file" }, ({ owner, acme, fake }) => async () => {
    const { id } = await owner.trpc.connections.create.mutate({
      workspaceId: acme.workspaceId,
      kind: "MCP",
      label: `oauth-${randomUUID().slice(0, 8)}`,
      endpoint: fake.url,
      authType: "OAUTH",
    });
    return id;
  })
  /** The owner starts the authorization of a connection; the authorization URL. */
  .extend("startOAuth", { scope: "file" }, ({ owner, acme }) => async (connectionId: string) => {
    const { authorizationUrl } = await owner.trpc.connections.oauthStart.mutate({
      workspaceId: acme.workspaceId,
      connectionId,
    });
    return new URL(authorizationUrl!);
  });

const callbackUrl = (api: TestApi) => `${api.origin}/api/oauth/callback`;

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
  test("[C23] PKCE S256 after dynamic registration; the callback stores the tokens encrypted; discovery uses them", async ({
    db,
    api,
    fake,
    acme,
    owner,
    oauthConnection,
    startOAuth,
  }) => {
    const connectionId = await oauthConnection();
    const url = await startOAuth(connectionId);
    const q = url.searchParams;
    expect(url.origin + url.pathname).toBe(`${fake.issuer}/authorize`);
    expect(q.get("response_type")).toBe("code");
    expect(q.get("code_challenge_method")).toBe("S256");
    expect(q.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(q.get("redirect_uri")).toBe(callbackUrl(api));
    expect(q.get("resource")).toBe(fake.url);
    expect(fake.registrations.at(-1)).toMatchObject({
      redirect_uris: [callbackUrl(api)],
      token_endpoint_auth_method: "none",
    });
    const state = q.get("state")!;
    const pending = await db.connection.findUniqueOrThrow({ where: { id: connectionId } });
    expect(Buffer.from(pending.oauthStateHash!)).toEqual(hashToken(state));

    const landed = await land(owner, await approve(url));
    expect(landed.toString()).toBe(
      `${api.origin}/w/${acme.workspaceId}/connections/${connectionId}?oauth=connected`,
    );

    const issued = fake.issued.at(-1)!;
    const verifier = fake.tokenRequests.at(-1)!.get("code_verifier")!;
    expect(verifier.length).toBeGreaterThanOrEqual(43);
    const row = await db.connection.findUniqueOrThrow({ where: { id: connectionId } });
    const ws = acme.workspaceId;
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
      await db.auditEvent.count({ where: { connectionId, action: "connection.authorized" } }),
    ).toBe(1);
    // Authorized: its tools were listed at once with the new token.
    expect((row.discoveredTools as Array<{ name: string }>).map((t) => t.name)).toEqual(["whoami"]);

    const { tools } = await owner.trpc.connections.discover.mutate({
      workspaceId: acme.workspaceId,
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

  test("[C02] the callback is single-use and only the owner who started it can finish it", async ({
    db,
    api,
    owner,
    admin,
    oauthConnection,
    startOAuth,
  }) => {
    const connectionId = await oauthConnection();
    const callback = await approve(await startOAuth(connectionId));
    const byAdmin = await land(admin, callback);
    expect(byAdmin.searchParams.get("oauth")).toBe("failed");
    expect(byAdmin.searchParams.get("reason")).toBe("CONNECTION_NOT_FOUND");
    // The admin's attempt spent the state: the owner starts again, nothing was stored.
    const replay = await land(owner, callback);
    expect(replay.searchParams.get("reason")).toBe("OAUTH_STATE_UNKNOWN");
    const row = await db.connection.findUniqueOrThrow({ where: { id: connectionId } });
    expect(row.oauthAccessTokenCiphertext).toBeNull();

    const again = await approve(await startOAuth(connectionId));
    const signedOut = await land(api.browser(), again);
    expect(signedOut.searchParams.get("reason")).toBe("SIGNED_OUT");
    expect((await land(owner, again)).searchParams.get("oauth")).toBe("connected");
    expect((await land(owner, again)).searchParams.get("reason")).toBe("OAUTH_STATE_UNKNOWN");
  });

  test("an expired authorization and a declined one are refused", async ({
    db,
    api,
    owner,
    oauthConnection,
    startOAuth,
  }) => {
    const connectionId = await oauthConnection();
    const callback = await approve(await startOAuth(connectionId));
    // The API's clock (the accounts clock) passes the ten-minute expiry.
    api.accounts.clock.advance(OAUTH_PENDING_MS + 1000);
    expect((await land(owner, callback)).searchParams.get("reason")).toBe("OAUTH_STATE_UNKNOWN");
    const declined = await land(
      owner,
      `${callbackUrl(api)}?error=access_denied&state=${randomUUID()}`,
    );
    expect(declined.searchParams.get("reason")).toBe("OAUTH_NOT_AUTHORIZED");
    const row = await db.connection.findUniqueOrThrow({ where: { id: connectionId } });
    expect(row.oauthAccessTokenCiphertext).toBeNull();
  });

  test("[C26] once its token expires, the worker's refresher renews it with what the callback stored", async ({
    db,
    fake,
    acme,
    owner,
    oauthConnection,
    startOAuth,
  }) => {
    const connectionId = await oauthConnection();
    await land(owner, await approve(await startOAuth(connectionId)));
    const first = fake.issued.at(-1)!;
    await db.connection.update({
      where: { id: connectionId },
      data: { oauthAccessTokenExpiresAt: new Date(Date.now() - 60_000) },
    });
    const { tools } = await owner.trpc.connections.discover.mutate({
      workspaceId: acme.workspaceId,
      connectionId,
    });
    expect(tools.map((x) => x.name)).toEqual(["whoami"]);
    const renewed = fake.issued.at(-1)!;
    expect(renewed.accessToken).not.toBe(first.accessToken);
    expect(fake.tokenRequests.at(-1)!.get("grant_type")).toBe("refresh_token");
    expect(fake.seenTokens.at(-1)).toBe(renewed.accessToken);
    const row = await db.connection.findUniqueOrThrow({ where: { id: connectionId } });
    expect(
      await open(
        acme.workspaceId,
        row.id,
        "oauthRefreshTokenCiphertext",
        row.oauthRefreshTokenCiphertext!,
      ),
    ).toBe(renewed.refreshToken);
  });

  test("only MCP connections with OAuth sign-in can be started", async ({ fake, acme, owner }) => {
    const { id } = await owner.trpc.connections.create.mutate({
      workspaceId: acme.workspaceId,
      kind: "MCP",
      label: `bearer-${randomUUID().slice(0, 8)}`,
      endpoint: fake.url,
      authType: "BEARER",
      credential: "c",
    });
    const error = await owner.trpc.connections.oauthStart
      .mutate({ workspaceId: acme.workspaceId, connectionId: id })
      .catch((e: unknown) => e as { data?: { reason?: string } });
    expect(error).toMatchObject({ data: { reason: "NOT_AN_OAUTH_CONNECTION" } });
  });
});
