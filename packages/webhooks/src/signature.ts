// Webhook signatures (contract P08). Outbound reports carry a Stripe-style header
//   SecondShift-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>
// The timestamp is inside the signed text, so a receiver that checks it within a tolerance
// window rejects a captured request replayed later. Inbound push webhooks are verified with the
// same function, and GitHub's `X-Hub-Signature-256: sha256=<hex>` is accepted too.
// Every comparison is constant time (timingSafeEqual over equal-length digests), so response
// timing does not reveal how many leading characters of a forged signature were right.
import { createHmac, timingSafeEqual } from "node:crypto";

export const SIGNATURE_HEADER = "SecondShift-Signature";
export const EVENT_HEADER = "SecondShift-Event";
export const DELIVERY_HEADER = "SecondShift-Delivery";
export const GITHUB_SIGNATURE_HEADER = "X-Hub-Signature-256";
export const DEFAULT_TOLERANCE_SECONDS = 300;

const SIGNATURE_SCHEME = "v1";
const HEX_SHA256 = /^[0-9a-f]{64}$/;

/** Hex HMAC-SHA256 over "<t>.<body>". */
export function computeSignature(
  secret: string,
  timestampSeconds: number,
  body: string | Buffer,
): string {
  return createHmac("sha256", secret).update(`${timestampSeconds}.`).update(body).digest("hex");
}

/** The value of the SecondShift-Signature header for `body`, signed at `now`. */
export function signatureHeader(
  secret: string,
  body: string | Buffer,
  now: Date = new Date(),
): string {
  const t = Math.floor(now.getTime() / 1000);
  return `t=${t},${SIGNATURE_SCHEME}=${computeSignature(secret, t, body)}`;
}

export type SignatureFailure =
  "MISSING" | "MALFORMED" | "TIMESTAMP_OUT_OF_RANGE" | "SIGNATURE_MISMATCH";

export type VerifyResult =
  { ok: true; timestamp: number; signature: string } | { ok: false; reason: SignatureFailure };

export interface VerifyOptions {
  /** How far the signed timestamp may be from `now`, either way. Default 300 s. */
  toleranceSeconds?: number;
  now?: Date;
}

/** Constant-time equality of two hex digests (false for anything that is not 64 hex chars). */
export function digestsEqual(expectedHex: string, presentedHex: string): boolean {
  if (!HEX_SHA256.test(presentedHex)) return false;
  return timingSafeEqual(Buffer.from(expectedHex, "hex"), Buffer.from(presentedHex, "hex"));
}

function parseHeader(header: string): { t: number; signatures: string[] } | undefined {
  let t: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(",")) {
    const eq = part.indexOf("=");
    if (eq < 0) return undefined;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === "t") {
      if (!/^\d{1,12}$/.test(value) || t !== undefined) return undefined;
      t = Number(value);
    } else if (key === SIGNATURE_SCHEME) {
      // Several v1 values are allowed so a sender can sign with an old and a new secret
      // while the receiver rotates.
      signatures.push(value.toLowerCase());
    }
    // Unknown schemes are ignored, as Stripe's receivers do, so a future v2 can be added.
  }
  if (t === undefined || signatures.length === 0) return undefined;
  return { t, signatures };
}

/**
 * Verifies a SecondShift-Signature header: well-formed, timestamp within the tolerance window
 * (replay protection) and an HMAC that matches in constant time.
 */
export function verifySignature(
  header: string | null | undefined,
  body: string | Buffer,
  secret: string,
  options: VerifyOptions = {},
): VerifyResult {
  if (header === null || header === undefined || header.trim() === "")
    return { ok: false, reason: "MISSING" };
  const parsed = parseHeader(header);
  if (parsed === undefined) return { ok: false, reason: "MALFORMED" };
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const nowSeconds = Math.floor((options.now ?? new Date()).getTime() / 1000);
  if (Math.abs(nowSeconds - parsed.t) > tolerance)
    return { ok: false, reason: "TIMESTAMP_OUT_OF_RANGE" };
  const expected = computeSignature(secret, parsed.t, body);
  // Compare against every candidate without an early exit, so timing does not say which matched.
  let matched: string | undefined;
  for (const candidate of parsed.signatures) {
    if (digestsEqual(expected, candidate)) matched = candidate;
  }
  return matched === undefined
    ? { ok: false, reason: "SIGNATURE_MISMATCH" }
    : { ok: true, timestamp: parsed.t, signature: matched };
}

/** GitHub's `X-Hub-Signature-256: sha256=<hex HMAC-SHA256(secret, body)>`, constant time. */
export function verifyGitHubSignature(
  header: string | null | undefined,
  body: string | Buffer,
  secret: string,
): { ok: true; signature: string } | { ok: false; reason: SignatureFailure } {
  if (header === null || header === undefined || header.trim() === "")
    return { ok: false, reason: "MISSING" };
  const match = /^sha256=([0-9a-fA-F]{64})$/.exec(header.trim());
  if (match === null) return { ok: false, reason: "MALFORMED" };
  const presented = (match[1] ?? "").toLowerCase();
  const expected = createHmac("sha256", secret).update(body).digest("hex");
  return digestsEqual(expected, presented)
    ? { ok: true, signature: presented }
    : { ok: false, reason: "SIGNATURE_MISMATCH" };
}

/** GitHub-style header value for `body` (tests and senders that speak GitHub's format). */
export function gitHubSignatureHeader(secret: string, body: string | Buffer): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}
