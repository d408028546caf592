// Seeded workspaces for the HTTP authorization matrix: users who sign in through the real
// signIn procedure, rows of every kind, and planted secrets (a connection credential, a model
// provider key, a webhook URL and secret, a repository push secret, a GitHub App webhook secret)
// that no response may carry.
import { randomUUID } from "node:crypto";
import { seedAppConnection, seedConnection, tool, type Tenant } from "@secondshift/domain/testing";
import { createUser } from "@secondshift/accounts/testing";
import { encryptField, type Keyring } from "@secondshift/crypto";
import type { Db } from "@secondshift/db";
import type { TestApi, TestBrowser } from "./index.ts";

export const MATRIX_PASSWORD = "matrix passphrase 0123456789";

export interface HttpTenant extends Tenant {
  emails: { owner: string; admin: string; viewer: string };
  /** Plaintexts stored (encrypted) in this workspace; never to be seen in a response. */
  planted: string[];
}

const secret = (what: string) => `planted-${what}-${randomUUID()}`;

async function sealed(
  keyring: Keyring,
  row: { workspaceId: string; table: string; rowId: string; field: string },
  value: string,
) {
  return encryptField(keyring, value, row);
}

async function plantProviderAndWebhook(db: Db, keyring: Keyring, workspaceId: string) {
  const providerKey = secret("provider-key");
  const providerId = randomUUID();
  await db.modelProvider.create({
    data: {
      id: providerId,
      workspaceId,
      name: `provider-${providerId.slice(0, 8)}`,
      kind: "ANTHROPIC",
      baseUrl: "https://api.anthropic.com",
      apiKeyCiphertext: await sealed(
        keyring,
        { workspaceId, table: "ModelProvider", rowId: providerId, field: "apiKeyCiphertext" },
        providerKey,
      ),
    },
  });
  const hookUrl = `https://hooks.example.test/${secret("webhook-path")}`;
  const hookSecret = secret("webhook-secret");
  const webhookId = randomUUID();
  const cell = (field: string) => ({ workspaceId, table: "Webhook", rowId: webhookId, field });
  await db.webhook.create({
    data: {
      id: webhookId,
      workspaceId,
      name: "planted",
      urlCiphertext: await sealed(keyring, cell("urlCiphertext"), hookUrl),
      secretCiphertext: await sealed(keyring, cell("secretCiphertext"), hookSecret),
    },
  });
  return [providerKey, hookUrl, hookSecret];
}

export async function seedHttpTenant(db: Db, keyring: Keyring, name: string): Promise<HttpTenant> {
  const suffix = randomUUID().slice(0, 8);
  const workspaceId = (await db.workspace.create({ data: { slug: `${name}-${suffix}`, name } })).id;
  const member = (role: "OWNER" | "ADMIN" | "VIEWER") =>
    createUser(db, MATRIX_PASSWORD, { workspaceId, role });
  const [owner, admin, viewer] = [
    await member("OWNER"),
    await member("ADMIN"),
    await member("VIEWER"),
  ];
  const repositoryId = randomUUID();
  const pushSecret = secret("push-secret");
  await db.repository.create({
    data: {
      id: repositoryId,
      workspaceId,
      fullName: `${name}/app`,
      cloneUrl: `https://github.com/${name}/app-${suffix}.git`,
      webhookSecretCiphertext: await sealed(
        keyring,
        { workspaceId, table: "Repository", rowId: repositoryId, field: "webhookSecretCiphertext" },
        pushSecret,
      ),
    },
  });
  const tenant: Tenant = {
    workspaceId,
    ownerId: owner.id,
    adminId: admin.id,
    viewerId: viewer.id,
    repositoryId,
  };
  const credential = secret("connection-credential");
  await seedConnection(db, keyring, tenant, {
    kind: "MCP",
    label: "planted",
    tools: [tool("search"), tool("write", true)],
    allowed: ["search"],
    credential,
  });
  const appWebhookSecret = await plantAppWebhookSecret(db, keyring, tenant);
  const planted = [
    credential,
    pushSecret,
    appWebhookSecret,
    ...(await plantProviderAndWebhook(db, keyring, workspaceId)),
  ];
  return {
    ...tenant,
    emails: { owner: owner.email, admin: admin.email, viewer: viewer.email },
    planted,
  };
}

/** A GitHub App connection whose webhook secret is set (sealed as the use case seals it). */
async function plantAppWebhookSecret(db: Db, keyring: Keyring, tenant: Tenant): Promise<string> {
  const connectionId = await seedAppConnection(db, keyring, tenant);
  const value = secret("app-webhook-secret");
  const cell = { workspaceId: tenant.workspaceId, table: "Connection", rowId: connectionId };
  await db.connection.update({
    where: { id: connectionId },
    data: {
      webhookSecretCiphertext: await sealed(
        keyring,
        { ...cell, field: "webhookSecretCiphertext" },
        value,
      ),
    },
  });
  return value;
}

/** A browser signed in through the real signIn procedure. */
export async function signedInBrowser(api: TestApi, email: string): Promise<TestBrowser> {
  const browser = api.browser();
  await browser.trpc.auth.signIn.mutate({ email, password: MATRIX_PASSWORD });
  return browser;
}
