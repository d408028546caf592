// The GitHub side of applying an output, through @octokit/core with our outbound policy's fetch
// (netguard) and the connection's API base. Exactly once (O06): every body carries the output's
// hidden marker, and before creating, the issue's comments (or the repository's issues) since
// the proposal are searched for it — an object created before a crash is found, not repeated.
// Comments on a pull request go through the issues comments endpoint, as GitHub has it; a pull
// request is written through the same client (pull-request.ts); it may come back held again
// instead, when the base branch moved onto its files (base-moved.ts).
import { Octokit } from "@octokit/core";
import {
  outputMarker,
  type CommentProposal,
  type IssueProposal,
  type PullRequestProposal,
} from "@secondshift/vocabulary";
import type { HeldAgain } from "./base-moved.ts";
import { writePullRequest } from "./pull-request.ts";

/** A WHATWG fetch; in the worker, netguard's guarded fetch. */
export type OutboundFetch = (input: string | URL, init?: RequestInit) => Promise<Response>;

export interface GithubTarget {
  apiBase: string;
  owner: string;
  repo: string;
}

export interface GithubWriterOptions {
  fetch: OutboundFetch;
  token: string;
  userAgent: string;
}

/** What was created or found on GitHub. */
export interface GithubObject {
  htmlUrl: string;
  /** False when the marker was found: an earlier attempt had created it. */
  created: boolean;
}

const PER_PAGE = 100;
/** A bound on the lookup (10,000 items): a busier issue is not searched to its end. */
const MAX_PAGES = 100;

interface Listed {
  body?: string | null;
  html_url: string;
  pull_request?: unknown;
}

export function githubWriter(target: GithubTarget, options: GithubWriterOptions) {
  const octokit = new Octokit({
    auth: options.token,
    baseUrl: target.apiBase.replace(/\/+$/, ""),
    userAgent: options.userAgent,
    request: { fetch: options.fetch },
    // Octokit's own warnings would go to the console; ours are the worker's logs.
    log: {
      debug: () => undefined,
      info: () => undefined,
      warn: () => undefined,
      error: () => undefined,
    },
  });
  const repo = { owner: target.owner, repo: target.repo };

  async function findMarked(route: string, params: Record<string, unknown>, marker: string) {
    for (let page = 1; page <= MAX_PAGES; page++) {
      const response = await octokit.request(route, {
        ...repo,
        ...params,
        per_page: PER_PAGE,
        page,
      });
      const items = response.data as Listed[];
      const found = items.find((item) => item.body?.includes(marker) === true);
      if (found) return found;
      if (items.length < PER_PAGE) return null;
    }
    return null;
  }

  return {
    async comment(outputId: string, proposal: CommentProposal, since: Date): Promise<GithubObject> {
      const marker = outputMarker(outputId);
      const params = { issue_number: proposal.number, since: since.toISOString() };
      const route = "GET /repos/{owner}/{repo}/issues/{issue_number}/comments";
      const found = await findMarked(route, params, marker);
      if (found) return { htmlUrl: found.html_url, created: false };
      const created = await octokit.request(
        "POST /repos/{owner}/{repo}/issues/{issue_number}/comments",
        {
          ...repo,
          issue_number: proposal.number,
          body: `${proposal.body}\n\n${marker}`,
        },
      );
      return { htmlUrl: created.data.html_url, created: true };
    },

    async issue(outputId: string, proposal: IssueProposal, since: Date): Promise<GithubObject> {
      const marker = outputMarker(outputId);
      const params = {
        state: "all",
        since: since.toISOString(),
        sort: "created",
        direction: "desc",
      };
      const found = await findMarked("GET /repos/{owner}/{repo}/issues", params, marker);
      if (found && found.pull_request === undefined)
        return { htmlUrl: found.html_url, created: false };
      const created = await octokit.request("POST /repos/{owner}/{repo}/issues", {
        ...repo,
        title: proposal.title,
        body: `${proposal.body}\n\n${marker}`,
        labels: proposal.labels,
      });
      return { htmlUrl: created.data.html_url, created: true };
    },

    /** Revokes the token this writer uses (GitHub's `DELETE /installation/token`). */
    revokeToken: async (): Promise<void> => {
      await octokit.request("DELETE /installation/token");
    },

    /** `reviewedBase`: the base head the owner last reviewed against (base-moved.ts). */
    pullRequest: (
      outputId: string,
      proposal: PullRequestProposal,
      reviewedBase: string,
    ): Promise<GithubObject | HeldAgain> =>
      writePullRequest(octokit, repo, outputId, proposal, reviewedBase),
  };
}

/**
 * A GitHub answer that will not change by retrying (4xx other than 429 and a rate-limit 403),
 * with GitHub's short `message`; null for what a retry may fix (5xx, 429, network).
 */
export function githubRefusal(error: unknown): { status: number; message: string } | null {
  const { status, response } = (error ?? {}) as {
    status?: unknown;
    response?: { data?: unknown; headers?: Record<string, unknown> };
  };
  if (typeof status !== "number" || status < 400 || status >= 500 || status === 429) return null;
  if (status === 403 && response?.headers?.["x-ratelimit-remaining"] === "0") return null;
  const data = response?.data as { message?: unknown } | undefined;
  const message = typeof data?.message === "string" ? data.message.slice(0, 200) : "";
  return { status, message };
}
