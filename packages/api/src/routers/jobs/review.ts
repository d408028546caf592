// Every member: the access review (each requested tool, its connection, whether it may change
// data); `canApprove` only tells the UI whether to show the buttons.
import { getAccessReview } from "@secondshift/domain";
import {
  COMMENT_TARGETS,
  ISSUE_TRIGGER_ACTIONS,
  OUTPUT_MODES,
  PULL_REQUEST_TRIGGER_ACTIONS,
} from "@secondshift/vocabulary";
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

const comment = z.object({ max: z.number(), target: z.enum(COMMENT_TARGETS) });
const issue = z.object({ max: z.number(), titlePrefix: z.string(), labels: z.array(z.string()) });
const pullRequest = z.object({
  draft: z.boolean(),
  labels: z.array(z.string()),
  maxFiles: z.number(),
  maxChangedLines: z.number(),
});
const mode = z.enum(OUTPUT_MODES);
const perKind = z.object({
  comment: z.array(z.string()).optional(),
  issue: z.array(z.string()).optional(),
  pull_request: z.array(z.string()).optional(),
});
const reviewOutputs = z.object({
  requested: z.object({
    comment: comment.optional(),
    issue: issue.optional(),
    pull_request: pullRequest.optional(),
    /** The job asks for the threat review of each proposal (`outputs.threatReview`). */
    threatReview: z.literal(true).optional(),
  }),
  granted: z.object({
    comment: comment.extend({ mode }).optional(),
    issue: issue.extend({ mode }).optional(),
    pull_request: pullRequest
      .extend({ mode, protectedPaths: z.array(z.string()).optional() })
      .optional(),
  }),
  available: z.boolean(),
  unavailableReason: z.string().nullable(),
  /** GitHub App permissions each requested kind needs, e.g. "Issues: write". */
  permissions: perKind,
  /** Whether the installation's permissions were read from GitHub for this review. */
  permissionsChecked: z.boolean(),
  /** Why not (no GitHub App, GitHub unreachable or refusing); null when read. */
  permissionsReason: z.string().nullable(),
  /** Per requested kind, what the installation lacks ("Pull requests: write"); read only. */
  missing: perKind,
});

/** The job's `on:` request (issue #25 item 2). */
export const reviewTriggers = z.object({
  requested: z.object({
    pull_request: z
      .object({ actions: z.array(z.enum(PULL_REQUEST_TRIGGER_ACTIONS)), bots: z.boolean() })
      .optional(),
    issue: z
      .object({
        actions: z.array(z.enum(ISSUE_TRIGGER_ACTIONS)),
        labels: z.array(z.string()),
        bots: z.boolean(),
      })
      .optional(),
    comment_command: z.object({ bots: z.boolean() }).optional(),
  }),
  /** Whether the repository's connection is GitHub (App or token), so events could reach it. */
  eventsAvailable: z.boolean(),
  /** Why not ("Events come from GitHub; …"); null when available. */
  eventsUnavailableReason: z.string().nullable(),
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
  outputs: reviewOutputs,
  triggers: reviewTriggers,
  canApprove: z.boolean(),
});

export const review = workspaceProcedure
  .input(jobInput)
  .output(accessReview)
  .query(({ ctx, input }) => getAccessReview(ctx.workspace, input));
