// Every member: the job's triggers and the last events that met it (queued a run, superseded,
// or dropped and why), newest first.
import { listJobEvents } from "@secondshift/domain";
import { z } from "zod";
import { workspaceProcedure } from "../../trpc.ts";
import { triggerEvent } from "../runs/fields.ts";
import { jobInput } from "./fields.ts";
import { reviewTriggers } from "./review.ts";

export const events = workspaceProcedure
  .input(jobInput)
  .output(
    z.object({
      jobKey: z.string(),
      triggers: reviewTriggers,
      allowOutsiderEvents: z.boolean(),
      events: z.array(triggerEvent),
    }),
  )
  .query(({ ctx, input }) => listJobEvents(ctx.workspace, { jobId: input.jobId }));
