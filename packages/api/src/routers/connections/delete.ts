// Owner: delete a connection; its secrets are dropped at once and running jobs fail at their
// next call (C06).
import { deleteConnection } from "@secondshift/domain";
import { z } from "zod";
import { id, nothing } from "../fields.ts";
import { workspaceProcedure } from "../../trpc.ts";

export const remove = workspaceProcedure
  .input(z.object({ connectionId: id }))
  .output(nothing)
  .mutation(({ ctx, input }) => deleteConnection(ctx.workspace, input));
