// The OAuth connection flow's domain rules, with a stand-in for the network part: the state is
// stored only hashed and works once; an owner demoted since starting cannot finish; tokens are
// encrypted bound to the connection row (P06). Over HTTP against a real authorization server:
// packages/api/src/routers/connections/oauth.http.test.ts.
import { decryptField, hashToken } from "@secondshift/crypto";
import { createTestDatabase, type TestDatabase } from "@secondshift/db/testing";
import { isAppError } from "@secondshift/errors";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  actorContext,
  seedConnection,
  seedTenant,
  stubAuthorizer,
  testKeyring,
  type Tenant,
} from "../testing/index.ts";
import { finishConnectionOAuth, startConnectionOAuth } from "./oauth.ts";

let t: TestDatabase;
let a: Tenant;
const keyring = testKeyring();
const mcpOAuth = stubAuthorizer();

beforeAll(async () => {
  t = await createTestDatabase();
  a = await seedTenant(t.db, "acme");
});
afterAll(async () => t?.drop());

async function started(label: string) {
  const connectionId = await seedConnection(t.db, keyring, a, {
    kind: "MCP",
    label,
    tools: [],
    allowed: [],
    authType: "OAUTH",
  });
  const owner = actorContext(t.db, a, a.ownerId, { keyring, mcpOAuth });
  const { authorizationUrl } = await startConnectionOAuth(owner, {
    connectionId,
    redirectUrl: "https://secondshift.example.test/api/oauth/callback",
  });
  const state = new URL(authorizationUrl!).searchParams.get("state")!;
  return { connectionId, state };
}

const finish = (userId: string, state: string) =>
  finishConnectionOAuth({ db: t.db, keyring, mcpOAuth }, { userId, state, code: "c" }).catch(
    (e: unknown) => (isAppError(e) ? e.reason : e),
  );

describe("OAuth connection flow", () => {
  it("[P06] the state is stored hashed and works once; tokens are sealed to the row", async () => {
    const { connectionId, state } = await started("once");
    const row = await t.db.connection.findUniqueOrThrow({ where: { id: connectionId } });
    expect(Buffer.from(row.oauthStateHash!)).toEqual(hashToken(state));
    expect(await finish(a.ownerId, state)).toEqual({ workspaceId: a.workspaceId, connectionId });
    expect(await finish(a.ownerId, state)).toBe("OAUTH_STATE_UNKNOWN");
    const stored = await t.db.connection.findUniqueOrThrow({ where: { id: connectionId } });
    const cell = { workspaceId: a.workspaceId, table: "Connection", rowId: connectionId };
    expect(
      await decryptField(keyring, stored.oauthAccessTokenCiphertext!, {
        ...cell,
        field: "oauthAccessTokenCiphertext",
      }),
    ).toBe("stub-access");
    // Moved to the other token field, the ciphertext does not open.
    await expect(
      decryptField(keyring, stored.oauthAccessTokenCiphertext!, {
        ...cell,
        field: "oauthRefreshTokenCiphertext",
      }),
    ).rejects.toThrow();
  });

  it("[C02] an owner demoted to admin after starting cannot finish", async () => {
    const { connectionId, state } = await started("demoted");
    const { ownerId, workspaceId } = a;
    await t.db.membership.update({
      where: { workspaceId_userId: { workspaceId, userId: ownerId } },
      data: { role: "ADMIN" },
    });
    try {
      expect(await finish(ownerId, state)).toBe("ROLE_NOT_ALLOWED");
    } finally {
      await t.db.membership.update({
        where: { workspaceId_userId: { workspaceId, userId: ownerId } },
        data: { role: "OWNER" },
      });
    }
    const row = await t.db.connection.findUniqueOrThrow({ where: { id: connectionId } });
    expect(row.oauthAccessTokenCiphertext).toBeNull();
  });
});
