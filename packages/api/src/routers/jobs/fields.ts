// Output shapes of the jobs area (zod strips anything else, a second barrier behind the
// domain layer's explicit selects).
import { z } from "zod";
import { id, jobStatus } from "../fields.ts";

export const jobInput = z.object({ jobId: id });

export const jobSummary = z.object({
  id: z.string(),
  repositoryId: z.string(),
  key: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  schedule: z.string().nullable(),
  timezone: z.string(),
  status: jobStatus,
  enabled: z.boolean(),
  schedulable: z.boolean(),
  configCommit: z.string(),
  updatedAt: z.date(),
  scheduleText: z.string().nullable(),
  nextFireTimes: z.array(z.date()),
  skippedFires: z.object({ lastWeek: z.number(), lastAt: z.date().nullable() }),
});

export const jobDetail = jobSummary.extend({
  prompt: z.string(),
  model: z.string().nullable(),
  tokenBudget: z.number().nullable(),
  effectiveTokenBudget: z.number(),
  timeoutSeconds: z.number(),
  allowOutsiderEvents: z.boolean(),
  recentSkippedFires: z.array(z.object({ at: z.date(), reason: z.string() })),
});
