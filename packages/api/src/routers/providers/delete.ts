// Owner: delete a model provider and its key.
import { deleteModelProvider } from "@secondshift/domain";
import { z } from "zod";
import { id, nothing } from "../fields.ts";
import { workspaceProcedure } from "../../trpc.ts";

export const remove = workspaceProcedure
  .input(z.object({ providerId: id }))
  .output(nothing)
  .mutation(({ ctx, input }) =>
    deleteModelProvider(ctx.workspace, { providerId: input.providerId }),
  );
