// Owner-only: withdraw an invitation that was not used yet.
import { revokeInvitation } from "@secondshift/accounts";
import { z } from "zod";
import { workspaceProcedure } from "../../trpc.ts";

export const invitationsRevokeInput = z.object({ invitationId: z.uuid() });
export const invitationsRevokeOutput = z.object({ revoked: z.literal(true) });

export const invitationsRevoke = workspaceProcedure
  .input(invitationsRevokeInput)
  .output(invitationsRevokeOutput)
  .mutation(async ({ ctx, input }) => {
    await revokeInvitation(
      ctx.deps.accounts,
      { userId: ctx.workspace.actor.userId, workspaceId: ctx.workspace.workspaceId },
      input.invitationId,
    );
    return { revoked: true as const };
  });
