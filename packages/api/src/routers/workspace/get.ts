// Every member: the workspace's name and settings.
import { getWorkspace } from "@secondshift/domain";
import { z } from "zod";
import { workspaceProcedure } from "../../trpc.ts";

export const get = workspaceProcedure
  .output(
    z.object({
      id: z.string(),
      slug: z.string(),
      name: z.string(),
      maxConcurrentRuns: z.number(),
      defaultTokenBudget: z.number(),
      eventRunsPerHour: z.number(),
    }),
  )
  .query(({ ctx }) => getWorkspace(ctx.workspace, {}));
