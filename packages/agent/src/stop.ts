// A run ends early for reasons that are not bugs: budget, revocation, cancel, deadline. They
// travel as one error type so that any layer (model call, tool call) can end the run and the
// loop turns it into the outcome, instead of each layer returning a special value.
import type { AgentOutcome } from "./types.ts";

export class StopRun extends Error {
  readonly outcome: Exclude<AgentOutcome, "succeeded">;

  constructor(outcome: Exclude<AgentOutcome, "succeeded">, message: string) {
    super(message);
    this.name = "StopRun";
    this.outcome = outcome;
  }
}

export function isStopRun(value: unknown): value is StopRun {
  return value instanceof StopRun;
}

/**
 * Why the run's combined signal fired: the worker's cancel wins over the deadline, because a
 * person asked for it.
 */
export function stopForAbort(cancel: AbortSignal, deadline: Date): StopRun {
  if (cancel.aborted) return new StopRun("cancelled", "The run was cancelled.");
  if (Date.now() >= deadline.getTime())
    return new StopRun("timed_out", "The run reached its deadline.");
  return new StopRun("cancelled", "The run was stopped.");
}

/** Resolves or rejects with `work`, or rejects as soon as `signal` aborts (the work is abandoned). */
export function raceAbort<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new AbortedError());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new AbortedError());
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/** Thrown by raceAbort; the loop maps it to cancelled or timed_out with stopForAbort. */
export class AbortedError extends Error {
  constructor() {
    super("aborted");
    this.name = "AbortedError";
  }
}
