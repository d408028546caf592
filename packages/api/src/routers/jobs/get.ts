// Every member: one job with its prompt and limits.
import { getJob } from "@secondshift/domain";
import { workspaceProcedure } from "../../trpc.ts";
import { jobDetail, jobInput } from "./fields.ts";

export const get = workspaceProcedure
  .input(jobInput)
  .output(jobDetail)
  .query(({ ctx, input }) => getJob(ctx.workspace, input));
