// The owner's grant of output kinds (issue #24 phases (a) and (b), O02): a request grants nothing; a kind
// the owner lists is granted with limits at most the requested ones, "hold" unless chosen
// otherwise. Outputs are applied through the repository's GitHub App installation, so without
// one nothing can be granted.
import { AppError } from "@secondshift/errors";
import {
  OUTPUT_KINDS,
  OUTPUT_PERMISSIONS,
  type CommentTarget,
  type GrantedOutputs,
  type OutputKind,
  type OutputMode,
  type RequestedOutputs,
} from "@secondshift/vocabulary";
import type { ActorContext, DbClient } from "../context.ts";
import {
  missingPermissions,
  permissionLabel,
  readInstallationPermissions,
} from "../outputs/installation.ts";
import { PROTECTED_PATH_LIMITS, protectedPathProblem } from "../outputs/protected-paths.ts";
import { hasOutputs, readGrantedOutputs, readRequestedOutputs } from "../outputs/stored.ts";

export interface OutputsChoice {
  comment?: { mode?: OutputMode; max?: number; target?: CommentTarget };
  issue?: { mode?: OutputMode; max?: number };
  /**
   * Draft and labels are the request's; the owner lowers the size limits and may list paths a
   * pull request never changes without an owner's approval (O04).
   */
  pull_request?: {
    mode?: OutputMode;
    maxFiles?: number;
    maxChangedLines?: number;
    protectedPaths?: string[];
  };
}

export type OutputsAvailability =
  { available: true; connectionId: string } | { available: false; reason: string };

export const NO_GITHUB_APP_REASON =
  "Outputs are applied through the GitHub App: connect the repository through the GitHub App installation (Repositories → connection) to grant them.";

/** Whether the job's repository fetches through a live GitHub App connection of the workspace. */
export async function outputsAvailability(
  db: DbClient,
  workspaceId: string,
  repositoryId: string,
): Promise<OutputsAvailability> {
  const repository = await db.repository.findFirst({
    where: { id: repositoryId, workspaceId },
    select: { connection: { select: { id: true, kind: true, authType: true, deletedAt: true } } },
  });
  const c = repository?.connection;
  if (c && c.kind === "GITHUB" && c.authType === "GITHUB_APP" && !c.deletedAt)
    return { available: true, connectionId: c.id };
  return { available: false, reason: NO_GITHUB_APP_REASON };
}

const refuse = (message: string, reason: string): never => {
  throw new AppError("BAD_REQUEST", message, { reason });
};

function checkMax(kind: string, chosen: number | undefined, requested: number): number {
  if (chosen === undefined) return requested;
  if (!Number.isInteger(chosen) || chosen < 1 || chosen > requested)
    refuse(
      `The ${kind} limit must be a whole number from 1 to ${requested}, the job's request; lower it or ask for more in .secondshift.yaml.`,
      "OUTPUT_LIMIT_ABOVE_REQUEST",
    );
  return chosen;
}

/** The owner's protected paths, trimmed and without duplicates; a BAD_REQUEST names a bad one. */
function checkProtectedPaths(paths: readonly string[] | undefined): string[] {
  const listed = [...new Set((paths ?? []).map((p) => p.trim()).filter((p) => p !== ""))];
  if (listed.length > PROTECTED_PATH_LIMITS.maxPaths)
    refuse(
      `List at most ${PROTECTED_PATH_LIMITS.maxPaths} protected paths; a folder such as "migrations/" covers everything under it.`,
      "OUTPUT_PROTECTED_PATH_INVALID",
    );
  for (const path of listed) {
    const problem = protectedPathProblem(path);
    if (problem)
      refuse(
        `The protected path "${path.slice(0, PROTECTED_PATH_LIMITS.maxLength)}" ${problem}; write a folder such as "migrations/" or a file such as "db/schema.sql".`,
        "OUTPUT_PROTECTED_PATH_INVALID",
      );
  }
  return listed;
}

