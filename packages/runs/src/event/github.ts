// What the worker reads from GitHub about an event run before it starts (E03): the actor's
// permission on the repository and, for a comment command on a pull request, the pull
// request's current head. Read with the repository's own credential — a GitHub App
// installation token minted for that one repository with read-only permissions (revoked after),
// else the token connection's credential — through the caller's outbound fetch (netguard).
import { Octokit } from "@octokit/core";
import type { Keyring } from "@secondshift/crypto";
import { AppError } from "@secondshift/errors";
import {
  githubAppInstallation,
  repositoryCredential,
  type MintInstallationToken,
  type RepositoryConnection,
} from "@secondshift/repo-sync";

/** A WHATWG fetch; in the worker, netguard's guarded fetch. */
export type OutboundFetch = (input: string | URL, init?: RequestInit) => Promise<Response>;

export interface EventRepository {
  workspaceId: string;
  /** owner/name */
  fullName: string;
  cloneUrl: string;
  connection: (RepositoryConnection & { kind: string }) | null;
}

/** The reads the screen makes, on one repository, with one credential. */
export interface EventGithub {
  /** GitHub's `permission` (admin, write, read, none); "none" when not a collaborator (404). */
  permission(login: string): Promise<string>;
  /** The pull request's current head commit (full SHA). */
  pullHead(number: number): Promise<string>;
}

/** Opens the reads for one repository; `close` revokes a minted token. */
export type OpenEventGithub = (
  repository: EventRepository,
  needs: { pullRequests: boolean },
) => Promise<EventGithub & { close(): Promise<void> }>;

export const DEFAULT_GITHUB_API = "https://api.github.com";
const SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

export function createEventGithub(deps: {
  keyring: Keyring;
  fetch: OutboundFetch;
  mintInstallationToken: MintInstallationToken;
  userAgent: string;
}): OpenEventGithub {
  return async (repository, needs) => {
    const [owner, repo] = repository.fullName.split("/");
    if (!owner || !repo)
      throw new AppError("PRECONDITION_FAILED", `"${repository.fullName}" is not owner/name.`, {
        reason: "BAD_REPOSITORY",
      });
    const { token, apiBase, revoke } = await readCredential(deps, repository, needs);
    const octokit = new Octokit({
      auth: token,
      baseUrl: apiBase.replace(/\/+$/, ""),
      userAgent: deps.userAgent,
      request: { fetch: deps.fetch },
      log: { debug: noop, info: noop, warn: noop, error: noop },
    });
    return {
      permission: async (login) => {
        try {
          const route = "GET /repos/{owner}/{repo}/collaborators/{username}/permission";
          const { data } = await octokit.request(route, { owner, repo, username: login });
          const permission = (data as { permission?: unknown }).permission;
          if (typeof permission !== "string") throw unexpected("the permission");
          return permission;
        } catch (error) {
          if ((error as { status?: unknown }).status === 404) return "none";
          throw error;
        }
      },
      pullHead: async (number) => {
        const route = "GET /repos/{owner}/{repo}/pulls/{pull_number}";
        const { data } = await octokit.request(route, { owner, repo, pull_number: number });
        const sha = (data as { head?: { sha?: unknown } }).head?.sha;
        if (typeof sha !== "string" || !SHA.test(sha)) throw unexpected("the pull request's head");
        return sha;
      },
      close: async () => {
        await revoke?.();
      },
    };
  };
}

function noop(): void {}

const unexpected = (what: string) =>
  new AppError("BAD_GATEWAY", `GitHub answered the request for ${what} unexpectedly.`, {
    reason: "GITHUB_UNEXPECTED",
  });

type Credential = { token: string; apiBase: string; revoke?: () => Promise<void> };

async function readCredential(
  deps: { keyring: Keyring; mintInstallationToken: MintInstallationToken },
  repository: EventRepository,
  needs: { pullRequests: boolean },
): Promise<Credential> {
  const connection = repository.connection;
  if (connection === null || connection.deletedAt !== null)
    throw new AppError(
      "PRECONDITION_FAILED",
      `"${repository.fullName}" has no connection to read GitHub with.`,
      { reason: "NO_CONNECTION" },
    );
  if (connection.authType === "GITHUB_APP") {
    // Reading a collaborator's permission needs metadata; a pull request's head, pull requests.
    const permissions: Record<string, "read"> = needs.pullRequests
      ? { metadata: "read", pull_requests: "read" }
      : { metadata: "read" };
    const request = await githubAppInstallation(
      deps.keyring,
      connection,
      repository.fullName,
      permissions,
    );
    const minted = await deps.mintInstallationToken(request);
    return { token: minted.token, apiBase: connection.endpoint, revoke: () => minted.revoke() };
  }
  const credential = await repositoryCredential(deps.keyring, connection, repository.fullName);
  if (!credential)
    throw new AppError(
      "PRECONDITION_FAILED",
      `The connection of "${repository.fullName}" holds no credential to read GitHub with.`,
      { reason: "NO_CREDENTIAL" },
    );
  return { token: credential.password, apiBase: apiBaseOf(connection, repository.cloneUrl) };
}

/** A GitHub connection's endpoint is its API base; otherwise github.com's, or GHES's /api/v3. */
function apiBaseOf(connection: { kind: string; endpoint: string }, cloneUrl: string): string {
  if (connection.kind === "GITHUB") return connection.endpoint || DEFAULT_GITHUB_API;
  const url = new URL(cloneUrl);
  return url.hostname === "github.com" ? DEFAULT_GITHUB_API : `${url.origin}/api/v3`;
}
