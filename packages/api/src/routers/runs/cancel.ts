// Owner or admin: cancel a queued or running run (C02).
import { cancelRun } from "@secondshift/domain";
import { z } from "zod";
import { id, runStatus } from "../fields.ts";
import { workspaceProcedure } from "../../trpc.ts";

export const cancel = workspaceProcedure
  .input(z.object({ runId: id }))
  .output(z.object({ status: runStatus }))
  .mutation(({ ctx, input }) => cancelRun(ctx.workspace, input));
