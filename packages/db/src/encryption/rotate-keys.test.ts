import { spawn } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import {
  createKeyring,
  decryptField,
  encryptField,
  CryptoError,
  type Keyring,
} from "@secondshift/crypto";
import { describe, expect } from "vitest";
import type { Db } from "../client.ts";
import { dbTest as test } from "../testing/fixtures.ts";
import { encryptedColumns } from "./encrypted-fields.ts";
import { ensureKeyCheck } from "./key-check-store.ts";
import { keyUsage, rotateKeys } from "./rotate-keys.ts";

const here = dirname(fileURLToPath(import.meta.url));
const newKey = () => new Uint8Array(randomBytes(32));
const b64 = (k: Uint8Array) => Buffer.from(k).toString("base64");

async function seed(db: Db, keyring: Keyring, connections: number) {
  const workspace = await db.workspace.create({
    data: { slug: `ws-${randomUUID()}`, name: "W" },
  });
  const expected = new Map<string, string>();
  const rows = [];
  for (let i = 0; i < connections; i++) {
    const id = randomUUID();
    const secret = `planted-credential-${i}-${randomBytes(8).toString("hex")}`;
    expected.set(id, secret);
    const binding = {
      workspaceId: workspace.id,
      table: "Connection",
      rowId: id,
      field: "credentialCiphertext",
    };
    rows.push({
      id,
      workspaceId: workspace.id,
      kind: "MCP" as const,
      label: `c${i}`,
      endpoint: "https://mcp.example.com",
      credentialCiphertext: await encryptField(keyring, secret, binding),
    });
  }
  await db.connection.createMany({ data: rows });
  const webhookId = randomUUID();
  const url = "https://hooks.example.com/planted-path";
  await db.webhook.create({
    data: {
      id: webhookId,
      workspaceId: workspace.id,
      name: "h",
      urlCiphertext: await encryptField(keyring, url, {
        workspaceId: workspace.id,
        table: "Webhook",
        rowId: webhookId,
        field: "urlCiphertext",
      }),
      secretCiphertext: await encryptField(keyring, "whsec-planted", {
        workspaceId: workspace.id,
        table: "Webhook",
        rowId: webhookId,
        field: "secretCiphertext",
      }),
    },
  });
  return { workspaceId: workspace.id, expected, webhookId, url };
}

async function readAll(db: Db, keyring: Keyring, workspaceId: string) {
  const rows = await db.connection.findMany({ where: { workspaceId } });
  const out = new Map<string, string>();
  for (const row of rows) {
    out.set(
      row.id,
      await decryptField(keyring, row.credentialCiphertext!, {
        workspaceId,
        table: "Connection",
        rowId: row.id,
        field: "credentialCiphertext",
      }),
    );
  }
  return out;
}

describe("key check at startup", () => {
  test("[P07] a service with the wrong key refuses to start, and says why", async ({ db }) => {
    await db.encryptionKeyCheck.deleteMany();
    const right = createKeyring(newKey());
    await ensureKeyCheck(db, right);
    await ensureKeyCheck(db, right); // idempotent
    expect(await db.encryptionKeyCheck.count()).toBe(1);
    const wrong = createKeyring(newKey());
    const error: unknown = await ensureKeyCheck(db, wrong).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CryptoError);
    expect((error as Error).message).toMatch(
      new RegExp(`encrypted with key ${right.currentKeyId}.*Refusing to start`),
    );
    await db.encryptionKeyCheck.deleteMany();
  });
});

