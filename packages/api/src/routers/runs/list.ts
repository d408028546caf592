// Every member: runs newest first, filtered by job, repository, statuses, trigger or queued
// time, with cursor paging.
import { listRuns } from "@secondshift/domain";
import { z } from "zod";
import { id, page, pageInput, runStatus, runTrigger } from "../fields.ts";
import { workspaceProcedure } from "../../trpc.ts";
import { runSummary } from "./fields.ts";

export const list = workspaceProcedure
  .input(
    z.object({
      ...pageInput,
      jobId: id.optional(),
      repositoryId: id.optional(),
      status: z.array(runStatus).max(10).optional(),
      trigger: runTrigger.optional(),
      since: z.date().optional(),
      until: z.date().optional(),
    }),
  )
  .output(page(runSummary))
  .query(({ ctx, input }) =>
    listRuns(ctx.workspace, {
      cursor: input.cursor,
      limit: input.limit,
      jobId: input.jobId,
      repositoryId: input.repositoryId,
      status: input.status,
      trigger: input.trigger,
      since: input.since,
      until: input.until,
    }),
  );
