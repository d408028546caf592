// One signal per call that fires on the caller's abort or on the call's own timeout, and can
// tell the two apart (a timeout is reported as TIMEOUT, a caller abort as CANCELLED).
export interface CallDeadline {
  signal: AbortSignal;
  timedOut(): boolean;
  clear(): void;
}

export function startDeadline(parent: AbortSignal, timeoutMs: number): CallDeadline {
  const controller = new AbortController();
  let timedOut = false;
  const onAbort = () => controller.abort(parent.reason);
  if (parent.aborted) controller.abort(parent.reason);
  else parent.addEventListener("abort", onAbort, { once: true });
  const timer = setTimeout(
    () => {
      timedOut = true;
      controller.abort(new DOMException("The call timed out.", "TimeoutError"));
    },
    Math.max(1, timeoutMs),
  );
  timer.unref();
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    clear: () => {
      clearTimeout(timer);
      parent.removeEventListener("abort", onAbort);
    },
  };
}
