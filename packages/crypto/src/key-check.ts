// A key check value: a known plaintext encrypted with a key, stored beside the data. Decrypting
// it at startup proves the configured key is the one the data was written with, before any
// credential is touched: a wrong key stops the service with a message instead of failing later.
import { CryptoError } from "./crypto-error.ts";
import { decryptField, encryptField, type FieldBinding } from "./field-cipher.ts";
import type { Keyring } from "./keyring.ts";

const CHECK_PLAINTEXT = "secondshift-key-check-v1";

function binding(keyId: string): FieldBinding {
  return { workspaceId: "-", table: "EncryptionKeyCheck", rowId: keyId, field: "checkCiphertext" };
}

export function createKeyCheck(keyring: Keyring): Promise<Uint8Array<ArrayBuffer>> {
  return encryptField(keyring, CHECK_PLAINTEXT, binding(keyring.currentKeyId));
}

export interface StoredKeyCheck {
  keyId: string;
  checkCiphertext: Uint8Array;
}

/**
 * Verifies the keyring against the stored checks: every key that still has data must be in the
 * keyring, and must decrypt its check. Returns whether the current key needs a check row of
 * its own (first start, or first start after a new key was configured).
 */
export async function verifyKeyChecks(
  keyring: Keyring,
  stored: readonly StoredKeyCheck[],
): Promise<{ currentKeyNeedsCheck: boolean }> {
  for (const check of stored) {
    if (!keyring.keys.has(check.keyId)) {
      throw new CryptoError(
        "KEY_MISMATCH",
        `Stored credentials were encrypted with key ${check.keyId}, but SECONDSHIFT_ENCRYPTION_KEY is key ${keyring.currentKeyId} ` +
          `and SECONDSHIFT_PREVIOUS_ENCRYPTION_KEYS does not hold ${check.keyId}. Refusing to start: restore the original ` +
          "key, or set it as a previous key and run `npm run rotate-keys` to move the data to the new key.",
      );
    }
    let plain: string;
    try {
      plain = await decryptField(keyring, check.checkCiphertext, binding(check.keyId));
    } catch {
      plain = "";
    }
    if (plain !== CHECK_PLAINTEXT) {
      throw new CryptoError(
        "KEY_MISMATCH",
        `The key check for key ${check.keyId} does not decrypt. Refusing to start: the stored check was altered.`,
      );
    }
  }
  return { currentKeyNeedsCheck: !stored.some((c) => c.keyId === keyring.currentKeyId) };
}
