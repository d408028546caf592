// Owner: the workspace's open invitations, to see who has not joined yet and withdraw a link.
import { listInvitations } from "@secondshift/domain";
import { z } from "zod";
import { workspaceProcedure } from "../../trpc.ts";
import { role } from "./fields.ts";

export const invitationsListOutput = z.array(
  z.object({
    invitationId: z.string(),
    email: z.string(),
    role,
    invitedBy: z.string(),
    createdAt: z.date(),
    expiresAt: z.date(),
  }),
);

export const invitationsList = workspaceProcedure
  .output(invitationsListOutput)
  .query(({ ctx }) => listInvitations(ctx.workspace, {}));
