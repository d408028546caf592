// Held again when the base branch moved (issue #24): before anything of a pull request is
// created, the base branch is read; when it no longer points at the commit the owner reviewed
// against (the run's commit, or the base head recorded when it was last held again), GitHub
// compares the two, and a pull request changing any file the base branch also changed since
// goes back to the owner instead of being opened. A base that moved elsewhere is GitHub's to
// merge: the commit's parent stays the run's commit. The base head seen is recorded with the
// hold (`baseCheckedSha` in the payload), so the owner's next approval applies it unless the
// base moved again onto the same files.
import type { Octokit } from "@octokit/core";
import type { PullRequestProposal } from "@secondshift/vocabulary";

/** The pull request was not opened: the owner reviews it again against the base head seen. */
export interface HeldAgain {
  reason: string;
  code: "base_moved";
  /** The base branch's head when it was checked; recorded in the payload with the hold. */
  baseCheckedSha: string;
}

interface Repo {
  owner: string;
  repo: string;
}

/** GitHub's compare lists at most 300 files; a longer list is not known to be complete. */
const COMPARE_MAX_FILES = 300;
/** How many changed paths a reason names. */
const NAMED_PATHS = 3;

/** The base head recorded when the output was last held again, if it was. */
export function baseCheckedShaOf(payload: unknown): string | undefined {
  if (typeof payload !== "object" || payload === null) return undefined;
  const sha = (payload as { baseCheckedSha?: unknown }).baseCheckedSha;
  return typeof sha === "string" && /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(sha) ? sha : undefined;
}

export function isHeldAgain(outcome: object): outcome is HeldAgain {
  return (outcome as { code?: unknown }).code === "base_moved" && "baseCheckedSha" in outcome;
}

interface Compared {
  ahead_by: number;
  files?: Array<{ filename: string; status: string; previous_filename?: string }>;
}

/**
 * One call when the base has not moved (the ref read), two when it has (and the compare).
 * A base branch that no longer exists answers 404, which fails the output as GitHub refused it.
 */
export async function checkBase(
  octokit: Octokit,
  repo: Repo,
  proposal: PullRequestProposal,
  /** The base head the owner last reviewed against: baseCheckedSha, else the run's commit. */
  reviewed: string,
): Promise<HeldAgain | null> {
  const ref = await octokit.request("GET /repos/{owner}/{repo}/git/ref/{+ref}", {
    ...repo,
    ref: `heads/${proposal.baseBranch}`,
  });
  const head = (ref.data as { object?: { sha?: unknown } }).object?.sha;
  if (typeof head !== "string" || head === reviewed) return null;
  // Three dots: what the base branch changed since its merge base with the reviewed commit.
  // per_page 1: the commits are paged, the files come whole with the first page.
  const compared = await octokit.request("GET /repos/{owner}/{repo}/compare/{basehead}", {
    ...repo,
    basehead: `${reviewed}...${head}`,
    per_page: 1,
  });
  const data = compared.data as Compared;
  if (data.ahead_by === 0) return null;
  const files = data.files ?? [];
  const touched = new Set(
    files.flatMap((f) => (f.previous_filename ? [f.filename, f.previous_filename] : [f.filename])),
  );
  const both = proposal.files.map((f) => f.path).filter((path) => touched.has(path));
  const branch = proposal.baseBranch;
  const again = "review the pull request again against the new base.";
  if (both.length > 0)
    return {
      reason: `Held again: ${branch} changed ${namePaths(both)} since the run; ${again}`,
      code: "base_moved",
      baseCheckedSha: head,
    };
  if (files.length >= COMPARE_MAX_FILES)
    return {
      reason: `Held again: ${branch} changed more files since the run than GitHub lists (${COMPARE_MAX_FILES}); ${again}`,
      code: "base_moved",
      baseCheckedSha: head,
    };
  return null;
}

function namePaths(paths: string[]): string {
  if (paths.length === 1) return paths[0]!;
  if (paths.length <= NAMED_PATHS) return `${paths.slice(0, -1).join(", ")} and ${paths.at(-1)!}`;
  const more = paths.length - NAMED_PATHS;
  return `${paths.slice(0, NAMED_PATHS).join(", ")} and ${more} more file${more === 1 ? "" : "s"}`;
}
