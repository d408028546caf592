// Typed outcomes of a refused or failed tool call. Reasons are stable strings the agent loop
// and the UI branch on; `failsRun` marks those that end the run: access was taken away (C06,
// the run is marked REVOKED) or the call could not be audited (AUDIT_UNAVAILABLE, FAILED).
import { AppError, type ErrorCode } from "@secondshift/errors";

export const refusalReasons = {
  NOT_IN_PLAN: { code: "FORBIDDEN", failsRun: false },
  RUN_NOT_ACTIVE: { code: "CONFLICT", failsRun: false },
  GRANT_REVOKED: { code: "FORBIDDEN", failsRun: true },
  REQUEST_CHANGED: { code: "FORBIDDEN", failsRun: true },
  CONNECTION_REMOVED: { code: "FORBIDDEN", failsRun: true },
  TOOL_NOT_ALLOWED: { code: "FORBIDDEN", failsRun: true },
  INVALID_ARGUMENTS: { code: "BAD_REQUEST", failsRun: false },
  INVALID_SCHEMA: { code: "PRECONDITION_FAILED", failsRun: false },
  OUT_OF_SCOPE: { code: "FORBIDDEN", failsRun: false },
  CREDENTIAL_UNAVAILABLE: { code: "PRECONDITION_FAILED", failsRun: false },
  // The OAuth server refused the refresh: every later call would fail the same way (FAILED).
  RECONNECT_REQUIRED: { code: "PRECONDITION_FAILED", failsRun: true },
  TIMEOUT: { code: "GATEWAY_TIMEOUT", failsRun: false },
  CONNECTOR_FAILED: { code: "BAD_GATEWAY", failsRun: false },
  AUDIT_UNAVAILABLE: { code: "SERVICE_UNAVAILABLE", failsRun: true },
} as const satisfies Record<string, { code: ErrorCode; failsRun: boolean }>;

export type RefusalReason = keyof typeof refusalReasons;

export class ToolCallError extends AppError {
  declare readonly reason: RefusalReason;
  readonly failsRun: boolean;

  constructor(reason: RefusalReason, message: string) {
    super(refusalReasons[reason].code, message, { reason });
    this.name = "ToolCallError";
    this.failsRun = refusalReasons[reason].failsRun;
  }
}

export function isToolCallError(value: unknown, reason?: RefusalReason): value is ToolCallError {
  return value instanceof ToolCallError && (reason === undefined || value.reason === reason);
}
