// Owner or admin: stop the job's schedule (C02).
import { pauseJob } from "@secondshift/domain";
import { nothing } from "../fields.ts";
import { workspaceProcedure } from "../../trpc.ts";
import { jobInput } from "./fields.ts";

export const pause = workspaceProcedure
  .input(jobInput)
  .output(nothing)
  .mutation(({ ctx, input }) => pauseJob(ctx.workspace, input));
