// One total deadline per request (headers and body together), so a server that answers
// quickly and then drips the body one byte at a time is still cut off.
import { timeoutError } from "./errors.ts";

export interface Deadline {
  /** Aborts on the deadline or when the caller's signal aborts. */
  signal: AbortSignal;
  /** Aborts the request with a netguard error (size limit, stream cancelled). */
  abort(reason: unknown): void;
  /** Stops the timer once the body is finished or cancelled. */
  clear(): void;
}

export function startDeadline(
  host: string,
  timeoutMs: number,
  callerSignal?: AbortSignal | null,
): Deadline {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(timeoutError(host, timeoutMs)), timeoutMs);
  // Never keep the process alive just for this timer.
  timer.unref();
  const onCallerAbort = (): void => controller.abort(callerSignal?.reason);
  if (callerSignal?.aborted) onCallerAbort();
  else callerSignal?.addEventListener("abort", onCallerAbort, { once: true });
  const clear = (): void => {
    clearTimeout(timer);
    callerSignal?.removeEventListener("abort", onCallerAbort);
  };
  return {
    signal: controller.signal,
    abort: (reason) => {
      controller.abort(reason);
      clear();
    },
    clear,
  };
}
