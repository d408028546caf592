// Every member: the access review (each requested tool, its connection, whether it may change
// data); `canApprove` only tells the UI whether to show the buttons.
import { getAccessReview } from "@secondshift/domain";
import { z } from "zod";
import { connectionKind, jobStatus } from "../fields.ts";
import { workspaceProcedure } from "../../trpc.ts";
import { jobInput } from "./fields.ts";

const reviewConnection = z.object({ id: z.string(), label: z.string() });
const changedTool = z.object({ name: z.string(), mayChangeData: z.boolean() });

/** What changed since the job's last approval, per requested (or no longer requested) group. */
const reviewChange = z.object({
  key: z.string(),
  kind: connectionKind,
  label: z.string().nullable(),
  change: z.enum(["added", "removed", "changed", "unchanged"]),
  previousConnection: reviewConnection.nullable(),
  connection: reviewConnection.nullable(),
  bindingChanged: z.boolean(),
  added: z.array(changedTool),
  removed: z.array(changedTool),
  unchanged: z.array(z.string()),
});

export const accessReview = z.object({
  job: z.object({
    id: z.string(),
    key: z.string(),
    name: z.string(),
    status: jobStatus,
    requestHash: z.string(),
    repositoryFullName: z.string(),
  }),
  grant: z.object({ id: z.string(), approvedAt: z.date(), approvedById: z.string() }).nullable(),
  groups: z.array(
    z.object({
      key: z.string(),
      kind: connectionKind,
      label: z.string().nullable(),
      required: z.boolean(),
      connection: reviewConnection.nullable(),
      candidates: z.array(reviewConnection),
      tools: z.array(
        z.object({
          name: z.string(),
          mayChangeData: z.boolean(),
          discovered: z.boolean(),
          allowedOnConnection: z.boolean(),
          approved: z.boolean(),
        }),
      ),
    }),
  ),
  lastApproval: z
    .object({
      id: z.string(),
      approvedAt: z.date(),
      approvedById: z.string(),
      revokedAt: z.date().nullable(),
      sameRequest: z.boolean(),
    })
    .nullable(),
  changes: z.array(reviewChange),
  canApprove: z.boolean(),
});

export const review = workspaceProcedure
  .input(jobInput)
  .output(accessReview)
  .query(({ ctx, input }) => getAccessReview(ctx.workspace, input));
