// Applying one output after its run has ended, exactly once (O06). The claim (one UPDATE) moves
// it to APPLYING; the attempt then holds a per-output advisory lock for as long as it talks to
// GitHub, so two workers never write the same output at once, and re-reads the state under it
// (the other may have finished). A crash between GitHub's create and the APPLIED write leaves it
// APPLYING: the next attempt finds the body's marker and records that object instead. A pull
// request whose base branch moved onto its files goes back to HELD for the owner (base-moved.ts).
import type { Db } from "@secondshift/db";
import { claimOutput, type ClaimedOutput } from "./claim.ts";
import { isHeldAgain } from "./base-moved.ts";
import { markApplied, markFailed, markHeldAgain } from "./record.ts";
import { loadTarget } from "./target.ts";
import { writeTokenStore } from "./write-token.ts";
import { writeOutput, type WriteDeps } from "./write.ts";

export interface ApplyDeps extends WriteDeps {
  db: Db;
  now?: () => Date;
  /**
   * After an output became APPLIED or FAILED (committed): e.g. its webhook deliveries. Called
   * again when an output already settled is applied again; it must be idempotent.
   */
  onSettled?: (settled: SettledOutput) => Promise<void>;
  /** How long one attempt may hold the output's lock; default 2 minutes. */
  attemptTimeoutMs?: number;
}

export interface SettledOutput {
  outputId: string;
  workspaceId: string;
  runId: string;
  kind: string;
  state: "APPLIED" | "FAILED";
}

export type ApplyResult =
  | { status: "applied"; resultUrl: string; created: boolean }
  | { status: "failed"; reason: string }
  /** Back to HELD for the owner: the base branch moved onto the pull request's files. */
  | { status: "held"; reason: string }
  /** Nothing to do: already applied, failed, rejected, expired, or not applicable yet. */
  | { status: "skipped" };

export async function applyOutput(
  deps: ApplyDeps,
  input: { outputId: string },
): Promise<ApplyResult> {
  const output = await claimOutput(deps.db, input.outputId);
  if (output === null) {
    await settledAgain(deps, input.outputId);
    return { status: "skipped" };
  }
  const timeout = deps.attemptTimeoutMs ?? 120_000;
  const result = await deps.db.$transaction((tx) => attemptUnderLock(deps, tx, output), {
    timeout,
    maxWait: timeout,
  });
  if ((result.status === "applied" || result.status === "failed") && deps.onSettled)
    await deps.onSettled({
      outputId: output.id,
      workspaceId: output.workspaceId,
      runId: output.runId,
      kind: output.kind,
      state: result.status === "applied" ? "APPLIED" : "FAILED",
    });
  return result;
}

/**
 * An output already APPLIED or FAILED, applied again (a queue retry after onSettled threw, or a
 * re-added job): onSettled again, so its effect is not lost. onSettled must be idempotent (the
 * webhook deliveries are unique per webhook and output).
 */
async function settledAgain(deps: ApplyDeps, outputId: string): Promise<void> {
  if (!deps.onSettled) return;
  const row = await deps.db.runOutput.findUnique({
    where: { id: outputId },
    select: { id: true, workspaceId: true, runId: true, kind: true, state: true },
  });
  if (row?.state !== "APPLIED" && row?.state !== "FAILED") return;
  await deps.onSettled({
    outputId: row.id,
    workspaceId: row.workspaceId,
    runId: row.runId,
    kind: row.kind,
    state: row.state,
  });
}

type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];

async function attemptUnderLock(deps: ApplyDeps, tx: Tx, output: ClaimedOutput) {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('secondshift.output-apply'), hashtext(${output.id}))`;
  const current = await tx.runOutput.findUnique({
    where: { id: output.id },
    select: { state: true },
  });
  if (current?.state !== "APPLYING") return { status: "skipped" } as const;
  const loaded = await loadTarget(deps.db, output);
  const tokens = writeTokenStore(deps.db, deps.keyring, output);
  const outcome =
    "target" in loaded ? await writeOutput(deps, loaded.target, output, tokens) : loaded;
  if (isHeldAgain(outcome)) {
    const reason = deps.masker ? deps.masker.mask(outcome.reason) : outcome.reason;
    await markHeldAgain(tx, output, { ...outcome, reason });
    return { status: "held", reason } as const;
  }
  if ("reason" in outcome) {
    await markFailed(tx, output, outcome);
    return { status: "failed", reason: outcome.reason } as const;
  }
  await markApplied(tx, output, outcome, (deps.now ?? (() => new Date()))());
  return { status: "applied", resultUrl: outcome.htmlUrl, created: outcome.created } as const;
}
