// Output shapes of the outputs area: what a run proposed, its state and, when applied, the link
// to it on GitHub — never a token.
import { OUTPUT_KINDS, OUTPUT_STATES } from "@secondshift/vocabulary";
import { z } from "zod";
import { id } from "../fields.ts";

export const outputInput = z.object({ outputId: id });

export const outputState = z.enum(OUTPUT_STATES);

const pullRequestSummary = z.object({
  headBranch: z.string(),
  baseBranch: z.string(),
  draft: z.boolean(),
  totals: z.object({ files: z.number(), additions: z.number(), deletions: z.number() }),
});

/** A proposed pull request's files: each one's patch, never its full new content. */
const pullRequest = pullRequestSummary.extend({
  files: z.array(
    z.object({
      path: z.string(),
      status: z.enum(["added", "modified", "deleted"]),
      mode: z.enum(["100644", "100755", "120000"]).nullable(),
      additions: z.number(),
      deletions: z.number(),
      patch: z.string(),
    }),
  ),
});

export const output = z.object({
  id: z.string(),
  runId: z.string(),
  seq: z.number(),
  kind: z.enum(OUTPUT_KINDS),
  state: outputState,
  title: z.string().nullable(),
  body: z.string(),
  number: z.number().nullable(),
  labels: z.array(z.string()),
  reason: z.string().nullable(),
  resultUrl: z.string().nullable(),
  proposedAt: z.date(),
  decidedAt: z.date().nullable(),
  decidedBy: z.object({ id: z.string(), name: z.string() }).nullable(),
  appliedAt: z.date().nullable(),
  /** The threat review's verdict; null when the job did not ask for it. */
  review: z.object({ verdict: z.enum(["ok", "warn"]), notes: z.string() }).nullable(),
  /** Only on a pull_request output. */
  pullRequest: pullRequest.optional(),
});

export const waitingOutput = output.extend({
  job: z.object({ id: z.string(), name: z.string() }),
  /** The overview shows a pull request's size, not its files. */
  pullRequest: pullRequestSummary.optional(),
});

export const decision = z.object({ state: outputState });
