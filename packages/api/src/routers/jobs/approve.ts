// Owner: approve the request as reviewed (refused if it changed since), with the chosen
// connection and narrowed tools per group (C04).
import { approveJob, PROTECTED_PATH_LIMITS } from "@secondshift/domain";
import { COMMENT_TARGETS, OUTPUT_CAPS, OUTPUT_MODES } from "@secondshift/vocabulary";
import { z } from "zod";
import { id } from "../fields.ts";
import { workspaceProcedure } from "../../trpc.ts";

const groupKey = z.string().min(1).max(300);
const mode = z.enum(OUTPUT_MODES).optional();
// Kinds listed are granted (O02); the domain refuses limits above the job's request.
const outputs = z
  .object({
    comment: z
      .object({
        mode,
        max: z.number().int().min(1).max(OUTPUT_CAPS.maxComments).optional(),
        target: z.enum(COMMENT_TARGETS).optional(),
      })
      .strict()
      .optional(),
    issue: z
      .object({ mode, max: z.number().int().min(1).max(OUTPUT_CAPS.maxIssues).optional() })
      .strict()
      .optional(),
    pull_request: z
      .object({
        mode,
        maxFiles: z.number().int().min(1).max(OUTPUT_CAPS.maxPullRequestFiles).optional(),
        maxChangedLines: z
          .number()
          .int()
          .min(1)
          .max(OUTPUT_CAPS.maxPullRequestChangedLines)
          .optional(),
        // Owner-listed paths held for approval (O04); the domain checks each one's form.
        protectedPaths: z
          .array(z.string().max(PROTECTED_PATH_LIMITS.maxLength))
          .max(PROTECTED_PATH_LIMITS.maxPaths)
          .optional(),
      })
      .strict()
      .optional(),
  })
  .strict();

export const approve = workspaceProcedure
  .input(
    z.object({
      jobId: id,
      requestHash: z.string().min(1).max(128),
      bindings: z.record(groupKey, id).optional(),
      tools: z.record(groupKey, z.array(z.string().min(1).max(200)).max(500)).optional(),
      outputs: outputs.optional(),
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
