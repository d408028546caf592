// A run's outputs as every member may read them (the run page), and the outputs waiting for an
// owner's decision (the overview). The payload is what the run proposed, already checked at
// finalize; a refused one's reason never repeats a secret (O05), so both are shown as stored.
// A proposed pull request is shown by its files' patches: the full new contents stay stored
// for apply and are never sent to the browser.
import {
  THREAT_REVIEW_NOTES_MAX,
  type OutputKind,
  type OutputState,
  type PullRequestFile,
  type ThreatReview,
} from "@secondshift/vocabulary";
import { notFound, requireRole, type ActorContext } from "../context.ts";
import { isObject, type Loose } from "../stored-json.ts";

/** One changed file as the run page shows it: its patch, not its content. */
export type PullRequestFileView = Omit<PullRequestFile, "content">;

/** A pull request's size: what "N files changed, +A −D" says. */
export interface PullRequestTotals {
  files: number;
  additions: number;
  deletions: number;
}

export interface PullRequestSummaryView {
  /** `secondshift/<job>-<run>`: the branch apply creates. */
  headBranch: string;
  baseBranch: string;
  draft: boolean;
  totals: PullRequestTotals;
}

export interface PullRequestView extends PullRequestSummaryView {
  files: PullRequestFileView[];
}

export interface OutputView {
  id: string;
  runId: string;
  seq: number;
  kind: OutputKind;
  state: OutputState;
  /** The or pull request's title, or null for a comment. */
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
  /** The threat review's verdict (issue #24 phase c); null when the job did not ask for it. */
  review: ThreatReview | null;
  /** Only on a pull_request output (a comment's or issue's view has no such key). */
  pullRequest?: PullRequestView;
}

/** The overview lists many outputs: a pull request there carries its totals, not its files. */
export interface WaitingOutputView extends Omit<OutputView, "pullRequest"> {
  job: { id: string; name: string };
  pullRequest?: PullRequestSummaryView;
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

const text = (v: unknown) => (typeof v === "string" ? v : null);
const lines = (v: unknown) => (typeof v === "number" && Number.isInteger(v) && v >= 0 ? v : 0);
const FILE_STATUSES = ["added", "modified", "deleted"] as const;
const FILE_MODES = ["100644", "100755", "120000"] as const;

/** A stored file read back field by field: anything not of the vocabulary's shape is dropped. */
function fileView(v: unknown): PullRequestFileView | null {
  if (!isObject(v)) return null;
  const path = text(v.path);
  const status = FILE_STATUSES.find((s) => s === v.status);
  if (!path || !status) return null;
  return {
    path,
    status,
    mode: FILE_MODES.find((m) => m === v.mode) ?? null,
    additions: lines(v.additions),
    deletions: lines(v.deletions),
    patch: text(v.patch) ?? "",
  };
}

/** `payload.review` as finalize stored it; anything else reads as no review. */
function reviewView(v: unknown): ThreatReview | null {
  if (!isObject(v) || (v.verdict !== "ok" && v.verdict !== "warn")) return null;
  return { verdict: v.verdict, notes: (text(v.notes) ?? "").slice(0, THREAT_REVIEW_NOTES_MAX) };
}

function pullRequestView(payload: Loose): PullRequestView {
  const files = Array.isArray(payload.files)
    ? payload.files.map(fileView).filter((f): f is PullRequestFileView => f !== null)
    : [];
  return {
    headBranch: text(payload.headBranch) ?? "",
    baseBranch: text(payload.baseBranch) ?? "",
    draft: payload.draft !== false,
    totals: {
      files: files.length,
      additions: files.reduce((n, f) => n + f.additions, 0),
      deletions: files.reduce((n, f) => n + f.deletions, 0),
    },
    files,
  };
}

function view(row: Row, names: ReadonlyMap<string, string>): OutputView {
  const payload = isObject(row.payload) ? row.payload : {};
  const shown: OutputView = {
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
    review: reviewView(payload.review),
  };
  if (row.kind === "pull_request") shown.pullRequest = pullRequestView(payload);
  return shown;
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
  return rows.map((r) => {
    const { pullRequest, ...shown } = view(r, new Map());
    const waiting: WaitingOutputView = { ...shown, job: r.job };
    if (pullRequest) {
      const { files: _files, ...summary } = pullRequest;
      waiting.pullRequest = summary;
    }
    return waiting;
  });
}
