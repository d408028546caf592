// Every member: one run with its usage and result summary.
import { getRun } from "@secondshift/access";
import { z } from "zod";
import { id } from "../fields.ts";
import { workspaceProcedure } from "../../trpc.ts";
import { runDetail } from "./fields.ts";

export const get = workspaceProcedure
  .input(z.object({ runId: id }))
  .output(runDetail)
  .query(({ ctx, input }) => getRun(ctx.workspace, input));
