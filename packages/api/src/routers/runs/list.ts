// Every member: runs newest first, filtered by job, statuses or trigger, with cursor paging.
import { listRuns } from "@secondshift/access";
import { z } from "zod";
import { id, page, pageInput, runStatus, runTrigger } from "../fields.ts";
import { workspaceProcedure } from "../../trpc.ts";
import { runSummary } from "./fields.ts";

export const list = workspaceProcedure
  .input(
    z.object({
      ...pageInput,
      jobId: id.optional(),
      status: z.array(runStatus).max(10).optional(),
      trigger: runTrigger.optional(),
    }),
  )
  .output(page(runSummary))
  .query(({ ctx, input }) =>
    listRuns(ctx.workspace, {
      cursor: input.cursor,
      limit: input.limit,
      jobId: input.jobId,
      status: input.status,
      trigger: input.trigger,
    }),
  );
