// Owner: start connecting an MCP connection with OAuth 2.1 — returns the authorization server's
// URL (PKCE S256, dynamic client registration when offered, a fresh state stored hashed) for
// the browser to open; the server sends it back to /api/oauth/callback. Null: the server asked
// for no authorization.
import { startConnectionOAuth } from "@secondshift/domain";
import { z } from "zod";
import { id } from "../fields.ts";
import { OAUTH_CALLBACK_PATH } from "../../oauth-callback.ts";
import { workspaceProcedure } from "../../trpc.ts";

export const oauthStart = workspaceProcedure
  .input(z.object({ connectionId: id }))
  .output(z.object({ authorizationUrl: z.string().nullable() }))
  .mutation(({ ctx, input }) =>
    startConnectionOAuth(ctx.workspace, {
      connectionId: input.connectionId,
      redirectUrl: new URL(OAUTH_CALLBACK_PATH, ctx.deps.publicUrl).toString(),
    }),
  );
