// GitHub App connections through connections.create: app id and installation id are settings
// every member sees, the private key is write-only (encrypted, never in a response, C23) and
// checked at creation.
import { generateKeyPairSync, randomUUID } from "node:crypto";
import { testKeyring } from "@secondshift/domain/testing";
import { decryptField } from "@secondshift/crypto";
import { dbTest } from "@secondshift/db/testing/vitest";
import { describe, expect } from "vitest";
import { startTestApi } from "../../testing/index.ts";
import { seedHttpTenant, signedInBrowser } from "../../testing/tenants.ts";

const keyring = testKeyring();
const privateKey = generateKeyPairSync("rsa", { modulusLength: 2048 })
  .privateKey.export({ type: "pkcs1", format: "pem" })
  .toString();

const test = dbTest
  .extend("api", { scope: "file" }, async ({ db }, { onCleanup }) => {
    const api = await startTestApi(db, { keyring });
    onCleanup(() => api.close());
    return api;
  })
  .extend("acme", { scope: "file" }, ({ db }) => seedHttpTenant(db, keyring, "acme"))
  .extend("owner", { scope: "file" }, ({ api, acme }) => signedInBrowser(api, acme.emails.owner))
  .extend("viewer", { scope: "file" }, ({ api, acme }) => signedInBrowser(api, acme.emails.viewer))
  /** The owner creates a GitHub App connection. */
  .extend(
    "create",
    { scope: "file" },
    ({ owner, acme }) =>
      (settings: Record<string, unknown>, credential: string, kind = "GITHUB" as const) =>
        owner.trpc.connections.create.mutate({
          workspaceId: acme.workspaceId,
          kind,
          label: `app-${randomUUID().slice(0, 8)}`,
          endpoint: "https://api.github.com",
          authType: "GITHUB_APP",
          settings,
          credential,
        }),
  );

describe("GitHub App connections", () => {
  test("[C23] app and installation ids are shown, the private key is stored encrypted and never returned", async ({
    db,
    api,
    acme,
    viewer,
    create,
  }) => {
    const { id } = await create({ appId: "123456", installationId: "7890123" }, privateKey);
    const detail = await viewer.trpc.connections.get.query({
      workspaceId: acme.workspaceId,
      connectionId: id,
    });
    expect(detail).toMatchObject({
      kind: "GITHUB",
      authType: "GITHUB_APP",
      settings: { appId: "123456", installationId: "7890123" },
    });
    const row = await db.connection.findUniqueOrThrow({ where: { id } });
    const cell = { workspaceId: acme.workspaceId, table: "Connection", rowId: id };
    expect(
      await decryptField(keyring, row.credentialCiphertext!, {
        ...cell,
        field: "credentialCiphertext",
      }),
    ).toBe(privateKey);
    const keyBody = privateKey.split("\n")[1]!;
    for (const body of api.bodies) expect(body).not.toContain(keyBody);
  });

  test("missing ids, a key that is not a PEM private key, or a non-GitHub kind are refused", async ({
    acme,
    owner,
    create,
  }) => {
    const reason = (p: Promise<unknown>) =>
      p.then(
        () => null,
        (e: { data?: { reason?: string } }) => e.data?.reason,
      );
    expect(await reason(create({ appId: "123" }, privateKey))).toBe("GITHUB_APP_INVALID");
    expect(await reason(create({ appId: "1", installationId: "2" }, "ghp_notakey"))).toBe(
      "GITHUB_APP_INVALID",
    );
    expect(
      await reason(
        owner.trpc.connections.create.mutate({
          workspaceId: acme.workspaceId,
          kind: "SENTRY",
          label: "s",
          endpoint: "https://sentry.io",
          authType: "GITHUB_APP",
          settings: { appId: "1", installationId: "2" },
          credential: privateKey,
        }),
      ),
    ).toBe("GITHUB_APP_INVALID");
  });
});
