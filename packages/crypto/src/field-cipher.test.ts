import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { CryptoError } from "./crypto-error.ts";
import { ciphertextKeyId, decryptField, encryptField, type FieldBinding } from "./field-cipher.ts";
import { createKeyring, decodeKey } from "./keyring.ts";

const key = () => new Uint8Array(randomBytes(32));
const binding: FieldBinding = {
  workspaceId: "ws_1",
  table: "Connection",
  rowId: "row_1",
  field: "credentialCiphertext",
};

async function expectFailure(promise: Promise<unknown>, reason: string) {
  const error: unknown = await promise.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(CryptoError);
  expect((error as CryptoError).reason).toBe(reason);
  return error as CryptoError;
}

describe("field encryption", () => {
  it("[C23] round-trips and never stores the plaintext", async () => {
    const keyring = createKeyring(key());
    const secret = "ghp_plantedSecretValue1234567890";
    const sealed = await encryptField(keyring, secret, binding);
    expect(Buffer.from(sealed).toString("latin1")).not.toContain(secret);
    expect(sealed[0]).toBe(1);
    expect(ciphertextKeyId(sealed)).toBe(keyring.currentKeyId);
    expect(await decryptField(keyring, sealed, binding)).toBe(secret);
    // A fresh nonce each time: the same plaintext never gives the same ciphertext.
    expect(
      Buffer.from(await encryptField(keyring, secret, binding)).equals(Buffer.from(sealed)),
    ).toBe(false);
  });

  it("[C23] a tampered ciphertext fails with a typed error", async () => {
    const keyring = createKeyring(key());
    const sealed = await encryptField(keyring, "value", binding);
    for (const index of [1 + 4 + 3, sealed.length - 1, sealed.length - 20]) {
      const tampered = Uint8Array.from(sealed);
      tampered[index] = (tampered[index] ?? 0) ^ 0x01;
      await expectFailure(decryptField(keyring, tampered, binding), "DECRYPTION_FAILED");
    }
    await expectFailure(
      decryptField(keyring, sealed.subarray(0, 20), binding),
      "CIPHERTEXT_MALFORMED",
    );
    const wrongVersion = Uint8Array.from(sealed);
    wrongVersion[0] = 9;
    await expectFailure(decryptField(keyring, wrongVersion, binding), "UNSUPPORTED_VERSION");
  });

  it("[P06] a ciphertext moved to another row, field, table or workspace does not decrypt", async () => {
    const keyring = createKeyring(key());
    const sealed = await encryptField(keyring, "owner-token", binding);
    const moves: FieldBinding[] = [
      { ...binding, rowId: "row_2" },
      { ...binding, field: "oauthRefreshTokenCiphertext" },
      { ...binding, table: "Webhook" },
      { ...binding, workspaceId: "ws_2" },
      // Concatenation ambiguity: shifting a character between parts must not match.
      { ...binding, workspaceId: "ws_1C", table: "onnection" },
    ];
    for (const moved of moves)
      await expectFailure(decryptField(keyring, sealed, moved), "DECRYPTION_FAILED");
  });

  it("[C23] an unknown key id and a wrong key fail with typed errors that name no key material", async () => {
    const original = key();
    const sealed = await encryptField(createKeyring(original), "value", binding);
    const error = await expectFailure(
      decryptField(createKeyring(key()), sealed, binding),
      "UNKNOWN_KEY_ID",
    );
    expect(error.message).toContain(ciphertextKeyId(sealed));
    expect(error.message).not.toContain(Buffer.from(original).toString("base64"));
    // A previous key still decrypts during rotation.
    expect(await decryptField(createKeyring(key(), [original]), sealed, binding)).toBe("value");
  });

  it("rejects malformed keys with a message that says how to generate one", () => {
    expect(() => decodeKey("not base64!!", "SECONDSHIFT_ENCRYPTION_KEY")).toThrow(
      /SECONDSHIFT_ENCRYPTION_KEY is not base64.*randomBytes\(32\)/,
    );
    expect(() =>
      decodeKey(Buffer.alloc(16).toString("base64"), "SECONDSHIFT_ENCRYPTION_KEY"),
    ).toThrow(/32 bytes, but decodes to 16/);
    expect(decodeKey(Buffer.alloc(32, 7).toString("base64"), "K")).toHaveLength(32);
  });
});
