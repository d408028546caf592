// Output shapes of the runs area: status, timings, usage against budget — never a run token.
import { z } from "zod";
import { runStatus, runTrigger } from "../fields.ts";

export const runSummary = z.object({
  id: z.string(),
  jobId: z.string(),
  trigger: runTrigger,
  status: runStatus,
  commitSha: z.string().nullable(),
  queuedAt: z.date(),
  startedAt: z.date().nullable(),
  finishedAt: z.date().nullable(),
  tokensUsed: z.number(),
  budgetTokens: z.number(),
  error: z.string().nullable(),
});

export const runDetail = runSummary.extend({
  summary: z.string().nullable(),
  inputTokens: z.number(),
  outputTokens: z.number(),
  cancelRequestedAt: z.date().nullable(),
});
