// Owner: change a member's role (the last owner cannot be demoted: PRECONDITION_FAILED).
import { changeMemberRole } from "@secondshift/domain";
import { z } from "zod";
import { id, nothing, role } from "../fields.ts";
import { workspaceProcedure } from "../../trpc.ts";

export const changeRole = workspaceProcedure
  .input(z.object({ userId: id, role }))
  .output(nothing)
  .mutation(({ ctx, input }) =>
    changeMemberRole(ctx.workspace, { userId: input.userId, role: input.role }),
  );
