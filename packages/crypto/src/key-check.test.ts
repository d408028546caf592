import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { CryptoError } from "./crypto-error.ts";
import { createKeyCheck, verifyKeyChecks } from "./key-check.ts";
import { createKeyring } from "./keyring.ts";

const key = () => new Uint8Array(randomBytes(32));

describe("key check", () => {
  it("[P07] a keyring without the key the data was written with is refused with a clear message", async () => {
    const original = createKeyring(key());
    const stored = [
      { keyId: original.currentKeyId, checkCiphertext: await createKeyCheck(original) },
    ];
    expect(await verifyKeyChecks(original, stored)).toEqual({ currentKeyNeedsCheck: false });

    const wrong = createKeyring(key());
    const error: unknown = await verifyKeyChecks(wrong, stored).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CryptoError);
    expect((error as CryptoError).reason).toBe("KEY_MISMATCH");
    expect((error as CryptoError).message).toContain(original.currentKeyId);
    expect((error as CryptoError).message).toContain("Refusing to start");
  });

  it("[P07] a new current key with the old one as previous is accepted and needs its own check", async () => {
    const oldKey = key();
    const old = createKeyring(oldKey);
    const stored = [{ keyId: old.currentKeyId, checkCiphertext: await createKeyCheck(old) }];
    expect(await verifyKeyChecks(createKeyring(key(), [oldKey]), stored)).toEqual({
      currentKeyNeedsCheck: true,
    });
    expect(await verifyKeyChecks(createKeyring(key()), [])).toEqual({ currentKeyNeedsCheck: true });
  });

  it("[P07] an altered check value is refused", async () => {
    const keyring = createKeyring(key());
    const check = await createKeyCheck(keyring);
    check[check.length - 1] = (check[check.length - 1] ?? 0) ^ 1;
    await expect(
      verifyKeyChecks(keyring, [{ keyId: keyring.currentKeyId, checkCiphertext: check }]),
    ).rejects.toThrow(/altered/);
  });
});
