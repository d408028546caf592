// The JSON body of a run report, documented by schema/report.schema.json. Built from the run
// row only (the model never chooses what goes here or where it goes), then passed through the
// secret maskers so no secret value handled during the run can leave in a report (P02).
import type { SecretMasker } from "@secondshift/logging";

export interface ReportBody {
  run: {
    id: string;
    status: string;
    trigger: string;
    commit: string | null;
    startedAt: string | null;
    finishedAt: string | null;
    durationMs: number | null;
    error?: string;
    summary?: string;
  };
  job: { key: string; name: string };
  repository: { fullName: string };
  usage: { inputTokens: number; outputTokens: number; totalTokens: number; budgetTokens: number };
  link: string;
}

/** The columns the body is built from. */
export interface ReportSource {
  run: {
    id: string;
    status: string;
    trigger: string;
    commitSha: string | null;
    startedAt: Date | null;
    finishedAt: Date | null;
    error: string | null;
    summary: string | null;
    inputTokens: number;
    outputTokens: number;
    tokensUsed: number;
    budgetTokens: number;
  };
  job: { key: string; name: string };
  repository: { fullName: string };
  link: string;
}

/** Receivers are chat tools and ticket systems; a whole transcript does not belong there. */
export const MAX_SUMMARY_CHARS = 16_000;
export const MAX_ERROR_CHARS = 2_000;

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… [truncated]`;
}

export function buildReportBody(
  source: ReportSource,
  maskers: readonly SecretMasker[],
): ReportBody {
  const { run } = source;
  const durationMs =
    run.startedAt !== null && run.finishedAt !== null
      ? Math.max(0, run.finishedAt.getTime() - run.startedAt.getTime())
      : null;
  const body: ReportBody = {
    run: {
      id: run.id,
      status: run.status.toLowerCase(),
      trigger: run.trigger.toLowerCase(),
      commit: run.commitSha,
      startedAt: run.startedAt?.toISOString() ?? null,
      finishedAt: run.finishedAt?.toISOString() ?? null,
      durationMs,
      ...(run.error === null ? {} : { error: clip(run.error, MAX_ERROR_CHARS) }),
      ...(run.summary === null ? {} : { summary: clip(run.summary, MAX_SUMMARY_CHARS) }),
    },
    job: { key: source.job.key, name: source.job.name },
    repository: { fullName: source.repository.fullName },
    usage: {
      inputTokens: run.inputTokens,
      outputTokens: run.outputTokens,
      totalTokens: run.tokensUsed,
      budgetTokens: run.budgetTokens,
    },
    link: source.link,
  };
  // Masking works on the serialised form, so it also catches a secret split across fields'
  // escaping (quotes, backslashes) exactly as it will be sent.
  return maskers.reduce((value, masker) => masker.maskValue(value), body);
}
