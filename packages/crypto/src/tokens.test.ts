import { describe, expect, it } from "vitest";
import { hashPassword, verifyPassword } from "./passwords.ts";
import { hashToken, looksLikeToken, mintToken, tokenMatchesHash } from "./tokens.ts";

describe("tokens", () => {
  it("[C15] mints prefixed 32-byte tokens and stores only their SHA-256 hash", () => {
    const { token, hash } = mintToken("run");
    expect(token).toMatch(/^ss_run_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(token.slice(7), "base64url")).toHaveLength(32);
    expect(hash).toHaveLength(32);
    expect(hash.toString("hex")).not.toContain(Buffer.from(token).toString("hex"));
    expect(tokenMatchesHash(token, hash)).toBe(true);
    expect(tokenMatchesHash(token + "x", hash)).toBe(false);
    expect(tokenMatchesHash(token, hash.subarray(0, 16))).toBe(false);
    expect(looksLikeToken("run", token)).toBe(true);
    expect(looksLikeToken("invitation", token)).toBe(false);
    expect(mintToken("invitation").token.startsWith("ss_inv_")).toBe(true);
    expect(hashToken(token).equals(hash)).toBe(true);
  });

  it("never mints the same token twice", () => {
    const seen = new Set(Array.from({ length: 1000 }, () => mintToken("session").token));
    expect(seen.size).toBe(1000);
  });
});

describe("passwords", () => {
  it("hashes with argon2id and verifies", async () => {
    const stored = await hashPassword("correct horse battery staple");
    expect(stored).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(stored, "correct horse battery staple")).toBe(true);
    expect(await verifyPassword(stored, "wrong")).toBe(false);
    expect(await verifyPassword("not-a-hash", "x")).toBe(false);
  });
});
