// What the repository's GitHub App installation may do (issue #24, the access review): one
// `GET /app/installations/{installation_id}` with the App's JWT, through the web process's
// outbound fetch (netguard, C21) like every call made on the owner's behalf. The private key is
// decrypted for this one request and never leaves it. Whatever goes wrong — no outbound wiring,
// a key that does not decrypt, GitHub unreachable or refusing — is a reason in words, never an
// exception: the review renders without the check, and approving stays possible.
import { appJwt } from "@secondshift/connectors";
import { decryptField } from "@secondshift/crypto";
import { isAppError } from "@secondshift/errors";
import type { ActorContext } from "../context.ts";

const TIMEOUT_MS = 10_000;
const USER_AGENT = "SecondShift";

/** GitHub's permission levels, weakest first. */
const LEVELS = ["read", "write", "admin"];

export type InstallationPermissions =
  { checked: true; permissions: Record<string, string> } | { checked: false; reason: string };

/** The permissions `needed` names that `granted` lacks, as the owner reads them. */
export function missingPermissions(
  needed: Readonly<Record<string, string>>,
  granted: Readonly<Record<string, string>>,
): string[] {
  return Object.entries(needed)
    .filter(([name, level]) => LEVELS.indexOf(granted[name] ?? "") < LEVELS.indexOf(level))
    .map(([name, level]) => permissionLabel(name, level));
}

/** "pull_requests", "write" → "Pull requests: write" (GitHub's settings page names). */
export const permissionLabel = (name: string, level: string): string =>
  `${name.replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase())}: ${level}`;

const unchecked = (reason: string): InstallationPermissions => ({ checked: false, reason });
const NOT_ASKED = "SecondShift could not ask GitHub what the App may do:";

const numericId = (value: unknown): string | null =>
  (typeof value === "number" && Number.isSafeInteger(value) && value > 0) ||
  (typeof value === "string" && /^[1-9][0-9]{0,18}$/.test(value))
    ? String(value)
    : null;

function readPermissions(body: unknown): Record<string, string> | null {
  const permissions = (body as { permissions?: unknown } | null)?.permissions;
  if (typeof permissions !== "object" || permissions === null || Array.isArray(permissions))
    return null;
  return Object.fromEntries(
    Object.entries(permissions).filter((e): e is [string, string] => typeof e[1] === "string"),
  );
}

function statusReason(status: number): string {
  if (status === 401)
    return `GitHub did not accept the App's private key or app id (HTTP 401); ask the workspace owner to check the connection.`;
  if (status === 403 || status === 404)
    return `GitHub does not know this installation (HTTP ${status}): the App may have been uninstalled; ask the GitHub organisation owner to install it again and update the connection.`;
  return `GitHub answered HTTP ${status}; reload the review later.`;
}

/** The installation's `permissions` object as GitHub returns it, or why it could not be read. */
export async function readInstallationPermissions(
  ctx: Pick<ActorContext, "db" | "workspaceId" | "keyring" | "outbound" | "now">,
  connectionId: string,
): Promise<InstallationPermissions> {
  const { keyring, outbound } = ctx;
  if (!keyring || !outbound)
    return unchecked(`${NOT_ASKED} this server is not wired to call GitHub from the review.`);
  const connection = await ctx.db.connection.findFirst({
    where: { id: connectionId, workspaceId: ctx.workspaceId, deletedAt: null },
    select: { id: true, endpoint: true, settings: true, credentialCiphertext: true },
  });
  if (!connection) return unchecked(`${NOT_ASKED} the connection was deleted.`);
  const settings = (connection.settings ?? {}) as Record<string, unknown>;
  const appId = numericId(settings.appId);
  const installationId = numericId(settings.installationId);
  if (!appId || !installationId || !connection.credentialCiphertext)
    return unchecked(
      `${NOT_ASKED} the connection lacks its app id, installation id or private key; ask the workspace owner to fix it.`,
    );
  let jwt: string;
  try {
    const privateKey = await decryptField(keyring, connection.credentialCiphertext, {
      workspaceId: ctx.workspaceId,
      table: "Connection",
      rowId: connection.id,
      field: "credentialCiphertext",
    });
    jwt = appJwt(appId, privateKey, (ctx.now?.() ?? new Date()).getTime());
  } catch {
    // Never the parser's message: it can quote the key.
    return unchecked(
      `${NOT_ASKED} the App's private key could not be read; ask the workspace owner to upload it again.`,
    );
  }
  let response: Response;
  try {
    const url = new URL(
      `${connection.endpoint.replace(/\/+$/, "")}/app/installations/${installationId}`,
    );
    response = await outbound(url, {
      headers: {
        accept: "application/vnd.github+json",
        "x-github-api-version": "2022-11-28",
        "user-agent": USER_AGENT,
        authorization: `Bearer ${jwt}`,
      },
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    // netguard's errors name the host and the rule, never a header; other causes are withheld.
    const why = isAppError(error)
      ? error.message
      : error instanceof Error && error.name === "TimeoutError"
        ? `it did not answer within ${TIMEOUT_MS / 1000} s`
        : "the connection failed";
    return unchecked(`${NOT_ASKED} GitHub could not be reached: ${why}`);
  }
  if (!response.ok) {
    // An error body may echo request headers: it is not read.
    await response.body?.cancel().catch(() => undefined);
    return unchecked(`${NOT_ASKED} ${statusReason(response.status)}`);
  }
  const permissions = readPermissions(await response.json().catch(() => null));
  if (!permissions)
    return unchecked(
      `${NOT_ASKED} GitHub's answer named no permissions; check the connection's API URL.`,
    );
  return { checked: true, permissions };
}