describe("rotate-keys", () => {
  test("[C23] stores every secret only as ciphertext", async ({ db }) => {
    const keyring = createKeyring(newKey());
    const { expected, workspaceId } = await seed(db, keyring, 3);
    for (const { table, field } of encryptedColumns) {
      const rows = await db.$queryRawUnsafe<Array<{ v: Uint8Array | null }>>(
        `SELECT "${field}" AS v FROM "${table}" WHERE "workspaceId" = $1`,
        workspaceId,
      );
      for (const row of rows) {
        const text = row.v ? Buffer.from(row.v).toString("latin1") : "";
        for (const secret of [...expected.values(), "whsec-planted", "planted-path"])
          expect(text).not.toContain(secret);
      }
    }
  });

  test("re-encrypts everything with the new key and retires the old key's check", async ({
    db,
  }) => {
    await db.connection.deleteMany();
    await db.webhook.deleteMany();
    await db.encryptionKeyCheck.deleteMany();
    const oldKey = newKey();
    const old = createKeyring(oldKey);
    await ensureKeyCheck(db, old);
    const { workspaceId, expected, webhookId, url } = await seed(db, old, 25);
    const next = createKeyring(newKey(), [oldKey]);
    const result = await rotateKeys(db, next, { batchSize: 7 });
    expect(result.failed).toEqual([]);
    expect([...(await keyUsage(db)).keys()]).toEqual([next.currentKeyId]);
    const onlyNew = createKeyring(next.currentKey);
    expect(await readAll(db, onlyNew, workspaceId)).toEqual(expected);
    const hook = await db.webhook.findUniqueOrThrow({ where: { id: webhookId } });
    expect(
      await decryptField(onlyNew, hook.urlCiphertext, {
        workspaceId,
        table: "Webhook",
        rowId: webhookId,
        field: "urlCiphertext",
      }),
    ).toBe(url);
    // The old key is no longer needed to start; the new one alone passes the key check.
    await ensureKeyCheck(db, onlyNew);
    await expect(ensureKeyCheck(db, old)).rejects.toThrow(/Refusing to start/);
    expect((await rotateKeys(db, next)).rotated).toBe(0);
  });

  test("survives being killed half-way, then re-run, and loses nothing", async ({
    db,
    testDatabase,
  }) => {
    await db.connection.deleteMany();
    await db.webhook.deleteMany();
    await db.encryptionKeyCheck.deleteMany();
    const oldKey = newKey();
    const old = createKeyring(oldKey);
    await ensureKeyCheck(db, old);
    const { workspaceId, expected } = await seed(db, old, 600);
    const currentKey = newKey();
    const env = {
      ...process.env,
      DATABASE_URL: testDatabase.url,
      SECONDSHIFT_ENCRYPTION_KEY: b64(currentKey),
      SECONDSHIFT_PREVIOUS_ENCRYPTION_KEYS: b64(oldKey),
      ROTATE_BATCH_SIZE: "5",
    };
    const script = resolve(here, "../scripts/rotate-keys.ts");

    // First run: killed with SIGKILL after a few batches have committed.
    await new Promise<void>((done, fail) => {
      const child = spawn(process.execPath, ["--import", "tsx", script], {
        env,
        stdio: ["ignore", "pipe", "pipe"],
      });
      let batches = 0;
      child.stdout.on("data", (chunk: Buffer) => {
        batches += chunk.toString().split("batch:").length - 1;
        if (batches >= 3) child.kill("SIGKILL");
      });
      child.on("exit", (_code, signal) =>
        signal === "SIGKILL"
          ? done()
          : fail(new Error(`rotation finished before it was killed (${signal})`)),
      );
    });
    const midway = await keyUsage(db);
    const next = createKeyring(currentKey, [oldKey]);
    expect(midway.get(next.currentKeyId)).toBeGreaterThan(0);
    expect(midway.get(old.currentKeyId)).toBeGreaterThan(0);
    // While data still uses the old key, a service with only the new key must refuse to start.
    await expect(ensureKeyCheck(db, createKeyring(currentKey))).rejects.toThrow(
      /Refusing to start/,
    );
    expect(await readAll(db, next, workspaceId)).toEqual(expected);

    // Second run completes.
    const exitCode = await new Promise<number | null>((done) => {
      const child = spawn(process.execPath, ["--import", "tsx", script], { env, stdio: "ignore" });
      child.on("exit", done);
    });
    expect(exitCode).toBe(0);
    expect([...(await keyUsage(db)).keys()]).toEqual([next.currentKeyId]);
    expect(await readAll(db, createKeyring(currentKey), workspaceId)).toEqual(expected);
    await ensureKeyCheck(db, createKeyring(currentKey));
    // Two tsx processes (10–30 s on a loaded 2-core machine, suites running side by side).
  }, 90_000);

  test("reports a row it cannot decrypt, keeps it, and keeps requiring the old key", async ({
    db,
  }) => {
    await db.connection.deleteMany();
    await db.webhook.deleteMany();
    await db.encryptionKeyCheck.deleteMany();
    const oldKey = newKey();
    const old = createKeyring(oldKey);
    await ensureKeyCheck(db, old);
    const { expected } = await seed(db, old, 3);
    const [victim] = [...expected.keys()];
    const row = await db.connection.findUniqueOrThrow({ where: { id: victim! } });
    const tampered = Uint8Array.from(row.credentialCiphertext!);
    tampered[tampered.length - 1] = (tampered[tampered.length - 1] ?? 0) ^ 1;
    await db.connection.update({
      where: { id: victim! },
      data: { credentialCiphertext: tampered },
    });
    const result = await rotateKeys(db, createKeyring(newKey(), [oldKey]));
    expect(result.rotated).toBe(4);
    expect(result.failed.map((f) => f.rowId)).toEqual([victim]);
    expect(await db.encryptionKeyCheck.count()).toBe(2);
  });
});