/** The granted outputs for the owner's choice, or a BAD_REQUEST saying what to change. */
export function decideOutputs(
  requested: RequestedOutputs,
  choice: OutputsChoice | undefined,
  availability: OutputsAvailability,
): GrantedOutputs {
  const kinds = Object.keys(choice ?? {}) as Array<keyof OutputsChoice>;
  for (const kind of kinds)
    if (!requested[kind])
      refuse(
        `The job does not request ${kind} outputs; request them in .secondshift.yaml first.`,
        "OUTPUT_NOT_REQUESTED",
      );
  if (kinds.length > 0 && !availability.available)
    refuse(availability.reason, "OUTPUTS_NEED_GITHUB_APP");
  const granted: GrantedOutputs = {};
  if (choice?.comment && requested.comment) {
    const target = choice.comment.target ?? requested.comment.target;
    if (requested.comment.target === "triggering" && target === "any")
      refuse(
        'The job requests comments on the triggering issue or pull request only; "any" is wider than that request.',
        "OUTPUT_TARGET_WIDER",
      );
    const max = checkMax("comment", choice.comment.max, requested.comment.max);
    granted.comment = { max, target, mode: choice.comment.mode ?? "hold" };
  }
  if (choice?.issue && requested.issue) {
    const max = checkMax("issue", choice.issue.max, requested.issue.max);
    granted.issue = { ...requested.issue, max, mode: choice.issue.mode ?? "hold" };
  }
  if (choice?.pull_request && requested.pull_request) {
    const wanted = requested.pull_request;
    const maxFiles = checkMax("pull request file", choice.pull_request.maxFiles, wanted.maxFiles);
    const maxChangedLines = checkMax(
      "pull request changed-line",
      choice.pull_request.maxChangedLines,
      wanted.maxChangedLines,
    );
    const protectedPaths = checkProtectedPaths(choice.pull_request.protectedPaths);
    granted.pull_request = {
      ...wanted,
      maxFiles,
      maxChangedLines,
      mode: choice.pull_request.mode ?? "hold",
      ...(protectedPaths.length > 0 ? { protectedPaths } : {}),
    };
  }
  // The threat review is the job's to ask for: the grant copies it (the file turns it off).
  if (requested.threatReview && hasOutputs(granted)) granted.threatReview = true;
  return granted;
}

/** The access review's outputs part: what is requested, what the current grant gives. */
export interface ReviewOutputs {
  requested: RequestedOutputs;
  granted: GrantedOutputs;
  available: boolean;
  /** Why outputs cannot be granted here (null when they can). */
  unavailableReason: string | null;
  /** The GitHub App permissions each requested kind needs ("Issues: write"). */
  permissions: Partial<Record<OutputKind, string[]>>;
  /**
   * Whether the installation's permissions were read from GitHub just now. Only then does
   * `missing` say what it lacks; approving never waits for it (the installation may change).
   */
  permissionsChecked: boolean;
  /** Why they were not read (no GitHub App connection, GitHub unreachable…); null when read. */
  permissionsReason: string | null;
  /** Per requested kind, the needed permissions the installation lacks ("Pull requests: write"). */
  missing: Partial<Record<OutputKind, string[]>>;
}

/** Outputs, plus what the repository's GitHub App installation lacks for them (read live). */
export async function reviewOutputs(
  ctx: ActorContext,
  job: { workspaceId: string; repositoryId: string; requestedOutputs: unknown },
  grantOutputs: unknown,
): Promise<ReviewOutputs> {
  const { db } = ctx;
  const requested = readRequestedOutputs(job.requestedOutputs);
  const availability = await outputsAvailability(db, job.workspaceId, job.repositoryId);
  const permissions: ReviewOutputs["permissions"] = {};
  for (const kind of OUTPUT_KINDS.filter((k) => requested[k]))
    permissions[kind] = Object.entries(OUTPUT_PERMISSIONS[kind]).map(([name, level]) =>
      permissionLabel(name, level),
    );
  const kinds = Object.keys(permissions) as OutputKind[];
  const installation =
    kinds.length === 0
      ? ({ checked: false, reason: "The job requests no outputs." } as const)
      : availability.available
        ? await readInstallationPermissions(ctx, availability.connectionId)
        : ({ checked: false, reason: availability.reason } as const);
  const missing: ReviewOutputs["missing"] = {};
  if (installation.checked)
    for (const kind of kinds)
      missing[kind] = missingPermissions(OUTPUT_PERMISSIONS[kind], installation.permissions);
  return {
    requested,
    granted: readGrantedOutputs(grantOutputs),
    available: availability.available,
    unavailableReason: availability.available ? null : availability.reason,
    permissions,
    permissionsChecked: installation.checked,
    permissionsReason: installation.checked ? null : installation.reason,
    missing,
  };
}
