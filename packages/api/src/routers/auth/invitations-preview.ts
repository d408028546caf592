// What an invitation link offers (workspace, role, inviter) or why it can no longer be used,
// shown before the invitee accepts. A mutation only so the token travels in the request body,
// never in a URL (query inputs go in the query string, and so into access logs).
import { previewInvitation } from "@secondshift/accounts";
import { AppError } from "@secondshift/errors";
import { z } from "zod";
import { rateLimitedProcedure } from "../../trpc.ts";
import { role } from "./fields.ts";

export const invitationsPreviewInput = z.object({ token: z.string().max(200) });
export const invitationsPreviewOutput = z.object({
  state: z.enum(["open", "used", "revoked", "expired"]),
  workspaceName: z.string(),
  role,
  email: z.string(),
  inviterName: z.string(),
  expiresAt: z.date(),
});

export const invitationsPreview = rateLimitedProcedure
  .input(invitationsPreviewInput)
  .output(invitationsPreviewOutput)
  .mutation(async ({ ctx, input }) => {
    const preview = await previewInvitation(ctx.deps.accounts, input.token);
    if (!preview) {
      throw new AppError(
        "NOT_FOUND",
        "This invitation link is not valid. Ask the workspace owner for a new one.",
        { reason: "INVITATION_NOT_FOUND" },
      );
    }
    return preview;
  });
