// Re-encrypts every stored secret with the current key, in small transactions. Safe to kill at
// any point and run again: a row is rewritten only if it still holds the ciphertext that was
// read, rows already on the current key are skipped, and the old key's check is retired only
// after every row has moved, so until then services keep requiring the old key.
import { ciphertextKeyId, decryptField, encryptField, type Keyring } from "@secondshift/crypto";
import type { Db } from "../client.ts";
import { encryptedColumns } from "./encrypted-fields.ts";
import { ensureKeyCheck } from "./key-check-store.ts";

export interface RotateOptions {
  batchSize?: number;
  onBatch?: (progress: { table: string; field: string; rotated: number }) => void;
}

export interface RotateResult {
  rotated: number;
  failed: Array<{ table: string; field: string; rowId: string; reason: string }>;
}

interface Row {
  id: string;
  workspaceId: string;
  value: Uint8Array;
}

export async function rotateKeys(
  db: Db,
  keyring: Keyring,
  options: RotateOptions = {},
): Promise<RotateResult> {
  await ensureKeyCheck(db, keyring);
  const batchSize = options.batchSize ?? 100;
  const currentId = Buffer.from(keyring.currentKeyId, "hex");
  const result: RotateResult = { rotated: 0, failed: [] };

  for (const { table, field } of encryptedColumns) {
    const skip: string[] = []; // rows that failed stay as they are and are reported
    for (;;) {
      // Table and field names come from the fixed list above, never from input.
      const rows = await db.$queryRawUnsafe<Row[]>(
        `SELECT "id", "workspaceId", "${field}" AS "value" FROM "${table}"
         WHERE "${field}" IS NOT NULL AND substring("${field}" from 2 for 4) <> $1 AND NOT ("id" = ANY($2::text[]))
         ORDER BY "id" LIMIT ${batchSize}`,
        currentId,
        skip,
      );
      if (rows.length === 0) break;
      const updates: Array<{ id: string; old: Uint8Array; next: Uint8Array }> = [];
      for (const row of rows) {
        const binding = { workspaceId: row.workspaceId, table, rowId: row.id, field };
        try {
          const plain = await decryptField(keyring, row.value, binding);
          updates.push({
            id: row.id,
            old: row.value,
            next: await encryptField(keyring, plain, binding),
          });
        } catch (error) {
          skip.push(row.id);
          result.failed.push({ table, field, rowId: row.id, reason: (error as Error).message });
        }
      }
      await db.$transaction(
        updates.map((u) =>
          db.$executeRawUnsafe(
            `UPDATE "${table}" SET "${field}" = $1 WHERE "id" = $2 AND "${field}" = $3`,
            u.next,
            u.id,
            u.old,
          ),
        ),
      );
      result.rotated += updates.length;
      options.onBatch?.({ table, field, rotated: result.rotated });
    }
  }

  if (result.failed.length === 0) {
    await db.encryptionKeyCheck.deleteMany({ where: { keyId: { not: keyring.currentKeyId } } });
  }
  return result;
}

/** Key ids that stored ciphertexts still use, with counts (for status output and tests). */
export async function keyUsage(db: Db): Promise<Map<string, number>> {
  const usage = new Map<string, number>();
  for (const { table, field } of encryptedColumns) {
    const rows = await db.$queryRawUnsafe<Array<{ value: Uint8Array }>>(
      `SELECT "${field}" AS "value" FROM "${table}" WHERE "${field}" IS NOT NULL`,
    );
    for (const row of rows) {
      const id = ciphertextKeyId(row.value);
      usage.set(id, (usage.get(id) ?? 0) + 1);
    }
  }
  return usage;
}
