// Ends one of the user's own sessions; ending the current one also clears its cookie.
import { revokeSession } from "@secondshift/accounts";
import { z } from "zod";
import { authedProcedure } from "../../trpc.ts";

export const sessionsRevokeInput = z.object({ sessionId: z.uuid() });
export const sessionsRevokeOutput = z.object({ revoked: z.literal(true) });

export const sessionsRevoke = authedProcedure
  .input(sessionsRevokeInput)
  .output(sessionsRevokeOutput)
  .mutation(async ({ ctx, input }) => {
    await revokeSession(ctx.deps.accounts, ctx.session.userId, input.sessionId);
    if (input.sessionId === ctx.session.sessionId) ctx.cookies.clear();
    return { revoked: true as const };
  });
