// Every member: deliveries newest first with every attempt (status code, our own error text,
// duration). Error texts are written by @secondshift/webhooks in its own words and masked, so
// they never carry the URL or the secret (C27).
import type { DeliveryStatus } from "@secondshift/db";
import { requireRole, type ActorContext } from "../context.ts";
import { pageQuery, toPage, type Page, type PageInput } from "../paging.ts";

export interface DeliveryView {
  id: string;
  webhookId: string;
  webhook: { name: string };
  /** The run reported, or the run of the output reported; null for a test event. */
  runId: string | null;
  /** "run.finished" (a run's report), "output.applied" / "output.failed", or "webhook.test". */
  event: string;
  status: DeliveryStatus;
  attemptCount: number;
  nextAttemptAt: Date | null;
  deliveredAt: Date | null;
  createdAt: Date;
  attempts: Array<{
    id: string;
    statusCode: number | null;
    error: string | null;
    durationMs: number;
    createdAt: Date;
  }>;
}

/** One delivery with its webhook's name and every attempt, oldest attempt first. */
export const deliverySelect = {
  id: true,
  webhookId: true,
  webhook: { select: { name: true } },
  runId: true,
  output: { select: { runId: true } },
  event: true,
  status: true,
  attemptCount: true,
  nextAttemptAt: true,
  deliveredAt: true,
  createdAt: true,
  attempts: {
    select: { id: true, statusCode: true, error: true, durationMs: true, createdAt: true },
    orderBy: { createdAt: "asc" },
  },
} as const;

type SelectedDelivery = Omit<DeliveryView, "runId"> & {
  runId: string | null;
  output: { runId: string } | null;
};

/** An output event's delivery names the output's run (its own `runId` column stays null). */
export function deliveryView({ output, ...row }: SelectedDelivery): DeliveryView {
  return { ...row, runId: row.runId ?? output?.runId ?? null };
}

/** The deliveries about a run: its report and its outputs' later events. */
export const deliveriesOfRun = (runId: string) => ({
  OR: [{ runId }, { output: { runId } }],
});

export async function listWebhookDeliveries(
  ctx: ActorContext,
  input: PageInput & { webhookId?: string; runId?: string; status?: DeliveryStatus },
): Promise<Page<DeliveryView>> {
  await requireRole(ctx, "read");
  const page = pageQuery(input);
  const rows = await ctx.db.webhookDelivery.findMany({
    ...page,
    where: {
      ...page.where,
      workspaceId: ctx.workspaceId,
      ...(input.webhookId === undefined ? {} : { webhookId: input.webhookId }),
      ...(input.runId === undefined ? {} : deliveriesOfRun(input.runId)),
      ...(input.status === undefined ? {} : { status: input.status }),
    },
    select: deliverySelect,
  });
  return toPage(rows.map(deliveryView), input);
}
