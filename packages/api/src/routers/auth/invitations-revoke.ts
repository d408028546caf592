// Owner-only: withdraw an invitation that was not used yet.
import { revokeInvitation } from "@secondshift/domain";
import { z } from "zod";
import { workspaceProcedure } from "../../trpc.ts";

export const invitationsRevokeInput = z.object({ invitationId: z.uuid() });
export const invitationsRevokeOutput = z.object({ revoked: z.literal(true) });

export const invitationsRevoke = workspaceProcedure
  .input(invitationsRevokeInput)
  .output(invitationsRevokeOutput)
  .mutation(async ({ ctx, input }) => {
    await revokeInvitation(ctx.workspace, { invitationId: input.invitationId });
    return { revoked: true as const };
  });
