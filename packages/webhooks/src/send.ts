// One HTTP attempt. The outcome is described in our own words, never with the error's
// message: undici and netguard messages can name the host, and a receiver's URL (path, query)
// is itself a secret (C27). Only the status code, a stable reason and the duration are kept.
import type { OutboundClient } from "@secondshift/netguard";
import { isNetguardError } from "@secondshift/netguard";
import { isAppError } from "@secondshift/errors";

export interface AttemptOutcome {
  delivered: boolean;
  statusCode: number | null;
  /** Human-readable, secret-free; null when delivered. */
  error: string | null;
  durationMs: number;
}

const REASON_TEXT: Record<string, string> = {
  ADDRESS_NOT_PUBLIC:
    "The webhook's host resolves to an address that outbound requests may not reach.",
  HOST_NOT_ALLOWED: "The webhook's host is not allowed for outbound requests.",
  HTTPS_REQUIRED: "The webhook URL must use https.",
  UNSUPPORTED_SCHEME: "The webhook URL must use https.",
  INVALID_URL: "The webhook URL is not a valid URL.",
  DNS_FAILED: "The webhook's host name did not resolve.",
  CONNECT_FAILED: "Could not connect to the receiver.",
  TLS_FAILED: "The receiver's TLS certificate was not accepted.",
  TIMEOUT: "The receiver did not answer in time.",
  RESPONSE_TOO_LARGE: "The receiver's answer was too large.",
};

/** Bytes of the receiver's answer we are willing to read (it is discarded anyway). */
const MAX_RESPONSE_BYTES = 64 * 1024;

export function describeFailure(error: unknown): string {
  if (isNetguardError(error) && isAppError(error) && error.reason !== undefined) {
    return `${REASON_TEXT[error.reason] ?? "The request was refused by the outbound policy."} (${error.reason})`;
  }
  return "The request to the receiver failed.";
}

export async function sendAttempt(
  client: Pick<OutboundClient, "fetch">,
  request: { url: string; headers: Record<string, string>; body: string; timeoutMs: number },
): Promise<AttemptOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const response = await client.fetch(request.url, {
      method: "POST",
      headers: request.headers,
      body: request.body,
      // A receiver that redirects gets no second request: following would send the signed
      // body to a destination the owner never configured.
      redirect: "manual",
      timeoutMs: request.timeoutMs,
      maxResponseBytes: MAX_RESPONSE_BYTES,
    });
    // Drain (bounded) so the pooled connection can be reused; the content is not stored.
    await response.arrayBuffer().catch(() => undefined);
    const status = response.status;
    if (status >= 200 && status < 300)
      return { delivered: true, statusCode: status, error: null, durationMs: elapsed() };
    const error =
      status >= 300 && status < 400
        ? `The receiver answered HTTP ${status} (a redirect); redirects are not followed, configure the final URL.`
        : `The receiver answered HTTP ${status}.`;
    return { delivered: false, statusCode: status, error, durationMs: elapsed() };
  } catch (error) {
    return {
      delivered: false,
      statusCode: null,
      error: describeFailure(error),
      durationMs: elapsed(),
    };
  }
}
