// Owner or admin: queue a manual run of an approved job (C02).
import { runNow as runNowUseCase } from "@secondshift/domain";
import { z } from "zod";
import { workspaceProcedure } from "../../trpc.ts";
import { jobInput } from "./fields.ts";

export const runNow = workspaceProcedure
  .input(jobInput)
  .output(z.object({ runId: z.string() }))
  .mutation(({ ctx, input }) => runNowUseCase(ctx.workspace, input));
