// Every member: the outputs held for an owner's decision, oldest first (the overview).
import { listWaitingOutputs } from "@secondshift/domain";
import { z } from "zod";
import { workspaceProcedure } from "../../trpc.ts";
import { waitingOutput } from "./fields.ts";

export const waiting = workspaceProcedure
  .input(z.object({ limit: z.number().int().min(1).max(100).optional() }))
  .output(z.array(waitingOutput))
  .query(({ ctx, input }) => listWaitingOutputs(ctx.workspace, input));
