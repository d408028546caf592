// Owner: apply a held output (a worker applies it once, after this returns).
import { approveOutput } from "@secondshift/domain";
import { workspaceProcedure } from "../../trpc.ts";
import { decision, outputInput } from "./fields.ts";

export const approve = workspaceProcedure
  .input(outputInput)
  .output(decision)
  .mutation(({ ctx, input }) => approveOutput(ctx.workspace, input));
