// A run's outputs as every member may read them (the run page), and the outputs waiting for an
// owner's decision (the overview). The payload is what the run proposed, already checked at
// finalize; a refused one's reason never repeats a secret (O05), so both are shown as stored.
import type { OutputKind, OutputState } from "@secondshift/vocabulary";
import { notFound, requireRole, type ActorContext } from "../context.ts";

export interface OutputView {
  id: string;
  runId: string;
  seq: number;
  kind: OutputKind;
  state: OutputState;
  /** The title, or null for a comment. */
  title: string | null;
  body: string;
  /** The issue or pull request a comment goes to. */
  number: number | null;
  labels: string[];
  reason: string | null;
  resultUrl: string | null;
  proposedAt: Date;
  decidedAt: Date | null;
  decidedBy: { id: string; name: string } | null;
  appliedAt: Date | null;
}

export interface WaitingOutputView extends OutputView {
  job: { id: string; name: string };
}

const select = {
  id: true,
  runId: true,
  seq: true,
  kind: true,
  state: true,
  payload: true,
  reason: true,
  resultUrl: true,
  proposedAt: true,
  decidedAt: true,
  decidedById: true,
  appliedAt: true,
} as const;

type Row = {
  id: string;
  runId: string;
  seq: number;
  kind: string;
  state: OutputState;
  payload: unknown;
  reason: string | null;
  resultUrl: string | null;
  proposedAt: Date;
  decidedAt: Date | null;
  decidedById: string | null;
  appliedAt: Date | null;
};

function view(row: Row, names: ReadonlyMap<string, string>): OutputView {
  const payload = (row.payload ?? {}) as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === "string" ? v : null);
  return {
    id: row.id,
    runId: row.runId,
    seq: row.seq,
    kind: row.kind as OutputKind,
    state: row.state,
    title: text(payload.title),
    body: text(payload.body) ?? "",
    number: typeof payload.number === "number" ? payload.number : null,
    labels: Array.isArray(payload.labels)
      ? payload.labels.filter((l) => typeof l === "string")
      : [],
    reason: row.reason,
    resultUrl: row.resultUrl,
    proposedAt: row.proposedAt,
    decidedAt: row.decidedAt,
    decidedBy: row.decidedById
      ? { id: row.decidedById, name: names.get(row.decidedById) ?? row.decidedById }
      : null,
    appliedAt: row.appliedAt,
  };
}

/** Who decided, by name (a member who left keeps the id as the name). */
async function deciderNames(ctx: ActorContext, rows: Row[]): Promise<Map<string, string>> {
  const ids = [...new Set(rows.map((r) => r.decidedById).filter((i): i is string => i !== null))];
  if (ids.length === 0) return new Map();
  const users = await ctx.db.user.findMany({
    where: { id: { in: ids } },
    select: { id: true, name: true, email: true },
  });
  return new Map(users.map((u) => [u.id, u.name || u.email]));
}

export async function listRunOutputs(
  ctx: ActorContext,
  input: { runId: string },
): Promise<OutputView[]> {
  await requireRole(ctx, "read");
  const { db, workspaceId } = ctx;
  const run = await db.run.findFirst({
    where: { id: input.runId, workspaceId },
    select: { id: true },
  });
  if (!run) throw notFound("Run");
  const rows = await db.runOutput.findMany({
    where: { workspaceId, runId: run.id },
    orderBy: { seq: "asc" },
    select,
  });
  const names = await deciderNames(ctx, rows);
  return rows.map((r) => view(r, names));
}

/** HELD outputs, oldest first (the one closest to expiring on top), at most `limit`. */
export async function listWaitingOutputs(
  ctx: ActorContext,
  input: { limit?: number },
): Promise<WaitingOutputView[]> {
  await requireRole(ctx, "read");
  const { db, workspaceId } = ctx;
  const rows = await db.runOutput.findMany({
    where: { workspaceId, state: "HELD" },
    orderBy: { proposedAt: "asc" },
    take: Math.min(Math.max(input.limit ?? 20, 1), 100),
    select: { ...select, job: { select: { id: true, name: true } } },
  });
  return rows.map((r) => ({ ...view(r, new Map()), job: r.job }));
}
