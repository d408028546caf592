// Owner-only: invite someone with a role. The link is returned once, here; only the token's
// hash is stored. The token travels in the URL fragment, which browsers send to no server
// (not in access logs, not in Referer); the /invite page reads it from there.
import { createInvitation } from "@secondshift/domain";
import { z } from "zod";
import { workspaceProcedure } from "../../trpc.ts";
import { email, role } from "./fields.ts";

export const invitationsCreateInput = z.object({ email, role });
export const invitationsCreateOutput = z.object({
  invitationId: z.string(),
  link: z.string(),
  expiresAt: z.date(),
});

export const invitationsCreate = workspaceProcedure
  .input(invitationsCreateInput)
  .output(invitationsCreateOutput)
  .mutation(async ({ ctx, input }) => {
    const created = await createInvitation(ctx.workspace, { email: input.email, role: input.role });
    const link = new URL("/invite", ctx.deps.publicUrl);
    link.hash = `token=${created.token}`;
    return {
      invitationId: created.invitationId,
      link: link.toString(),
      expiresAt: created.expiresAt,
    };
  });
