// Owner: never apply a held output.
import { rejectOutput } from "@secondshift/domain";
import { workspaceProcedure } from "../../trpc.ts";
import { decision, outputInput } from "./fields.ts";

export const reject = workspaceProcedure
  .input(outputInput)
  .output(decision)
  .mutation(({ ctx, input }) => rejectOutput(ctx.workspace, input));
