// Typed connector failures. Messages are written for the owner/operator and never contain the
// credential, request headers, request bodies or upstream response bodies (an upstream can echo
// a header back in an error page, so its text is never quoted).
import { AppError, isAppError, type ErrorCode } from "@secondshift/errors";

export const connectorReasons = [
  "OUT_OF_SCOPE",
  "UNKNOWN_TOOL",
  "INVALID_ARGUMENTS",
  "INVALID_SETTINGS",
  "UPSTREAM_ERROR",
  "UPSTREAM_NOT_FOUND",
  "RATE_LIMITED",
  "AUTH_FAILED",
  "TIMEOUT",
  "CANCELLED",
  "RESULT_TOO_LARGE",
  "PROTOCOL_ERROR",
] as const;
export type ConnectorReason = (typeof connectorReasons)[number];

const codes: Record<ConnectorReason, ErrorCode> = {
  OUT_OF_SCOPE: "FORBIDDEN",
  UNKNOWN_TOOL: "NOT_FOUND",
  INVALID_ARGUMENTS: "BAD_REQUEST",
  INVALID_SETTINGS: "PRECONDITION_FAILED",
  UPSTREAM_ERROR: "BAD_GATEWAY",
  UPSTREAM_NOT_FOUND: "NOT_FOUND",
  RATE_LIMITED: "TOO_MANY_REQUESTS",
  AUTH_FAILED: "BAD_GATEWAY",
  TIMEOUT: "GATEWAY_TIMEOUT",
  CANCELLED: "BAD_GATEWAY",
  RESULT_TOO_LARGE: "PAYLOAD_TOO_LARGE",
  PROTOCOL_ERROR: "BAD_GATEWAY",
};

export function connectorError(
  reason: ConnectorReason,
  message: string,
  cause?: unknown,
): AppError {
  // The cause is kept for stack traces in the worker only; AppError.toJSON never serialises it.
  return new AppError(
    codes[reason],
    message,
    cause === undefined ? { reason } : { reason, cause: sanitisedCause(cause) },
  );
}

export function isConnectorError(value: unknown, reason?: ConnectorReason): value is AppError {
  return isAppError(value) && (reason === undefined || value.reason === reason);
}

// A cause from a library may carry request details in its message (the MCP SDK puts response
// bodies into error messages); keep only its class name so nothing upstream-controlled is logged.
function sanitisedCause(cause: unknown): Error | undefined {
  if (isAppError(cause)) return cause;
  if (cause instanceof Error) return new Error(`${cause.name} (details withheld)`);
  return undefined;
}

export function outOfScope(message: string): AppError {
  return connectorError("OUT_OF_SCOPE", message);
}

/** The error for an HTTP status from an upstream service; only the status is reported. */
export function upstreamStatusError(service: string, status: number): AppError {
  if (status === 401 || status === 403) {
    return connectorError(
      "AUTH_FAILED",
      `${service} refused the connection's credential (HTTP ${status}). Ask the workspace owner to check or reconnect it.`,
    );
  }
  if (status === 404)
    return connectorError("UPSTREAM_NOT_FOUND", `${service} answered HTTP 404: not found.`);
  if (status === 429)
    return connectorError(
      "RATE_LIMITED",
      `${service} is rate limiting this connection (HTTP 429). Try again later.`,
    );
  return connectorError("UPSTREAM_ERROR", `${service} answered HTTP ${status}.`);
}

/**
 * Maps anything thrown while talking to a service to a typed AppError. netguard's errors (which
 * name only the host) pass through; aborts become TIMEOUT or CANCELLED; the rest is withheld.
 */
export function toConnectorError(
  error: unknown,
  service: string,
  deadline?: { timedOut(): boolean },
): AppError {
  if (deadline?.timedOut())
    return connectorError("TIMEOUT", `${service} did not answer in time.`, error);
  if (isAppError(error)) return error;
  if (error instanceof Error && (error.name === "AbortError" || error.name === "TimeoutError")) {
    return connectorError("CANCELLED", `The call to ${service} was cancelled.`, error);
  }
  return connectorError("UPSTREAM_ERROR", `The call to ${service} failed.`, error);
}
