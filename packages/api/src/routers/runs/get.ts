// Every member: one run with usage against budget, timings, the diff and its webhook reports.
import { getRun } from "@secondshift/domain";
import { z } from "zod";
import { id } from "../fields.ts";
import { workspaceProcedure } from "../../trpc.ts";
import { runDetail } from "./fields.ts";

export const get = workspaceProcedure
  .input(z.object({ runId: id }))
  .output(runDetail)
  .query(({ ctx, input }) => getRun(ctx.workspace, input));
