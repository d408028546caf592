// Credential encryption at rest. Format (version 1):
//   [0x01][key id: 4 bytes][nonce: 24 bytes][XChaCha20-Poly1305 ciphertext + 16-byte tag]
// The associated data binds a ciphertext to its workspace, table, row and field, so a value
// pasted into another row, field or workspace fails authentication instead of decrypting.
import { CryptoError } from "./crypto-error.ts";
import { KEY_ID_BYTES, type Keyring } from "./keyring.ts";
import { loadSodium } from "./sodium.ts";

export const CIPHERTEXT_VERSION = 1;
const NONCE_BYTES = 24;
const TAG_BYTES = 16;
const HEADER_BYTES = 1 + KEY_ID_BYTES + NONCE_BYTES;

/** Where a ciphertext lives. Every part takes part in authentication. */
export interface FieldBinding {
  workspaceId: string;
  table: string;
  rowId: string;
  field: string;
}

function associatedData(binding: FieldBinding): Uint8Array {
  // Length-prefixed parts: ("ab","c") and ("a","bc") must not produce the same bytes.
  const parts = [
    "secondshift.field.v1",
    binding.workspaceId,
    binding.table,
    binding.rowId,
    binding.field,
  ];
  return Buffer.concat(
    parts.map((part) => {
      const bytes = Buffer.from(part, "utf8");
      const length = Buffer.alloc(4);
      length.writeUInt32BE(bytes.length);
      return Buffer.concat([length, bytes]);
    }),
  );
}

/** The key id a ciphertext was written with (hex), without decrypting it. */
export function ciphertextKeyId(ciphertext: Uint8Array): string {
  if (ciphertext.length < HEADER_BYTES + TAG_BYTES) {
    throw new CryptoError(
      "CIPHERTEXT_MALFORMED",
      "The stored ciphertext is too short to be valid.",
    );
  }
  if (ciphertext[0] !== CIPHERTEXT_VERSION) {
    throw new CryptoError(
      "UNSUPPORTED_VERSION",
      `Ciphertext version ${ciphertext[0]} is not supported by this release.`,
    );
  }
  return Buffer.from(ciphertext.subarray(1, 1 + KEY_ID_BYTES)).toString("hex");
}

export async function encryptField(
  keyring: Keyring,
  plaintext: string,
  binding: FieldBinding,
): Promise<Uint8Array<ArrayBuffer>> {
  const sodium = await loadSodium();
  const nonce = sodium.randombytes_buf(NONCE_BYTES);
  const sealed = sodium.crypto_aead_xchacha20poly1305_ietf_encrypt(
    Buffer.from(plaintext, "utf8"),
    associatedData(binding),
    null,
    nonce,
    keyring.currentKey,
  );
  const out = new Uint8Array(HEADER_BYTES + sealed.length);
  out[0] = CIPHERTEXT_VERSION;
  out.set(Buffer.from(keyring.currentKeyId, "hex"), 1);
  out.set(nonce, 1 + KEY_ID_BYTES);
  out.set(sealed, HEADER_BYTES);
  return out;
}

export async function decryptField(
  keyring: Keyring,
  ciphertext: Uint8Array,
  binding: FieldBinding,
): Promise<string> {
  const sodium = await loadSodium();
  const keyId = ciphertextKeyId(ciphertext);
  const key = keyring.keys.get(keyId);
  if (!key) {
    throw new CryptoError(
      "UNKNOWN_KEY_ID",
      `The ${binding.table}.${binding.field} value was encrypted with key ${keyId}, which is neither SECONDSHIFT_ENCRYPTION_KEY nor in SECONDSHIFT_PREVIOUS_ENCRYPTION_KEYS. Configure that key.`,
    );
  }
  try {
    const plain = sodium.crypto_aead_xchacha20poly1305_ietf_decrypt(
      null,
      ciphertext.subarray(HEADER_BYTES),
      associatedData(binding),
      ciphertext.subarray(1 + KEY_ID_BYTES, HEADER_BYTES),
      key,
    );
    return Buffer.from(plain).toString("utf8");
  } catch {
    throw new CryptoError(
      "DECRYPTION_FAILED",
      `The ${binding.table}.${binding.field} value does not decrypt for this row: it was altered or copied from another row, field or workspace.`,
    );
  }
}
