// The finalize checks of a run's proposals (O02 limits, O05 secrets), run by the executor after
// the agent loop while the run's secrets are still known: each PROPOSED output becomes REFUSED
// (a check failed; the reason names the check, never the value), HELD (the owner chose "hold",
// or the run did not succeed) or READY (applied automatically once the run is final). When the
// plan asks for the threat review, every proposal not refused is reviewed first (review/): a
// warning or a review that could not run holds it; the verdict is stored in `payload.review`.
import type { Db } from "@secondshift/db";
import { readGrantedOutputs, recordAudit } from "@secondshift/domain";
import type { Prisma } from "@secondshift/db";
import type {
  GrantedOutputs,
  OutputKind,
  OutputState,
  ThreatReview,
} from "@secondshift/vocabulary";
import { reviewProposals, type ReviewModelCall } from "../review/review-proposals.ts";
import { limitProblem, proposalTexts } from "./limits.ts";
import type { EventHolds } from "./event-holds.ts";
import { protectedPathHold, type OutputCheckConfig } from "./pull-request.ts";
import { secretFinding, type KnownSecrets } from "./scan.ts";

export interface CheckRun {
  id: string;
  workspaceId: string;
  /** Whether the run ended SUCCEEDED: outputs of any other run are held. */
  succeeded: boolean;
  /** The run's final status, named in the hold reason. */
  status: string;
  /** What the event that started the run holds (event-holds.ts); none when absent. */
  holds?: EventHolds;
}

export interface CheckedOutput {
  id: string;
  state: Extract<OutputState, "REFUSED" | "HELD" | "READY">;
}

interface Verdict {
  state: CheckedOutput["state"];
  reason: string | null;
  /** The threat review's verdict, stored in the payload next to the proposal. */
  review?: ThreatReview;
}

const MODE_HOLD = "Held: the owner asked to approve this kind of output.";

async function verdict(
  output: { kind: string; payload: unknown },
  index: number,
  granted: GrantedOutputs,
  run: CheckRun,
  known: KnownSecrets,
  config: OutputCheckConfig = {},
): Promise<Verdict> {
  const problem =
    limitProblem(output, index, granted, config) ??
    (await secretFinding(proposalTexts(output), known));
  if (problem) return { state: "REFUSED", reason: problem };
  if (!run.succeeded)
    return {
      state: "HELD",
      reason: `Held: the run ended ${run.status.toLowerCase()}, so an owner must approve this before it is applied.`,
    };
  const eventHold =
    run.holds?.all ?? (output.kind === "pull_request" ? run.holds?.pullRequest : null);
  if (eventHold) return { state: "HELD", reason: eventHold };
  const protectedPath =
    output.kind === "pull_request"
      ? protectedPathHold(
          (output.payload ?? {}) as Record<string, unknown>,
          granted.pull_request?.protectedPaths,
        )
      : null;
  if (protectedPath) return { state: "HELD", reason: protectedPath };
  const mode = granted[output.kind as OutputKind]?.mode;
  if (mode !== "auto") return { state: "HELD", reason: MODE_HOLD };
  return { state: "READY", reason: null };
}

/** Writes one verdict; only a row still in `from` changes, with its audit row (none for READY). */
async function record(
  db: Db,
  run: { id: string; workspaceId: string },
  id: string,
  kind: string,
  v: Verdict,
  now: Date,
  from: OutputState = "PROPOSED",
  payload?: unknown,
) {
  const reviewed =
    v.review && typeof payload === "object" && payload !== null
      ? { payload: { ...payload, review: { ...v.review } } as Prisma.InputJsonValue }
      : {};
  await db.$transaction(async (tx) => {
    const changed = await tx.runOutput.updateMany({
      where: { id, runId: run.id, workspaceId: run.workspaceId, state: from },
      data: { state: v.state, reason: v.reason, checkedAt: now, ...reviewed },
    });
    if (changed.count === 0 || v.state === "READY") return;
    await recordAudit(tx, {
      workspaceId: run.workspaceId,
      actorType: "RUN",
      actorId: run.id,
      action: v.state === "HELD" ? "output.held" : "output.refused",
      targetType: "RunOutput",
      targetId: id,
      targetLabel: kind,
      outcome: v.state.toLowerCase(),
    });
  });
}

