import * as nodeCrypto from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import {
  computeSignature,
  gitHubSignatureHeader,
  signatureHeader,
  verifyGitHubSignature,
  verifySignature,
} from "./signature.ts";

// Spy on timingSafeEqual to prove the comparison goes through it (constant time), not `===`.
vi.mock("node:crypto", async (importOriginal) => {
  const actual = await importOriginal<typeof nodeCrypto>();
  return { ...actual, timingSafeEqual: vi.fn(actual.timingSafeEqual) };
});

const secret = "whsec_planted_signing_secret_0123456789";
const body = JSON.stringify({ run: { id: "r1", status: "succeeded" } });
const now = new Date("2026-01-05T10:00:00.000Z");

describe("SecondShift-Signature", () => {
  it("[P08] signs t=<unix seconds>,v1=<hex HMAC-SHA256 of '<t>.<body>'> and verifies it", () => {
    const header = signatureHeader(secret, body, now);
    const t = Math.floor(now.getTime() / 1000);
    const expected = nodeCrypto.createHmac("sha256", secret).update(`${t}.${body}`).digest("hex");
    expect(header).toBe(`t=${t},v1=${expected}`);
    expect(verifySignature(header, body, secret, { now })).toEqual({
      ok: true,
      timestamp: t,
      signature: expected,
    });
  });

  it("[P08] a tampered body is rejected", () => {
    const header = signatureHeader(secret, body, now);
    expect(verifySignature(header, body.replace("succeeded", "failed"), secret, { now })).toEqual({
      ok: false,
      reason: "SIGNATURE_MISMATCH",
    });
    expect(verifySignature(header, `${body} `, secret, { now }).ok).toBe(false);
  });

  it("[P08] a signature made with another secret is rejected", () => {
    const header = signatureHeader("whsec_attacker_guess_0000000000", body, now);
    expect(verifySignature(header, body, secret, { now })).toEqual({
      ok: false,
      reason: "SIGNATURE_MISMATCH",
    });
  });

  it("[P08] a replayed request outside the tolerance window is rejected, also with the timestamp rewritten", () => {
    const header = signatureHeader(secret, body, now);
    const later = new Date(now.getTime() + 301_000);
    expect(verifySignature(header, body, secret, { now: later })).toEqual({
      ok: false,
      reason: "TIMESTAMP_OUT_OF_RANGE",
    });
    expect(
      verifySignature(header, body, secret, { now: new Date(now.getTime() - 301_000) }).ok,
    ).toBe(false);
    expect(verifySignature(header, body, secret, { now: later, toleranceSeconds: 600 }).ok).toBe(
      true,
    );
    // Moving t into the window breaks the HMAC, because t is part of the signed text.
    const rewritten = header.replace(/^t=\d+/, `t=${Math.floor(later.getTime() / 1000)}`);
    expect(verifySignature(rewritten, body, secret, { now: later })).toEqual({
      ok: false,
      reason: "SIGNATURE_MISMATCH",
    });
  });

  it("[P08] malformed and missing headers are rejected without throwing", () => {
    const t = Math.floor(now.getTime() / 1000);
    for (const header of [
      "",
      "garbage",
      `t=${t}`,
      `v1=${"a".repeat(64)}`,
      `t=abc,v1=${"a".repeat(64)}`,
      `t=${t},t=${t},v1=x`,
    ]) {
      expect(verifySignature(header, body, secret, { now }).ok).toBe(false);
    }
    expect(verifySignature(undefined, body, secret, { now })).toEqual({
      ok: false,
      reason: "MISSING",
    });
    expect(verifySignature(`t=${t},v1=short`, body, secret, { now })).toEqual({
      ok: false,
      reason: "SIGNATURE_MISMATCH",
    });
  });

  it("[P08] accepts any of several v1 values (secret rotation) and ignores unknown schemes", () => {
    const t = Math.floor(now.getTime() / 1000);
    const header = `t=${t},v0=zzz,v1=${computeSignature("old-secret-value", t, body)},v1=${computeSignature(secret, t, body)}`;
    expect(verifySignature(header, body, secret, { now }).ok).toBe(true);
  });

  it("[P08] compares digests with crypto.timingSafeEqual (constant time)", () => {
    const spy = vi.mocked(nodeCrypto.timingSafeEqual);
    spy.mockClear();
    verifySignature(signatureHeader("wrong-secret-123456", body, now), body, secret, { now });
    expect(spy).toHaveBeenCalledTimes(1);
    const [a, b] = spy.mock.calls[0] ?? [];
    expect(Buffer.isBuffer(a) && Buffer.isBuffer(b) && a.length === 32 && b.length === 32).toBe(
      true,
    );
    spy.mockClear();
    verifyGitHubSignature(gitHubSignatureHeader("wrong-secret-123456", body), body, secret);
    expect(spy).toHaveBeenCalledTimes(1);
  });
});

describe("X-Hub-Signature-256 (GitHub style)", () => {
  it("[P08] verifies sha256=<hex HMAC(body)>; tampered body, wrong secret and malformed values fail", () => {
    const header = gitHubSignatureHeader(secret, body);
    expect(header).toBe(
      `sha256=${nodeCrypto.createHmac("sha256", secret).update(body).digest("hex")}`,
    );
    expect(verifyGitHubSignature(header, body, secret).ok).toBe(true);
    expect(
      verifyGitHubSignature(header.toUpperCase().replace("SHA256", "sha256"), body, secret).ok,
    ).toBe(true);
    expect(verifyGitHubSignature(header, `${body}x`, secret)).toEqual({
      ok: false,
      reason: "SIGNATURE_MISMATCH",
    });
    expect(
      verifyGitHubSignature(gitHubSignatureHeader("other-secret-1234", body), body, secret).ok,
    ).toBe(false);
    expect(verifyGitHubSignature("sha1=abc", body, secret)).toEqual({
      ok: false,
      reason: "MALFORMED",
    });
    expect(verifyGitHubSignature(null, body, secret)).toEqual({ ok: false, reason: "MISSING" });
  });
});
