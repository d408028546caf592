// The encryption keys a service holds: the current one (used for every new ciphertext) and
// previous ones (still accepted for decryption while `rotate-keys` moves data off them).
// A key's id is derived from the key itself, so a ciphertext names the key that wrote it
// without anything to configure, and a different key can never pose as the same id.
import { createHash } from "node:crypto";
import { CryptoError } from "./crypto-error.ts";

export const KEY_BYTES = 32;
export const KEY_ID_BYTES = 4;

export interface Keyring {
  readonly currentKeyId: string;
  readonly currentKey: Uint8Array;
  /** Every usable key by id (hex), the current one included. */
  readonly keys: ReadonlyMap<string, Uint8Array>;
}

export const generateKeyHint =
  "Generate one with: node -e \"console.log(require('crypto').randomBytes(32).toString('base64'))\"";

export function keyIdOf(key: Uint8Array): string {
  return createHash("sha256")
    .update("secondshift-key-id\0")
    .update(key)
    .digest()
    .subarray(0, KEY_ID_BYTES)
    .toString("hex");
}

/** Decodes a base64 key; `name` is the setting it came from, for the error message. */
export function decodeKey(base64: string, name: string): Uint8Array {
  const trimmed = base64.trim();
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed)) {
    throw new CryptoError("KEY_INVALID", `${name} is not base64. ${generateKeyHint}`);
  }
  const bytes = Buffer.from(trimmed, "base64");
  if (bytes.length !== KEY_BYTES) {
    throw new CryptoError(
      "KEY_INVALID",
      `${name} must decode to ${KEY_BYTES} bytes, but decodes to ${bytes.length}. ${generateKeyHint}`,
    );
  }
  return new Uint8Array(bytes);
}

export function createKeyring(current: Uint8Array, previous: readonly Uint8Array[] = []): Keyring {
  const keys = new Map<string, Uint8Array>();
  for (const key of [current, ...previous]) {
    if (key.length !== KEY_BYTES)
      throw new CryptoError("KEY_INVALID", `Encryption keys must be ${KEY_BYTES} bytes.`);
    keys.set(keyIdOf(key), key);
  }
  return { currentKeyId: keyIdOf(current), currentKey: current, keys };
}
