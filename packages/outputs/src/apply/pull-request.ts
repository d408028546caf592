// A pull request written through the Git Data API, exactly once (O06), in at most nine calls
// for a new one: the pull requests from the head branch are looked up first (one holding the
// output's marker was opened by an earlier attempt: it is returned, its labels completed); then
// the base branch is read (one moved onto a file the pull request changes holds it again for the
// owner, base-moved.ts); then the base commit's tree, one tree with every changed file's content
// inline (a deletion is an entry with `sha: null`), one commit whose only parent is the run's
// commit and which names no author or committer (GitHub then makes and signs it as the App), the
// branch, the pull request and its labels. The branch is SecondShift's own (`secondshift/…`,
// checked by the payload): an existing one is reused only when its tip is a commit of exactly
// this tree on exactly this parent (an earlier attempt's; a retried commit has another SHA,
// GitHub stamps the time). Anything else on it is someone else's work: the output fails, and no
// ref is ever updated, let alone forced.
import type { Octokit } from "@octokit/core";
import { outputMarker, type PullRequestProposal } from "@secondshift/vocabulary";
import { checkBase, type HeldAgain } from "./base-moved.ts";
import type { GithubObject } from "./github.ts";

/** GitHub's state is not what applying needs; retrying will not change it. */
export class OutputConflict extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
    this.name = "OutputConflict";
  }
}

interface Repo {
  owner: string;
  repo: string;
}

interface GitCommit {
  sha: string;
  tree: { sha: string };
  parents: Array<{ sha: string }>;
}

export async function writePullRequest(
  octokit: Octokit,
  repo: Repo,
  outputId: string,
  proposal: PullRequestProposal,
  reviewedBase: string,
): Promise<GithubObject | HeldAgain> {
  const marker = outputMarker(outputId);
  const pulls = await listPulls(octokit, repo, proposal.headBranch);
  const existing = pulls.find((pull) => pull.body?.includes(marker) === true);
  if (existing === undefined && pulls[0] !== undefined)
    throw new OutputConflict(
      `a pull request from ${proposal.headBranch} already exists (#${pulls[0].number}) that SecondShift did not open for this output`,
      "pull_request_exists",
    );
  if (existing !== undefined) {
    await addLabels(octokit, repo, existing.number, proposal.labels, existing.labels);
    return { htmlUrl: existing.html_url, created: false };
  }
  const held = await checkBase(octokit, repo, proposal, reviewedBase);
  if (held !== null) return held;
  await pushBranch(octokit, repo, proposal);
  const created = await octokit.request("POST /repos/{owner}/{repo}/pulls", {
    ...repo,
    title: proposal.title,
    body: `${proposal.body}\n\n${marker}`,
    head: proposal.headBranch,
    base: proposal.baseBranch,
    draft: proposal.draft,
  });
  await addLabels(octokit, repo, created.data.number, proposal.labels, []);
  return { htmlUrl: created.data.html_url, created: true };
}

async function listPulls(octokit: Octokit, repo: Repo, branch: string) {
  const listed = await octokit.request("GET /repos/{owner}/{repo}/pulls", {
    ...repo,
    head: `${repo.owner}:${branch}`,
    state: "all",
    per_page: 100,
  });
  return listed.data;
}

async function addLabels(
  octokit: Octokit,
  repo: Repo,
  number: number,
  wanted: string[],
  present: Array<{ name: string }>,
) {
  const missing = wanted.filter((name) => !present.some((label) => label.name === name));
  if (missing.length === 0) return;
  await octokit.request("POST /repos/{owner}/{repo}/issues/{issue_number}/labels", {
    ...repo,
    issue_number: number,
    labels: missing,
  });
}

/** The head branch pointing at a commit of the proposal's tree on its base commit. */
async function pushBranch(octokit: Octokit, repo: Repo, proposal: PullRequestProposal) {
  const base = await getCommit(octokit, repo, proposal.baseSha);
  const tree = await octokit.request("POST /repos/{owner}/{repo}/git/trees", {
    ...repo,
    base_tree: base.tree.sha,
    tree: proposal.files.map((file) =>
      file.content === null
        ? { path: file.path, mode: "100644" as const, type: "blob" as const, sha: null }
        : {
            path: file.path,
            mode: file.mode ?? "100644",
            type: "blob" as const,
            content: file.content,
          },
    ),
  });
  const ref = `heads/${proposal.headBranch}`;
  const tip = await getRef(octokit, repo, ref);
  if (tip !== null) {
    const commit = await getCommit(octokit, repo, tip);
    const ours =
      commit.tree.sha === tree.data.sha &&
      commit.parents.length === 1 &&
      commit.parents[0]?.sha === proposal.baseSha;
    if (ours) return;
    throw new OutputConflict(
      `the branch ${proposal.headBranch} exists and holds commits SecondShift did not make; it is never force-pushed`,
      "branch_exists",
    );
  }
  const message = proposal.body === "" ? proposal.title : `${proposal.title}\n\n${proposal.body}`;
  // No author and no committer: GitHub writes the App as both and signs the commit.
  const commit = await octokit.request("POST /repos/{owner}/{repo}/git/commits", {
    ...repo,
    message,
    tree: tree.data.sha,
    parents: [proposal.baseSha],
  });
  await octokit.request("POST /repos/{owner}/{repo}/git/refs", {
    ...repo,
    ref: `refs/${ref}`,
    sha: commit.data.sha,
  });
}

async function getCommit(octokit: Octokit, repo: Repo, sha: string): Promise<GitCommit> {
  const response = await octokit.request("GET /repos/{owner}/{repo}/git/commits/{commit_sha}", {
    ...repo,
    commit_sha: sha,
  });
  return response.data;
}

/** The commit a ref points at, or null when there is no such ref. */
async function getRef(octokit: Octokit, repo: Repo, ref: string): Promise<string | null> {
  try {
    // `{+ref}`: the branch's slashes stay slashes, as GitHub documents the path.
    const response = await octokit.request("GET /repos/{owner}/{repo}/git/ref/{+ref}", {
      ...repo,
      ref,
    });
    const object = (response.data as { object?: { sha?: unknown; type?: unknown } }).object;
    if (object?.type !== "commit" || typeof object.sha !== "string")
      throw new OutputConflict(
        `the branch ${ref.slice("heads/".length)} exists and does not point at a commit`,
        "branch_exists",
      );
    return object.sha;
  } catch (error) {
    if ((error as { status?: unknown } | null)?.status === 404) return null;
    throw error;
  }
}
