// Every member: runs newest first, optionally of one job, with cursor paging.
import { listRuns } from "@secondshift/access";
import { z } from "zod";
import { id, page, pageInput } from "../fields.ts";
import { workspaceProcedure } from "../../trpc.ts";
import { runSummary } from "./fields.ts";

export const list = workspaceProcedure
  .input(z.object({ ...pageInput, jobId: id.optional() }))
  .output(page(runSummary))
  .query(({ ctx, input }) =>
    listRuns(ctx.workspace, { cursor: input.cursor, limit: input.limit, jobId: input.jobId }),
  );
