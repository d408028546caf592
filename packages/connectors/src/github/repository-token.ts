// Installation tokens for one repository ([P03], [O03]): the app's JWT buys a token limited to
// that repository and to exactly the permissions the caller names — reading its contents for a
// git fetch or sync (the default), or e.g. `{ issues: "write" }` for applying an output after
// its run. The caller masks it, never stores it, and revokes it when done.
import { AppError, isAppError } from "@secondshift/errors";
import type { OutboundFetch } from "../shared/deps.ts";
import { startDeadline } from "../shared/deadline.ts";
import { restRequest } from "../shared/rest.ts";
import { buildUrl, parseBaseUrl } from "../shared/url.ts";
import { appJwt } from "./app-auth.ts";

export interface RepositoryInstallation {
  /** The connection's GitHub API base URL (https://api.github.com, or GHES's /api/v3). */
  apiBase: string;
  appId: string;
  installationId: string;
  /** The app's private key (PEM), decrypted for this one request. */
  privateKey: string;
  /** The repository's name without its owner, as GitHub's `repositories` field takes it. */
  repositoryName: string;
  /** What the token may do on that repository; default `{ contents: "read" }` (a fetch). */
  permissions?: TokenPermissions;
}

/** GitHub App permission names and levels, as the access_tokens request takes them. */
export type TokenPermissions = Readonly<Record<string, "read" | "write">>;

const FETCH_PERMISSIONS: TokenPermissions = { contents: "read" };

export interface RepositoryToken {
  token: string;
  expiresAt: Date;
  /** Revokes the token (best effort: a failure leaves it to expire within the hour). */
  revoke(): Promise<void>;
}

export interface RepositoryTokenMinterOptions {
  outbound: OutboundFetch;
  userAgent: string;
  timeoutMs?: number;
  now?: () => number;
}

const REFUSALS = [401, 403, 404, 422];

export function createRepositoryTokenMinter(options: RepositoryTokenMinterOptions) {
  const headers = {
    accept: "application/vnd.github+json",
    "x-github-api-version": "2022-11-28",
    "user-agent": options.userAgent,
  };
  const timeoutMs = options.timeoutMs ?? 30_000;

  async function request(url: URL, init: { method: string; auth: string; body?: string }) {
    const deadline = startDeadline(new AbortController().signal, timeoutMs);
    try {
      return await restRequest(
        options.outbound,
        {
          method: init.method,
          url,
          headers: {
            ...headers,
            authorization: init.auth,
            ...(init.body === undefined ? {} : { "content-type": "application/json" }),
          },
          ...(init.body === undefined ? {} : { body: init.body }),
        },
        { deadline, readLimit: 64 * 1024, service: "GitHub", passStatuses: REFUSALS },
      );
    } finally {
      deadline.clear();
    }
  }

  return async function mintRepositoryToken(
    installation: RepositoryInstallation,
  ): Promise<RepositoryToken> {
    const step = `an installation token for app ${installation.appId}, installation ${installation.installationId}`;
    const baseUrl = parseBaseUrl(installation.apiBase, "GitHub");
    const jwt = appJwt(installation.appId, installation.privateKey, (options.now ?? Date.now)());
    const url = buildUrl(baseUrl, [
      "app",
      "installations",
      installation.installationId,
      "access_tokens",
    ]);
    const permissions = installation.permissions ?? FETCH_PERMISSIONS;
    const body = JSON.stringify({ repositories: [installation.repositoryName], permissions });
    const response = await request(url, { method: "POST", auth: `Bearer ${jwt}`, body }).catch(
      (error: unknown) => {
        throw mintFailure(step, error);
      },
    );
    if (REFUSALS.includes(response.status)) throw refused(step, response.status, installation);
    const token = readToken(response.text);
    if (token === null)
      throw new AppError("BAD_GATEWAY", `GitHub answered the request for ${step} unexpectedly.`, {
        reason: "INSTALLATION_TOKEN_FAILED",
      });
    const revokeUrl = buildUrl(baseUrl, ["installation", "token"]);
    return {
      ...token,
      revoke: async () => {
        await request(revokeUrl, { method: "DELETE", auth: `Bearer ${token.token}` }).catch(
          () => undefined,
        );
      },
    };
  };
}

export type MintRepositoryToken = ReturnType<typeof createRepositoryTokenMinter>;

/** Names the step and the status; GitHub's answer is not quoted (it could echo a header). */
function refused(step: string, status: number, installation: RepositoryInstallation): AppError {
  const hint =
    status === 401
      ? "the app's private key or app id is not accepted; ask the workspace owner to check the connection"
      : status === 422
        ? `the installation cannot ${describe(installation.permissions ?? FETCH_PERMISSIONS)} of "${installation.repositoryName}"; ask the workspace owner to grant the app access to it`
        : "the app is not installed there, or the installation cannot reach this repository; ask the workspace owner to check the installation";
  return new AppError("BAD_GATEWAY", `GitHub refused ${step} (HTTP ${status}): ${hint}.`, {
    reason: "INSTALLATION_TOKEN_REFUSED",
  });
}

/** "read the contents", "write the issues": the permissions asked for, as the owner reads them. */
function describe(permissions: TokenPermissions): string {
  return Object.entries(permissions)
    .map(([name, level]) => `${level} the ${name.replace(/_/g, " ")}`)
    .join(" and ");
}

function mintFailure(step: string, error: unknown): AppError {
  const detail = isAppError(error) ? ` ${error.message}` : "";
  return new AppError("BAD_GATEWAY", `Requesting ${step} from GitHub failed.${detail}`, {
    reason: "INSTALLATION_TOKEN_FAILED",
  });
}

function readToken(text: string): { token: string; expiresAt: Date } | null {
  try {
    const body = JSON.parse(text) as { token?: unknown; expires_at?: unknown };
    if (typeof body.token !== "string" || body.token === "") return null;
    if (typeof body.expires_at !== "string") return null;
    return { token: body.token, expiresAt: new Date(body.expires_at) };
  } catch {
    return null;
  }
}
