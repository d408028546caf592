// The owner's decision on a held output (O06): approve puts it on the outputs queue, where a
// worker applies it once; reject ends it. Owners alone decide (as on a job's request, C02); the
// state change and its audit row commit together, and only a HELD output can be decided, so
// two owners deciding at once get one decision and one CONFLICT.
import { AppError } from "@secondshift/errors";
import type { OutputState } from "@secondshift/vocabulary";
import { recordAudit } from "../audit/record.ts";
import { notFound, nowOf, requireRole, requireService, type ActorContext } from "../context.ts";

type Decision = "approved" | "rejected";

const decided: Record<Decision, OutputState> = { approved: "APPROVED", rejected: "REJECTED" };

async function decide(
  ctx: ActorContext,
  outputId: string,
  decision: Decision,
): Promise<{ state: OutputState }> {
  await requireRole(ctx, "own");
  const { db, workspaceId, actor } = ctx;
  return db.$transaction(async (tx) => {
    const output = await tx.runOutput.findFirst({
      where: { id: outputId, workspaceId },
      select: { id: true, kind: true, state: true, job: { select: { name: true } } },
    });
    if (!output) throw notFound("Output");
    const changed = await tx.runOutput.updateMany({
      where: { id: output.id, workspaceId, state: "HELD" },
      data: { state: decided[decision], decidedAt: nowOf(ctx), decidedById: actor.userId },
    });
    if (changed.count === 0) {
      const now = await tx.runOutput.findFirst({
        where: { id: output.id },
        select: { state: true },
      });
      throw new AppError(
        "CONFLICT",
        `This output is ${(now?.state ?? output.state).toLowerCase()}, not waiting for a decision; reload to see what happened to it.`,
        { reason: "OUTPUT_NOT_HELD" },
      );
    }
    await recordAudit(tx, {
      workspaceId,
      actorType: "USER",
      actorId: actor.userId,
      action: `output.${decision}`,
      targetType: "RunOutput",
      targetId: output.id,
      // An output is named by its kind and its job.
      targetLabel: `${output.kind.replace("_", " ")} of ${output.job.name}`,
    });
    return { state: decided[decision] };
  });
}

export async function approveOutput(
  ctx: ActorContext,
  input: { outputId: string },
): Promise<{ state: OutputState }> {
  await requireRole(ctx, "own");
  const services = requireService(ctx, "services");
  if (!services.enqueueOutputApply)
    throw new AppError("INTERNAL", "The outputs queue is not wired in this process.", {
      reason: "NO_OUTPUT_QUEUE",
    });
  const result = await decide(ctx, input.outputId, "approved");
  // After commit: a crash before the add leaves an APPROVED output, which the worker's recovery
  // puts on the queue again.
  await services.enqueueOutputApply({ outputId: input.outputId, workspaceId: ctx.workspaceId });
  return result;
}

export async function rejectOutput(
  ctx: ActorContext,
  input: { outputId: string },
): Promise<{ state: OutputState }> {
  return decide(ctx, input.outputId, "rejected");
}
