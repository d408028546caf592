// Owner: rename the workspace, change how many of its runs may run at once, the token budget
// of a run whose job declares none, or how many event-started runs an hour it takes.
import { updateWorkspace } from "@secondshift/domain";
import { z } from "zod";
import { nothing } from "../fields.ts";
import { workspaceProcedure } from "../../trpc.ts";

export const update = workspaceProcedure
  .input(
    z.object({
      name: z.string().trim().min(1).max(100).optional(),
      maxConcurrentRuns: z.number().int().min(1).max(50).optional(),
      defaultTokenBudget: z.number().int().positive().optional(),
      eventRunsPerHour: z.number().int().min(1).max(10_000).optional(),
    }),
  )
  .output(nothing)
  .mutation(({ ctx, input }) =>
    updateWorkspace(ctx.workspace, {
      name: input.name,
      maxConcurrentRuns: input.maxConcurrentRuns,
      defaultTokenBudget: input.defaultTokenBudget,
      eventRunsPerHour: input.eventRunsPerHour,
    }),
  );
