// Every refusal and failure is an AppError with a stable reason, so callers (broker, gateway,
// webhooks) can map it without string matching. Messages name only the host, never the path,
// query, headers or body: webhook URLs and API paths can carry secrets.
import { AppError, type ErrorCode } from "@secondshift/errors";

export const netguardReasons = {
  ADDRESS_NOT_PUBLIC: "FORBIDDEN",
  HOST_NOT_ALLOWED: "FORBIDDEN",
  HTTPS_REQUIRED: "FORBIDDEN",
  UNSUPPORTED_SCHEME: "BAD_REQUEST",
  INVALID_URL: "BAD_REQUEST",
  DNS_FAILED: "BAD_GATEWAY",
  CONNECT_FAILED: "BAD_GATEWAY",
  TLS_FAILED: "BAD_GATEWAY",
  TOO_MANY_REDIRECTS: "BAD_GATEWAY",
  REDIRECT_NOT_ALLOWED: "BAD_GATEWAY",
  REDIRECT_BODY_NOT_REPLAYABLE: "BAD_GATEWAY",
  RESPONSE_TOO_LARGE: "BAD_GATEWAY",
  TIMEOUT: "GATEWAY_TIMEOUT",
  INVALID_POLICY: "INTERNAL",
} as const satisfies Record<string, ErrorCode>;

export type NetguardReason = keyof typeof netguardReasons;

const ALLOW_HINT =
  "an operator can allow this internal host with SECONDSHIFT_ALLOWED_PRIVATE_HOSTS " +
  "or its range with SECONDSHIFT_ALLOWED_PRIVATE_CIDRS";

export function netguardError(reason: NetguardReason, message: string, cause?: unknown): AppError {
  return new AppError(
    netguardReasons[reason],
    message,
    cause === undefined ? { reason } : { reason, cause },
  );
}

export function isNetguardError(value: unknown, reason?: NetguardReason): value is AppError {
  return (
    value instanceof AppError &&
    value.reason !== undefined &&
    value.reason in netguardReasons &&
    (reason === undefined || value.reason === reason)
  );
}

export function addressNotPublic(host: string, address: string, range: string): AppError {
  const shown = host === address ? address : `${host} (${address})`;
  return netguardError(
    "ADDRESS_NOT_PUBLIC",
    `Outbound request refused: ${shown} is a non-public address (${range}); ` +
      `outbound calls may reach only public addresses; ${ALLOW_HINT}.`,
  );
}

export function hostNotAllowed(host: string, why: string): AppError {
  return netguardError(
    "HOST_NOT_ALLOWED",
    `Outbound request refused: ${host} is ${why}; outbound calls may reach only public hosts.`,
  );
}

export function httpsRequired(host: string): AppError {
  return netguardError(
    "HTTPS_REQUIRED",
    `Outbound request to ${host} refused: production requires https; use an https:// URL.`,
  );
}

export function httpNotEnabled(host: string): AppError {
  return netguardError(
    "HTTPS_REQUIRED",
    `Outbound request to ${host} refused: plain http is off; use an https:// URL ` +
      `(outside production, http can be allowed for development with allowHttp).`,
  );
}

export function dnsFailed(host: string, cause: unknown): AppError {
  return netguardError(
    "DNS_FAILED",
    `Could not resolve ${host}; check the host name and the server's DNS.`,
    cause,
  );
}

export function timeoutError(host: string, timeoutMs: number): AppError {
  return netguardError(
    "TIMEOUT",
    `Outbound request to ${host} did not complete within ${timeoutMs} ms; ` +
      `the service is slow or unreachable, try again later or raise the timeout.`,
  );
}

export function tooLarge(host: string, maxBytes: number): AppError {
  return netguardError(
    "RESPONSE_TOO_LARGE",
    `Response from ${host} exceeded ${maxBytes} bytes and was cut off; ` +
      `ask for less data (a smaller page or range) or raise the response limit.`,
  );
}

// Certificate problems are configuration problems, not outages: say so.
function isTlsError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && /CERT|TLS|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)/.test(code);
}

export function connectFailed(host: string, cause: unknown): AppError {
  if (isTlsError(cause)) {
    return netguardError(
      "TLS_FAILED",
      `The TLS certificate of ${host} could not be verified; the service must present a valid certificate for this host name.`,
      cause,
    );
  }
  return netguardError(
    "CONNECT_FAILED",
    `Could not connect to ${host}; the service may be down.`,
    cause,
  );
}
