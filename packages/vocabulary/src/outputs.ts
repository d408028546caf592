// Results that leave a run (issue #24, promises O01–O06): what a job may request in
// `.secondshift.yaml` (`outputs:`), what the owner grants in the access review, what the frozen
// plan carries, and the states a proposed output goes through until it is applied after the run.
// One spelling for the parser, the domain, the broker, the worker and the web app.

/** Output kinds, in the order screens list them. */
export const OUTPUT_KINDS = ["comment", "issue", "pull_request"] as const;
export type OutputKind = (typeof OUTPUT_KINDS)[number];

/**
 * A proposed output's states (prisma/schema.prisma's OutputState, same order):
 * PROPOSED (recorded by the run's proposal tool, nothing checked yet) → at finalize REFUSED (a
 * check failed; `reason` says which) or HELD (waiting for an owner) or READY (apply
 * automatically) → APPROVED (an owner approved a held one) → APPLYING (a worker claimed it) →
 * APPLIED (exists on GitHub, `resultUrl`) or FAILED (GitHub refused it; `reason`). An owner may
 * reject a HELD output (REJECTED); a HELD one past the hold limit EXPIRES.
 */
export const OUTPUT_STATES = [
  "PROPOSED",
  "HELD",
  "READY",
  "APPROVED",
  "APPLYING",
  "APPLIED",
  "REFUSED",
  "REJECTED",
  "EXPIRED",
  "FAILED",
] as const;
export type OutputState = (typeof OUTPUT_STATES)[number];

/** Nothing changes an output in one of these. */
export const FINAL_OUTPUT_STATES = [
  "APPLIED",
  "REFUSED",
  "REJECTED",
  "EXPIRED",
  "FAILED",
] as const satisfies readonly OutputState[];

/** An output an owner can decide on (approve / reject). */
export const DECIDABLE_OUTPUT_STATES = ["HELD"] as const satisfies readonly OutputState[];

/** An output a worker may apply (claimed into APPLYING; a crashed APPLYING one is retried). */
export const APPLICABLE_OUTPUT_STATES = [
  "READY",
  "APPROVED",
  "APPLYING",
] as const satisfies readonly OutputState[];

export function isFinalOutputState(state: string): boolean {
  return (FINAL_OUTPUT_STATES as readonly string[]).includes(state);
}

/** "apply automatically" or "hold for my approval" (the default), chosen per kind by the owner. */
export const OUTPUT_MODES = ["hold", "auto"] as const;
export type OutputMode = (typeof OUTPUT_MODES)[number];

/** Which issue or pull request a comment may go to. */
export const COMMENT_TARGETS = ["triggering", "any"] as const;
export type CommentTarget = (typeof COMMENT_TARGETS)[number];

/** Absolute caps a request and a grant live within. */
export const OUTPUT_CAPS = {
  maxComments: 20,
  maxIssues: 10,
  maxLabels: 10,
  maxTitlePrefixLength: 50,
  maxTitleLength: 256,
  /** GitHub's own limit for an issue or comment body is 65,536 characters. */
  maxBodyLength: 65_000,
  maxPullRequestFiles: 300,
  maxPullRequestChangedLines: 20_000,
  /** A changed file larger than this is refused (GitHub's inline tree content is text). */
  maxPullRequestFileBytes: 1_048_576,
  /** All changed files of one pull request together, as stored until apply. */
  maxPullRequestBytes: 8_388_608,
} as const;

export interface RequestedCommentOutput {
  /** At most this many comments per run. */
  max: number;
  /** "triggering": on an event-started run only the triggering issue or pull request. */
  target: CommentTarget;
}

export interface RequestedIssueOutput {
  max: number;
  /** Every title starts with it ("" for none). */
  titlePrefix: string;
  /** Labels every created issue carries (sorted, no duplicates); only these may be set. */
  labels: string[];
}

export interface RequestedPullRequestOutput {
  draft: boolean;
  labels: string[];
  maxFiles: number;
  maxChangedLines: number;
}

/** A job's `outputs:` as the parser normalises it: a kind that is absent is not requested. */
export interface RequestedOutputs {
  comment?: RequestedCommentOutput;
  issue?: RequestedIssueOutput;
  pull_request?: RequestedPullRequestOutput;
  /**
   * `outputs.threatReview: true`: each proposal is reviewed by a model call at finalize. Present
   * only when true and some kind is requested, so a request without it hashes as before.
   */
  threatReview?: true;
}

