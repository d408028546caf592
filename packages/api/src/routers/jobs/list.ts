// Every member: the workspace's jobs (next fires, skipped fires), optionally of one repository.
import { listJobs } from "@secondshift/domain";
import { z } from "zod";
import { id } from "../fields.ts";
import { workspaceProcedure } from "../../trpc.ts";
import { jobSummary } from "./fields.ts";

export const list = workspaceProcedure
  .input(z.object({ repositoryId: id.optional() }))
  .output(z.array(jobSummary))
  .query(({ ctx, input }) => listJobs(ctx.workspace, { repositoryId: input.repositoryId }));
