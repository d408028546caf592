// Bearer tokens (run, invitation, session): 32 random bytes with a readable prefix, so a leaked
// token is recognisable in a scanner and in logs. Only the SHA-256 hash is ever stored.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

export const tokenKinds = {
  run: "ss_run_",
  invitation: "ss_inv_",
  session: "ss_ses_",
  webhook: "ss_whk_",
} as const;
export type TokenKind = keyof typeof tokenKinds;

const TOKEN_BYTES = 32;

export function mintToken(kind: TokenKind): { token: string; hash: Buffer<ArrayBuffer> } {
  const token = tokenKinds[kind] + randomBytes(TOKEN_BYTES).toString("base64url");
  return { token, hash: hashToken(token) };
}

export function hashToken(token: string): Buffer<ArrayBuffer> {
  return createHash("sha256").update(token, "utf8").digest();
}

/** Constant-time comparison of a presented token with a stored hash. */
export function tokenMatchesHash(token: string, storedHash: Uint8Array): boolean {
  const presented = hashToken(token);
  return storedHash.length === presented.length && timingSafeEqual(presented, storedHash);
}

/** Cheap shape check before any database lookup: prefix and length of a token of that kind. */
export function looksLikeToken(kind: TokenKind, value: string): boolean {
  const prefix = tokenKinds[kind];
  return value.startsWith(prefix) && /^[A-Za-z0-9_-]{43}$/.test(value.slice(prefix.length));
}
