// Owner: remove a member, themselves included (never the last owner).
import { removeMember } from "@secondshift/domain";
import { z } from "zod";
import { id, nothing } from "../fields.ts";
import { workspaceProcedure } from "../../trpc.ts";

export const remove = workspaceProcedure
  .input(z.object({ userId: id }))
  .output(nothing)
  .mutation(({ ctx, input }) => removeMember(ctx.workspace, { userId: input.userId }));
