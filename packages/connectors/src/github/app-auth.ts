// GitHub App authentication ([P03]): the private key signs a short JWT (RS256, node:crypto), the
// JWT buys an installation token limited to the job's one repository with read permissions
// only, and that token lives only in this run's cache. disposeRun revokes and forgets it.
import { createPrivateKey, createSign, type KeyObject } from "node:crypto";
import type { CallDeadline } from "../shared/deadline.ts";
import type { OutboundFetch } from "../shared/deps.ts";
import { connectorError } from "../shared/errors.ts";
import { restRequest } from "../shared/rest.ts";
import { buildUrl } from "../shared/url.ts";

const b64url = (data: string | Buffer) => Buffer.from(data).toString("base64url");

export function appJwt(appId: string, privateKeyPem: string, nowMs: number): string {
  let key: KeyObject;
  try {
    key = createPrivateKey(privateKeyPem);
  } catch {
    // Never echo the key or the parser's message (which can quote it).
    throw connectorError(
      "AUTH_FAILED",
      "The GitHub App private key of this connection could not be read. Ask the workspace owner to upload it again.",
    );
  }
  const now = Math.floor(nowMs / 1000);
  // iat 60 s in the past absorbs clock drift (GitHub's advice); 9 min stays under the 10 min cap.
  const header = b64url(JSON.stringify({ alg: "RS256", typ: "JWT" }));
  const payload = b64url(JSON.stringify({ iat: now - 60, exp: now + 540, iss: appId }));
  const signature = createSign("RSA-SHA256").update(`${header}.${payload}`).sign(key);
  return `${header}.${payload}.${b64url(signature)}`;
}

// Read access to what the allowlisted tools need; requested only where the installation has it,
// so a narrower installation never fails the mint.
const READ_PERMISSIONS = ["contents", "issues", "pull_requests", "actions", "metadata"] as const;

export interface InstallationToken {
  token: string;
  expiresAt: number;
  baseUrl: URL;
}

interface MintInput {
  fetch: OutboundFetch;
  baseUrl: URL;
  appId: string;
  installationId: string;
  privateKey: string;
  repositoryName: string;
  nowMs: number;
  deadline: CallDeadline;
  headers: Record<string, string>;
}

export async function mintInstallationToken(input: MintInput): Promise<InstallationToken> {
  const jwt = appJwt(input.appId, input.privateKey, input.nowMs);
  const auth = { ...input.headers, authorization: `Bearer ${jwt}` };
  const opts = { deadline: input.deadline, readLimit: 256 * 1024, service: "GitHub" };
  const installation = await restRequest(
    input.fetch,
    {
      method: "GET",
      url: buildUrl(input.baseUrl, ["app", "installations", input.installationId]),
      headers: auth,
    },
    opts,
  );
  const granted =
    (parseJson(installation.text) as { permissions?: Record<string, string> }).permissions ?? {};
  const permissions = Object.fromEntries(
    READ_PERMISSIONS.filter((p) => p in granted).map((p) => [p, "read"]),
  );
  const response = await restRequest(
    input.fetch,
    {
      method: "POST",
      url: buildUrl(input.baseUrl, ["app", "installations", input.installationId, "access_tokens"]),
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ repositories: [input.repositoryName], permissions }),
    },
    opts,
  );
  const body = parseJson(response.text) as { token?: unknown; expires_at?: unknown };
  if (typeof body.token !== "string" || typeof body.expires_at !== "string") {
    throw connectorError(
      "PROTOCOL_ERROR",
      "GitHub answered the installation token request with an unexpected body.",
    );
  }
  return { token: body.token, expiresAt: Date.parse(body.expires_at), baseUrl: input.baseUrl };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw connectorError("PROTOCOL_ERROR", "GitHub answered with a body that is not JSON.");
  }
}

/**
 * Installation tokens, per run + connection + repository. Nothing outlives the run: the worker
 * calls disposeRun when the run ends, which revokes each token (best effort) and forgets it.
 */
export class RunTokenCache {
  readonly #tokens = new Map<string, Map<string, InstallationToken>>();

  get(runId: string, key: string, nowMs: number): InstallationToken | undefined {
    const token = this.#tokens.get(runId)?.get(key);
    // Re-mint a minute early rather than send a token that expires in flight.
    return token && token.expiresAt - 60_000 > nowMs ? token : undefined;
  }

  set(runId: string, key: string, token: InstallationToken): void {
    const forRun = this.#tokens.get(runId) ?? new Map<string, InstallationToken>();
    forRun.set(key, token);
    this.#tokens.set(runId, forRun);
  }

  take(runId: string): InstallationToken[] {
    const tokens = [...(this.#tokens.get(runId)?.values() ?? [])];
    this.#tokens.delete(runId);
    return tokens;
  }

  size(runId?: string): number {
    if (runId !== undefined) return this.#tokens.get(runId)?.size ?? 0;
    let n = 0;
    for (const m of this.#tokens.values()) n += m.size;
    return n;
  }
}
