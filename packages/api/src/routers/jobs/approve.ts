// Owner: approve the request as reviewed (refused if it changed since), with the chosen
// connection and narrowed tools per group (C04).
import { approveJob } from "@secondshift/domain";
import { z } from "zod";
import { id } from "../fields.ts";
import { workspaceProcedure } from "../../trpc.ts";

const groupKey = z.string().min(1).max(300);

export const approve = workspaceProcedure
  .input(
    z.object({
      jobId: id,
      requestHash: z.string().min(1).max(128),
      bindings: z.record(groupKey, id).optional(),
      tools: z.record(groupKey, z.array(z.string().min(1).max(200)).max(500)).optional(),
    }),
  )
  .output(
    z.object({
      grantId: z.string(),
      groups: z.array(
        z.object({
          key: z.string(),
          connectionId: z.string().nullable(),
          tools: z.array(z.string()),
          missing: z.array(z.string()),
          required: z.boolean(),
        }),
      ),
    }),
  )
  .mutation(({ ctx, input }) => approveJob(ctx.workspace, input));
