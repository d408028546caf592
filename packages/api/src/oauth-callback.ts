// GET /api/oauth/callback — where an MCP server's authorization server sends the owner's
// browser back with `code` and `state` (connections.oauthStart built the link). The session
// cookie (SameSite=Lax, so it rides along on this top-level navigation) names the user, the
// state names the pending authorization: finishConnectionOAuth checks that the same owner is
// finishing it, exchanges the code and stores the tokens encrypted. The browser is then sent
// to the connection's page in the web app; nothing secret is in that URL or in this response.
import type { IncomingMessage, ServerResponse } from "node:http";
import { finishConnectionOAuth } from "@secondshift/domain";
import { resolveSession } from "@secondshift/accounts";
import { isAppError } from "@secondshift/errors";
import type { Logger } from "@secondshift/logging";
import type { ApiDeps } from "./context.ts";
import { readSessionCookie } from "./cookies.ts";
import { describeInternalError } from "./errors.ts";

export const OAUTH_CALLBACK_PATH = "/api/oauth/callback";

/**
 * The web app's pages the callback lands on: the connection's own page in its workspace; a
 * failure whose connection is unknown (bad state, signed out) lands on /connections, which sends
 * the user on to their workspace's connections page with the same status.
 */
const connectionPage = (publicUrl: string, workspaceId: string, connectionId: string) =>
  new URL(`/w/${workspaceId}/connections/${connectionId}?oauth=connected`, publicUrl).toString();
const failedPage = (publicUrl: string, reason: string) =>
  new URL(`/connections?oauth=failed&reason=${encodeURIComponent(reason)}`, publicUrl).toString();

function redirect(res: ServerResponse, location: string): void {
  res
    .writeHead(303, {
      location,
      "cache-control": "no-store",
      // The callback URL carries the code: never hand it on as a Referer.
      "referrer-policy": "no-referrer",
    })
    .end();
}

const param = (url: URL, name: string) => {
  const value = url.searchParams.get(name);
  return value && value.length <= 4096 ? value : null;
};

export async function handleOAuthCallback(
  deps: ApiDeps,
  logger: Logger,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  if (req.method !== "GET") {
    res.writeHead(405, { allow: "GET" }).end();
    return;
  }
  const url = new URL(req.url ?? "/", deps.publicUrl);
  const [state, code] = [param(url, "state"), param(url, "code")];
  const fail = (reason: string) => redirect(res, failedPage(deps.publicUrl, reason));
  // The owner declined at the authorization server (or it refused): nothing to exchange.
  if (url.searchParams.has("error") || !state || !code) return fail("OAUTH_NOT_AUTHORIZED");
  const session = await resolveSession(deps.accounts, readSessionCookie(req, deps.cookie));
  if (!session) return fail("SIGNED_OUT");
  if (!deps.mcpOAuth || !deps.keyring) return fail("OAUTH_NOT_AVAILABLE");
  try {
    const { workspaceId, connectionId } = await finishConnectionOAuth(
      {
        db: deps.accounts.db,
        keyring: deps.keyring,
        mcpOAuth: deps.mcpOAuth,
        ...(deps.discovery ? { discovery: deps.discovery } : {}),
        now: deps.accounts.now,
      },
      { userId: session.userId, state, code },
    );
    redirect(res, connectionPage(deps.publicUrl, workspaceId, connectionId));
  } catch (error) {
    if (!isAppError(error))
      logger.error({ error: describeInternalError(error) }, "oauth callback failed");
    fail(isAppError(error) ? (error.reason ?? error.code) : "OAUTH_FAILED");
  }
}
