// npm run rotate-keys — re-encrypts every stored secret with SECONDSHIFT_ENCRYPTION_KEY. Put the
// old key in SECONDSHIFT_PREVIOUS_ENCRYPTION_KEYS first. Interruptible; run again to finish.
import { loadMaintenanceEnv } from "@secondshift/config";
import { createKeyring } from "@secondshift/crypto";
import { createDb } from "../client.ts";
import { rotateKeys } from "../encryption/rotate-keys.ts";

const env = loadMaintenanceEnv(process.env);
const batchSize = Number(process.env.ROTATE_BATCH_SIZE ?? 100);
const db = createDb(env.DATABASE_URL, { maxConnections: 2 });
const keyring = createKeyring(
  env.SECONDSHIFT_ENCRYPTION_KEY,
  env.SECONDSHIFT_PREVIOUS_ENCRYPTION_KEYS,
);
try {
  const result = await rotateKeys(db, keyring, {
    batchSize,
    onBatch: (p) => console.log(`batch: ${p.table}.${p.field} (${p.rotated} re-encrypted so far)`),
  });
  console.log(`Re-encrypted ${result.rotated} secret(s) with key ${keyring.currentKeyId}.`);
  if (result.failed.length > 0) {
    for (const f of result.failed)
      console.error(`Could not re-encrypt ${f.table}.${f.field} row ${f.rowId}: ${f.reason}`);
    console.error("The previous keys are still required until these rows are fixed.");
    process.exitCode = 1;
  }
} finally {
  await db.$disconnect();
}
