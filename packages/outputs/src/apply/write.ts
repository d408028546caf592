// One attempt at writing a claimed output to GitHub: a token with only the permissions the
// kind needs, for the job's repository only, minted now (the run has ended) and revoked when
// the attempt is over, whatever its outcome (O03). A pull request that changes GitHub Actions
// workflows (let through at finalize only under OUTPUTS_ALLOW_WORKFLOW_CHANGES, and held for an
// owner) also asks for `workflows: write`; no other output does. The token is masked while it
// lives and never leaves this function: not in a reason, an error or a log line.
import type { Keyring } from "@secondshift/crypto";
import { isAppError } from "@secondshift/errors";
import type { SecretMasker } from "@secondshift/logging";
import { githubAppInstallation, type MintInstallationToken } from "@secondshift/repo-sync";
import { OUTPUT_PERMISSIONS, type OutputKind } from "@secondshift/vocabulary";
import { isWorkflowPath } from "../check/pull-request.ts";
import { baseCheckedShaOf } from "./base-moved.ts";
import type { ClaimedOutput } from "./claim.ts";
import { githubRefusal, githubWriter, type GithubObject, type OutboundFetch } from "./github.ts";
import { readComment, readIssue, readPullRequest } from "./payload.ts";
import { OutputConflict } from "./pull-request.ts";
import { transientFailure } from "./transient.ts";
import type { OutputTarget } from "./target.ts";
import type { WriteTokenStore } from "./write-token.ts";

export interface WriteDeps {
  keyring: Keyring;
  mintToken: MintInstallationToken;
  fetch: OutboundFetch;
  userAgent: string;
  masker?: SecretMasker;
}

export type WriteOutcome = GithubObject | { reason: string; code: string };

/** GitHub's `since` is its own clock; an hour of slack covers any skew with ours. */
const CLOCK_SLACK_MS = 3_600_000;

export async function writeOutput(
  deps: WriteDeps,
  target: OutputTarget,
  output: ClaimedOutput,
  tokens?: WriteTokenStore,
): Promise<WriteOutcome> {
  const write = proposalWriter(output);
  if (write === null)
    return {
      reason: `The stored proposal is not a valid ${KIND_NAMES[output.kind as OutputKind] ?? "output"}; it is not applied.`,
      code: "bad_payload",
    };
  if (tokens) await revokeLeftover(deps, target, tokens);
  const minted = await mint(deps, target, tokenPermissions(output));
  if ("reason" in minted) return minted;
  const secrets = deps.masker?.scope();
  secrets?.add(minted.token);
  try {
    await tokens?.keep(minted.token);
    const writer = writerFor(deps, target, minted.token);
    return await write(writer, new Date(output.proposedAt.getTime() - CLOCK_SLACK_MS)).catch(
      (error: unknown) => refusedOrThrow(error, target, output, deps.masker),
    );
  } finally {
    await minted.revoke().catch(() => undefined);
    await tokens?.clear().catch(() => undefined);
    secrets?.close();
  }
}

type Writer = ReturnType<typeof githubWriter>;

const writerFor = (deps: WriteDeps, target: OutputTarget, token: string): Writer =>
  githubWriter(
    { apiBase: target.connection.endpoint, owner: target.owner, repo: target.repo },
    { fetch: deps.fetch, token, userAgent: deps.userAgent },
  );

/** A token an attempt killed before its `finally` left behind: revoked before a new one. */
async function revokeLeftover(deps: WriteDeps, target: OutputTarget, tokens: WriteTokenStore) {
  const leftover = await tokens.leftover().catch(() => null);
  if (leftover === null) return;
  const secrets = deps.masker?.scope();
  secrets?.add(leftover);
  try {
    await writerFor(deps, target, leftover)
      .revokeToken()
      .catch(() => undefined);
    await tokens.clear();
  } finally {
    secrets?.close();
  }
}

const KIND_NAMES: Partial<Record<OutputKind, string>> = {
  comment: "comment",
  issue: "issue",
  pull_request: "pull request",
};