/** What the owner granted for a kind: the request with limits at most the requested ones. */
export type GrantedOutput<T> = T & { mode: OutputMode };

/** A grant's outputs (stored on the Grant row, copied into the frozen plan). */
export interface GrantedOutputs {
  comment?: GrantedOutput<RequestedCommentOutput>;
  issue?: GrantedOutput<RequestedIssueOutput>;
  /**
   * `protectedPaths`: the owner's own paths ("migrations/", "db/schema.sql"); a pull request
   * changing one waits for an owner whatever the mode (O04). Absent when the owner listed none.
   */
  pull_request?: GrantedOutput<RequestedPullRequestOutput> & { protectedPaths?: string[] };
  /** Copied from the request (the owner does not choose it): the threat review runs. */
  threatReview?: true;
}

/**
 * The threat review's verdict on one proposal (`payload.review`): "warn" holds the output for an
 * owner even in auto mode. `notes` are the model's reasons, masked, at most 1000 characters.
 */
export interface ThreatReview {
  verdict: "ok" | "warn";
  notes: string;
}

export const THREAT_REVIEW_NOTES_MAX = 1000;

/**
 * Platform tools: built-in tools that go through the broker (plan check, schema, audit) but
 * need no connection and have no outside effect. A run sees one only when its plan grants the
 * output kind it proposes.
 */
export const PLATFORM_TOOLS = {
  propose_comment: { name: "secondshift_propose_comment", kind: "comment" },
  propose_issue: { name: "secondshift_propose_issue", kind: "issue" },
  propose_pull_request: { name: "secondshift_propose_pull_request", kind: "pull_request" },
} as const satisfies Record<string, { name: string; kind: OutputKind }>;

export type PlatformToolName = (typeof PLATFORM_TOOLS)[keyof typeof PLATFORM_TOOLS]["name"];

/** The payload a comment proposal stores (and apply writes). */
export interface CommentProposal {
  /** The issue or pull request number in the job's own repository. */
  number: number;
  body: string;
}

/** The payload an issue proposal stores; `title` already carries the granted prefix. */
export interface IssueProposal {
  title: string;
  body: string;
  labels: string[];
}

/**
 * One changed file of a proposed pull request, as the worker computed it at finalize (from the
 * sandbox's files and the run commit's tree on its own side, never the sandbox's `.git`).
 * `mode` is git's: 100644 file, 100755 executable, 120000 symbolic link (`content` is its
 * target). A deleted file has no mode or content. `patch` is a unified diff for the owner.
 */
export interface PullRequestFile {
  path: string;
  status: "added" | "modified" | "deleted";
  mode: "100644" | "100755" | "120000" | null;
  /** The new content, UTF-8 text; null when deleted. */
  content: string | null;
  additions: number;
  deletions: number;
  patch: string;
}

/** The payload a pull-request proposal stores; `files` is filled in at finalize. */
export interface PullRequestProposal {
  title: string;
  body: string;
  draft: boolean;
  labels: string[];
  /** The run's commit: the parent of the commit apply creates. */
  baseSha: string;
  /** The branch the pull request targets: the repository's default branch. */
  baseBranch: string;
  /** `secondshift/<job>-<run>`, created by apply; never an existing branch of someone else. */
  headBranch: string;
  files: PullRequestFile[];
}

/** The branch a run's pull request is pushed to: under `secondshift/`, one per run. */
export function pullRequestBranch(jobKey: string, runId: string): string {
  const job = jobKey
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/^[-.]+|[-.]+$/g, "")
    .slice(0, 60);
  return `secondshift/${job || "job"}-${runId}`;
}

/** The hidden marker apply writes into a body and looks up before creating (O06). */
export function outputMarker(outputId: string): string {
  return `<!-- secondshift-output:${outputId} -->`;
}

/** GitHub App permissions an output kind needs on the repository ("Issues: write"). */
export const OUTPUT_PERMISSIONS: Record<OutputKind, Record<string, "write">> = {
  comment: { issues: "write" },
  issue: { issues: "write" },
  pull_request: { contents: "write", pull_requests: "write" },
};
