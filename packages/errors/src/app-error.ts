// The one error type that crosses package boundaries. Its code decides the HTTP / tRPC status;
// its message is written for the person who has to act on it and never contains a secret.

export const errorCodes = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  PAYMENT_REQUIRED: 402,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  PRECONDITION_FAILED: 412,
  TOO_MANY_REQUESTS: 429,
  INTERNAL: 500,
  BAD_GATEWAY: 502,
  SERVICE_UNAVAILABLE: 503,
  GATEWAY_TIMEOUT: 504,
} as const;

export type ErrorCode = keyof typeof errorCodes;

/** tRPC error codes for each of ours (tRPC has no 402 / 502; those map to the nearest). */
export const trpcCodes: Record<ErrorCode, string> = {
  BAD_REQUEST: "BAD_REQUEST",
  UNAUTHORIZED: "UNAUTHORIZED",
  PAYMENT_REQUIRED: "FORBIDDEN",
  FORBIDDEN: "FORBIDDEN",
  NOT_FOUND: "NOT_FOUND",
  CONFLICT: "CONFLICT",
  PAYLOAD_TOO_LARGE: "PAYLOAD_TOO_LARGE",
  PRECONDITION_FAILED: "PRECONDITION_FAILED",
  TOO_MANY_REQUESTS: "TOO_MANY_REQUESTS",
  INTERNAL: "INTERNAL_SERVER_ERROR",
  BAD_GATEWAY: "INTERNAL_SERVER_ERROR",
  SERVICE_UNAVAILABLE: "SERVICE_UNAVAILABLE",
  GATEWAY_TIMEOUT: "TIMEOUT",
};

export interface AppErrorOptions {
  /** A stable, machine-readable reason within the code, e.g. "RUN_TOKEN_EXPIRED". */
  reason?: string;
  cause?: unknown;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly reason: string | undefined;

  constructor(code: ErrorCode, message: string, options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "AppError";
    this.code = code;
    this.reason = options.reason;
  }

  get httpStatus(): number {
    return errorCodes[this.code];
  }

  /** The JSON body an HTTP API returns for this error. */
  toJSON(): { error: { code: ErrorCode; reason?: string; message: string } } {
    return {
      error: {
        code: this.code,
        ...(this.reason === undefined ? {} : { reason: this.reason }),
        message: this.message,
      },
    };
  }
}

export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError;
}
