// Startup guard (P07): before a service touches any credential, prove that its keyring holds
// the key(s) the stored data was written with; on first start, record a check for the key.
import { createKeyCheck, verifyKeyChecks, type Keyring } from "@secondshift/crypto";
import type { Db } from "../client.ts";

export async function ensureKeyCheck(db: Db, keyring: Keyring): Promise<void> {
  const stored = await db.encryptionKeyCheck.findMany();
  const { currentKeyNeedsCheck } = await verifyKeyChecks(keyring, stored);
  if (currentKeyNeedsCheck) {
    await db.encryptionKeyCheck.upsert({
      where: { keyId: keyring.currentKeyId },
      create: { keyId: keyring.currentKeyId, checkCiphertext: await createKeyCheck(keyring) },
      update: {},
    });
  }
}
