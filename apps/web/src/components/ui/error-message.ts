// What to show for a failed call: the API's message (written for users, never a secret), or a
// generic one for anything else (a network failure, a bug).
import { TRPCClientError } from "@trpc/client";

export function errorMessage(error: unknown): string {
  // Input validation: the messages are per field (fieldErrors); the summary says where to look.
  if (Object.values(fieldErrors(error)).some(Boolean)) return "Check the fields marked below.";
  if (error instanceof TRPCClientError && typeof error.message === "string" && error.message) {
    return error.message;
  }
  return "The request did not reach the server. Check your connection and retry.";
}

/** The API's reason code (stable, machine-readable), when there is one. */
export function errorReason(error: unknown): string | null {
  if (!(error instanceof TRPCClientError)) return null;
  const data = error.data as { reason?: unknown } | undefined;
  return typeof data?.reason === "string" ? data.reason : null;
}

/** Per-field messages from the API's input validation, keyed by field name. */
export function fieldErrors(error: unknown): Record<string, string | undefined> {
  if (!(error instanceof TRPCClientError)) return {};
  const data = error.data as { fieldErrors?: Record<string, string[] | undefined> } | undefined;
  return Object.fromEntries(
    Object.entries(data?.fieldErrors ?? {}).map(([field, messages]) => [field, messages?.[0]]),
  );
}
