// A failure a retry may fix (GitHub busy or rate-limited, a network error): the output stays
// APPLYING and the queue tries again. The message names the status only; GitHub's error object
// (it holds the request) is not kept as the cause.
import { AppError } from "@secondshift/errors";

export function transientFailure(error: unknown, outputId: string): AppError {
  const status = (error as { status?: unknown } | null)?.status;
  const what =
    typeof status === "number" ? `GitHub answered HTTP ${status}` : "GitHub could not be reached";
  return new AppError(
    "SERVICE_UNAVAILABLE",
    `${what} while applying output ${outputId}; it is tried again shortly.`,
    { reason: "OUTPUT_APPLY_RETRY" },
  );
}
