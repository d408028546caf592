// Owner or admin: start the job's schedule again (C02).
import { resumeJob } from "@secondshift/domain";
import { nothing } from "../fields.ts";
import { workspaceProcedure } from "../../trpc.ts";
import { jobInput } from "./fields.ts";

export const resume = workspaceProcedure
  .input(jobInput)
  .output(nothing)
  .mutation(({ ctx, input }) => resumeJob(ctx.workspace, input));
