// Owner: reject the job's request; any active grant is revoked.
import { rejectJob } from "@secondshift/domain";
import { nothing } from "../fields.ts";
import { workspaceProcedure } from "../../trpc.ts";
import { jobInput } from "./fields.ts";

export const reject = workspaceProcedure
  .input(jobInput)
  .output(nothing)
  .mutation(({ ctx, input }) => rejectJob(ctx.workspace, input));
