// The OAuth connection flow's domain rules, with a stand-in for the network part: the state is
// stored only hashed and works once; an owner demoted since starting cannot finish; tokens are
// encrypted bound to the connection row (P06). Over HTTP against a real authorization server:
// packages/api/src/routers/connections/oauth.http.test.ts.
import { decryptField, hashToken } from "@secondshift/crypto";
import type { Db } from "@secondshift/db";
import { dbTest } from "@secondshift/db/testing/vitest";
import { isAppError } from "@secondshift/errors";
import { describe, expect } from "vitest";
import {
  actorContext,
  seedConnection,
  seedTenant,
  stubAuthorizer,
  testKeyring,
  type Tenant,
} from "../testing/index.ts";
import { finishConnectionOAuth, startConnectionOAuth } from "./oauth.ts";

const keyring = testKeyring();
const mcpOAuth = stubAuthorizer();

const test = dbTest.extend("tenants", { scope: "file" }, async ({ db }) => ({
  a: await seedTenant(db, "acme"),
}));

async function started(db: Db, a: Tenant, label: string) {
  const connectionId = await seedConnection(db, keyring, a, {
    kind: "MCP",
    label,
    tools: [],
    allowed: [],
    authType: "OAUTH",
  });
  const owner = actorContext(db, a, a.ownerId, { keyring, mcpOAuth });
  const { authorizationUrl } = await startConnectionOAuth(owner, {
    connectionId,
    redirectUrl: "https://secondshift.example.test/api/oauth/callback",
  });
  const state = new URL(authorizationUrl!).searchParams.get("state")!;
  return { connectionId, state };
}

const finish = (db: Db, userId: string, state: string) =>
  finishConnectionOAuth({ db, keyring, mcpOAuth }, { userId, state, code: "c" }).catch(
    (e: unknown) => (isAppError(e) ? e.reason : e),
  );

describe("OAuth connection flow", () => {
  test("[P06] the state is stored hashed and works once; tokens are sealed to the row", async ({
    db,
    tenants: { a },
  }) => {
    const { connectionId, state } = await started(db, a, "once");
    const row = await db.connection.findUniqueOrThrow({ where: { id: connectionId } });
    expect(Buffer.from(row.oauthStateHash!)).toEqual(hashToken(state));
    expect(await finish(db, a.ownerId, state)).toEqual({
      workspaceId: a.workspaceId,
      connectionId,
      // No discovery service given: the owner discovers from the page.
      discovery: null,
    });
    expect(await finish(db, a.ownerId, state)).toBe("OAUTH_STATE_UNKNOWN");
    const stored = await db.connection.findUniqueOrThrow({ where: { id: connectionId } });
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

  test("[C02] an owner demoted to admin after starting cannot finish", async ({
    db,
    tenants: { a },
  }) => {
    const { connectionId, state } = await started(db, a, "demoted");
    const { ownerId, workspaceId } = a;
    await db.membership.update({
      where: { workspaceId_userId: { workspaceId, userId: ownerId } },
      data: { role: "ADMIN" },
    });
    try {
      expect(await finish(db, ownerId, state)).toBe("ROLE_NOT_ALLOWED");
    } finally {
      await db.membership.update({
        where: { workspaceId_userId: { workspaceId, userId: ownerId } },
        data: { role: "OWNER" },
      });
    }
    const row = await db.connection.findUniqueOrThrow({ where: { id: connectionId } });
    expect(row.oauthAccessTokenCiphertext).toBeNull();
  });
});