function proposalWriter(output: ClaimedOutput) {
  if (output.kind === "pull_request") {
    const pull = readPullRequest(output.payload);
    if (pull === null) return null;
    const reviewedBase = baseCheckedShaOf(output.payload) ?? pull.baseSha;
    return (w: Writer) => w.pullRequest(output.id, pull, reviewedBase);
  }
  if (output.kind === "comment") {
    const comment = readComment(output.payload);
    return comment && ((w: Writer, since: Date) => w.comment(output.id, comment, since));
  }
  const issue = readIssue(output.payload);
  return issue && ((w: Writer, since: Date) => w.issue(output.id, issue, since));
}

/** The kind's permissions; a pull request changing a workflow file adds `workflows: write`. */
export function tokenPermissions(output: ClaimedOutput): Record<string, "write"> {
  const permissions = { ...OUTPUT_PERMISSIONS[output.kind as OutputKind] };
  if (output.kind === "pull_request") {
    const files = readPullRequest(output.payload)?.files ?? [];
    if (files.some((f) => isWorkflowPath(f.path))) permissions.workflows = "write";
  }
  return permissions;
}

async function mint(deps: WriteDeps, target: OutputTarget, permissions: Record<string, "write">) {
  try {
    const installation = await githubAppInstallation(
      deps.keyring,
      target.connection,
      target.fullName,
      permissions,
    );
    return await deps.mintToken(installation);
  } catch (error) {
    // The owner's to fix (installation, permissions, settings, a key that does not decrypt):
    // retrying will not help. Only a mint that did not reach GitHub is tried again.
    if (isAppError(error) && error.reason !== "INSTALLATION_TOKEN_FAILED")
      return { reason: error.message, code: "token_refused" };
    throw error;
  }
}

function refusedOrThrow(
  error: unknown,
  target: OutputTarget,
  output: ClaimedOutput,
  masker: SecretMasker | undefined,
): WriteOutcome {
  const mask = (text: string) => (masker ? masker.mask(text) : text);
  if (error instanceof OutputConflict)
    return {
      reason: mask(
        `SecondShift did not write ${what(output)} in ${target.fullName}: ${error.message}. ${conflictHint(error.code)}`,
      ),
      code: error.code,
    };
  const refusal = githubRefusal(error);
  if (refusal === null) throw transientFailure(error, output.id);
  const detail = refusal.message === "" ? "" : `: ${refusal.message}`;
  const hint =
    output.kind === "pull_request"
      ? pullRequestHint(refusal.status, target.fullName)
      : issueHint(refusal.status, target.fullName);
  return {
    reason: mask(
      `GitHub refused ${what(output)} in ${target.fullName} (HTTP ${refusal.status}${detail}). ${hint}`,
    ),
    code: `github_${refusal.status}`,
  };
}

/** What was being written, for a reason ("the comment on #3", "the pull request from …"). */
function what(output: ClaimedOutput): string {
  if (output.kind === "comment")
    return `the comment on #${readComment(output.payload)?.number ?? "?"}`;
  if (output.kind === "pull_request")
    return `the pull request from ${readPullRequest(output.payload)?.headBranch ?? "its branch"}`;
  return "the new issue";
}

function issueHint(status: number, fullName: string): string {
  if (status === 404 || status === 410)
    return `The issue or pull request does not exist there, issues are turned off, or the app cannot see ${fullName}; check it, then propose the output again.`;
  if (status === 401 || status === 403)
    return `The GitHub App may not write issues in ${fullName}; ask the workspace owner to grant it "Issues: Read and write".`;
  return "GitHub did not accept the content; change it and propose the output again.";
}

function pullRequestHint(status: number, fullName: string): string {
  if (status === 401 || status === 403)
    return `The GitHub App may not push branches or open pull requests in ${fullName}; ask the workspace owner to grant it "Contents: Read and write" and "Pull requests: Read and write" (and "Workflows: Read and write" for a change under .github/workflows/).`;
  if (status === 404 || status === 410)
    return `The run's commit or the base branch is not in ${fullName}, or the app cannot see it; check it, then run the job again.`;
  return "GitHub did not accept the branch or the pull request (the base branch may have moved or been protected, or the branch name is taken); run the job again.";
}

function conflictHint(code: string): string {
  return code === "pull_request_exists"
    ? "Close or rename that pull request's branch, then run the job again."
    : "Delete or rename that branch if it is not needed, then run the job again.";
}