export const NO_REVIEW_CALL = "Held: the threat review could not run: no model call was available.";

/**
 * The threat review of the outputs not refused, when the plan asks for it: a warning or a
 * failed review holds the output (its reason first); a clean one keeps the verdict.
 */
async function applyThreatReview(
  deps: { known: KnownSecrets; review?: ReviewModelCall },
  outputs: ReadonlyArray<{ id: string; kind: string; payload: unknown }>,
  verdicts: Map<string, Verdict>,
): Promise<void> {
  const toReview = outputs.filter((o) => verdicts.get(o.id)?.state !== "REFUSED");
  if (toReview.length === 0) return;
  const reviewed = deps.review
    ? await reviewProposals({ call: deps.review, masker: deps.known }, toReview)
    : toReview.map((o) => ({ id: o.id, review: null, hold: NO_REVIEW_CALL }));
  for (const r of reviewed) {
    const v = verdicts.get(r.id);
    if (!v) continue;
    if (r.review) v.review = r.review;
    if (r.hold) {
      // An earlier hold (the run did not succeed, a protected path) still says why, after it.
      const earlier = v.state === "HELD" && v.reason !== MODE_HOLD ? v.reason : null;
      v.reason = earlier ? `${r.hold} ${earlier}` : r.hold;
      v.state = "HELD";
    }
  }
}

/** Checks every PROPOSED output of the run, in seq order; returns what each became. */
export async function checkRunOutputs(
  deps: {
    db: Db;
    known: KnownSecrets;
    now?: () => Date;
    review?: ReviewModelCall;
    /** The operator's settings (OUTPUTS_ALLOW_WORKFLOW_CHANGES), from the worker's entry. */
    config?: OutputCheckConfig;
  },
  run: CheckRun,
  granted: GrantedOutputs,
): Promise<CheckedOutput[]> {
  const outputs = await deps.db.runOutput.findMany({
    where: { runId: run.id, workspaceId: run.workspaceId, state: "PROPOSED" },
    orderBy: { seq: "asc" },
  });
  const perKind = new Map<string, number>();
  const verdicts = new Map<string, Verdict>();
  for (const output of outputs) {
    const index = perKind.get(output.kind) ?? 0;
    perKind.set(output.kind, index + 1);
    verdicts.set(output.id, await verdict(output, index, granted, run, deps.known, deps.config));
  }
  // A run that did not succeed has its outputs held anyway, and may have spent its budget.
  if (granted.threatReview && run.succeeded) await applyThreatReview(deps, outputs, verdicts);
  const checked: CheckedOutput[] = [];
  for (const output of outputs) {
    const v = verdicts.get(output.id)!;
    const now = deps.now?.() ?? new Date();
    await record(deps.db, run, output.id, output.kind, v, now, "PROPOSED", output.payload);
    checked.push({ id: output.id, state: v.state });
  }
  return checked;
}

/** The outputs granted by the run's frozen plan (none for a run without a plan). */
export async function grantedOutputsOfRun(
  db: Db,
  run: { id: string; workspaceId: string },
): Promise<GrantedOutputs> {
  const row = await db.run.findFirst({
    where: { id: run.id, workspaceId: run.workspaceId },
    select: { plan: true },
  });
  const plan = row?.plan as { outputs?: unknown } | null | undefined;
  return readGrantedOutputs(plan?.outputs);
}

/**
 * Holds the run's outputs in `states` for an owner, with the reason: when the checks could not
 * run (PROPOSED ones are then held rather than lost or applied unchecked), or when the run's
 * recorded end was not the success the checks assumed (READY ones).
 */
export async function holdOutputs(
  db: Db,
  run: { id: string; workspaceId: string },
  states: OutputState[],
  reason: string,
): Promise<void> {
  const outputs = await db.runOutput.findMany({
    where: { runId: run.id, workspaceId: run.workspaceId, state: { in: states } },
    select: { id: true, kind: true, state: true },
  });
  const held: Verdict = { state: "HELD", reason };
  for (const output of outputs)
    await record(db, run, output.id, output.kind, held, new Date(), output.state);
}

export const UNCHECKED_REASON =
  "Held: the checks could not run at the end of the run; an owner must review this.";
