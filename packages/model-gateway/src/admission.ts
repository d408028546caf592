// Admission of one request: authenticate, check the run and reserve budget. The common case is
// one round trip (tryReserve); only a refusal costs a second query to explain it, and a request
// that does not fit in full is retried once with its output bound capped to what is left.
import { exhaustBudget } from "@secondshift/run-lifecycle";
import type { Db, Pool } from "@secondshift/db";
import { AppError } from "@secondshift/errors";
import { invalidToken } from "./auth.ts";
import { diagnose, MAX_RESERVATION, tryReserve, type Reservation } from "./budget.ts";

export interface Admitted extends Reservation {
  /** Tokens reserved for this request (input estimate + granted output). */
  reserved: number;
  /** Output tokens granted per choice; the upstream body's output bound is set to this. */
  grantedOutput: number;
  /** Completions the request generates (OpenAI chat `n`); each may use grantedOutput. */
  choices: number;
}

export interface AdmissionRequest {
  tokenHash: Uint8Array;
  metered: boolean;
  inputEstimate: number;
  requestedOutput: number;
  /** OpenAI chat `n` (else 1): the output bound is reserved once per choice. */
  choices: number;
  maxParallel: number;
}

export const budgetExhausted = () =>
  new AppError(
    "PAYMENT_REQUIRED",
    "This run has used its token budget; it cannot call the model again. Raise the job's token budget for future runs.",
    {
      reason: "BUDGET_EXHAUSTED",
    },
  );

const CAP_ATTEMPTS = 3;

const choicesExceedBudget = (n: number, left: number) =>
  new AppError(
    "BAD_REQUEST",
    `This run has ${left} tokens left, not enough for ${n} choices (n) of at least one token each; ask for fewer.`,
    { reason: "CHOICES_EXCEED_BUDGET" },
  );

export async function admit(
  database: { db: Db; pool: Pool },
  req: AdmissionRequest,
): Promise<Admitted> {
  const n = req.metered ? req.choices : 1;
  let output = req.metered
    ? Math.min(req.requestedOutput, Math.floor((MAX_RESERVATION - req.inputEstimate) / n))
    : 0;
  for (let attempt = 0; ; attempt += 1) {
    const amount = req.metered ? req.inputEstimate + output * n : 0;
    const reservation = await tryReserve(database.pool, req.tokenHash, amount, req.maxParallel);
    if (reservation) return { ...reservation, reserved: amount, grantedOutput: output, choices: n };

    const state = await diagnose(database.db, req.tokenHash);
    if (!state) throw invalidToken();
    // A run cut off for its budget keeps saying so, even though its token is revoked.
    if (state.status === "BUDGET_EXHAUSTED") throw budgetExhausted();
    if (!state.tokenUsable || state.status !== "RUNNING") throw invalidToken();
    if (state.gatewayInFlight >= req.maxParallel) {
      throw new AppError(
        "TOO_MANY_REQUESTS",
        `This run already has ${req.maxParallel} model requests in flight; wait for one to finish.`,
        {
          reason: "RUN_PARALLEL_LIMIT",
        },
      );
    }
    const minimum = req.inputEstimate + (req.metered ? n : 0);
    const left = state.budgetTokens - state.tokensUsed;
    if (left < req.inputEstimate + (req.metered ? 1 : 0)) {
      // Even with every in-flight reservation released this request cannot fit, and an agent's
      // context only grows: the run is done.
      await exhaustBudget(database.db, { id: state.runId, workspaceId: state.workspaceId });
      throw budgetExhausted();
    }
    // A single choice would fit; the many asked for cannot, whatever finishes in flight.
    if (left < minimum) throw choicesExceedBudget(n, left);
    const free = state.budgetTokens - state.tokensUsed - state.tokensReserved;
    if (free < minimum || attempt >= CAP_ATTEMPTS) {
      throw new AppError(
        "TOO_MANY_REQUESTS",
        "The run's remaining token budget is reserved by requests in flight; retry when they finish.",
        {
          reason: "BUDGET_RESERVED_IN_FLIGHT",
        },
      );
    }
    // Fits only with a smaller output bound: cap max tokens to what remains and try again.
    output = Math.min(output, Math.floor((free - req.inputEstimate) / n));
  }
}
