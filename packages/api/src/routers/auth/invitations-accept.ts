// Accepting an invitation: a signed-in user joins with their account (the invited email must
// be theirs); anyone else creates an account with the invited email and is signed in.
import { acceptInvitation, type Invitee } from "@secondshift/accounts";
import { AppError } from "@secondshift/errors";
import { z } from "zod";
import { rateLimitedProcedure } from "../../trpc.ts";
import { newPassword, personName, role } from "./fields.ts";
import { sessionClient } from "./session-client.ts";

export const invitationsAcceptInput = z.object({
  token: z.string().max(200),
  name: personName.optional(),
  password: newPassword.optional(),
});
export const invitationsAcceptOutput = z.object({ workspaceId: z.string(), role });

function invitee(
  userId: string | undefined,
  input: z.infer<typeof invitationsAcceptInput>,
): Invitee {
  if (userId) return { userId };
  if (input.name === undefined || input.password === undefined) {
    throw new AppError("BAD_REQUEST", "Choose your name and a password to join.", {
      reason: "ACCOUNT_DETAILS_MISSING",
    });
  }
  return { name: input.name, password: input.password };
}

export const invitationsAccept = rateLimitedProcedure
  .input(invitationsAcceptInput)
  .output(invitationsAcceptOutput)
  .mutation(async ({ ctx, input }) => {
    const accepted = await acceptInvitation(ctx.deps.accounts, {
      token: input.token,
      invitee: invitee(ctx.session?.userId, input),
      client: sessionClient(ctx),
    });
    if (accepted.session) ctx.cookies.set(accepted.session.token);
    return { workspaceId: accepted.workspaceId, role: accepted.role };
  });
