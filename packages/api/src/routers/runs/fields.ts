// Output shapes of the runs area: status, timings, usage against budget, the diff (capped) and
// the run's webhook reports — never a run token.
import { TRIGGER_EVENT_DROP_REASONS, TRIGGER_EVENT_OUTCOMES } from "@secondshift/vocabulary";
import { z } from "zod";
import { runStatus, runTrigger } from "../fields.ts";
import { delivery } from "../webhooks/fields.ts";

export const runSummary = z.object({
  id: z.string(),
  jobId: z.string(),
  job: z.object({ key: z.string(), name: z.string(), repositoryId: z.string() }),
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

/** A GitHub event as it met a job; never its bodies (those reach only the run's tool, E02). */
export const triggerEvent = z.object({
  id: z.string(),
  receivedAt: z.date(),
  kind: z.string(),
  action: z.string(),
  subjectType: z.string(),
  subjectNumber: z.number(),
  subjectTitle: z.string(),
  subjectUrl: z.string(),
  actorLogin: z.string(),
  actorIsBot: z.boolean(),
  actorPermission: z.string().nullable(),
  headSha: z.string().nullable(),
  outcome: z.enum(TRIGGER_EVENT_OUTCOMES),
  dropReason: z
    .enum(Object.keys(TRIGGER_EVENT_DROP_REASONS) as [keyof typeof TRIGGER_EVENT_DROP_REASONS])
    .nullable(),
  runId: z.string().nullable(),
});

export const runDetail = runSummary.extend({
  summary: z.string().nullable(),
  inputTokens: z.number(),
  outputTokens: z.number(),
  cancelRequestedAt: z.date().nullable(),
  usage: z.object({
    tokensUsed: z.number(),
    budgetTokens: z.number(),
    budgetPercent: z.number(),
    toolCalls: z.number(),
  }),
  timings: z.object({
    waitMs: z.number().nullable(),
    runMs: z.number().nullable(),
    totalMs: z.number().nullable(),
  }),
  diff: z.object({ text: z.string(), truncated: z.boolean(), totalChars: z.number() }).nullable(),
  deliveries: z.array(delivery),
  /** The event that started it (trigger EVENT); null otherwise. */
  event: triggerEvent.nullable(),
});
