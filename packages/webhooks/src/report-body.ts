// The JSON body of a run report, documented by schema/report.schema.json. Built from the run
// row only (the model never chooses what goes here or where it goes), then passed through the
// secret maskers so no secret value handled during the run can leave in a report (P02).
// A run that proposed outputs (issue #24) lists each one's kind and state; a run without any
// sends the same body as before outputs existed. A run a GitHub event started (issue #25) names
// that event (kind, number, title, link, sender); never its bodies.
import type { SecretMasker } from "@secondshift/logging";

/** An output as a report lists it: its state in lower case, its URL once applied. */
export interface ReportOutput {
  id: string;
  kind: string;
  state: string;
  resultUrl?: string;
  /** Why it is held, refused or failed (written for the owner, never a secret). */
  reason?: string;
}

/** The RunOutput columns a report's outputs are built from. */
export interface OutputSource {
  id: string;
  kind: string;
  state: string;
  resultUrl: string | null;
  reason: string | null;
}

export const MAX_REASON_CHARS = 1_000;

export function reportOutput(output: OutputSource): ReportOutput {
  return {
    id: output.id,
    kind: output.kind,
    state: output.state.toLowerCase(),
    ...(output.resultUrl === null ? {} : { resultUrl: output.resultUrl }),
    ...(output.reason === null ? {} : { reason: clip(output.reason, MAX_REASON_CHARS) }),
  };
}

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
  /** Present when the run proposed outputs, in the order it proposed them. */
  outputs?: ReportOutput[];
  /** Present when a GitHub event started the run. */
  event?: ReportEvent;
}

export interface ReportEvent {
  kind: string;
  action: string;
  subject: { type: string; number: number; title: string; url: string };
  sender: string;
}

/** The TriggerEvent columns a report's event is built from. */
export interface EventSource {
  kind: string;
  action: string;
  subjectType: string;
  subjectNumber: number;
  subjectTitle: string;
  subjectUrl: string;
  actorLogin: string;
}

export const MAX_TITLE_CHARS = 256;

function reportEvent(event: EventSource): ReportEvent {
  return {
    kind: event.kind,
    action: event.action,
    subject: {
      type: event.subjectType,
      number: event.subjectNumber,
      title: clip(event.subjectTitle, MAX_TITLE_CHARS),
      url: event.subjectUrl,
    },
    sender: event.actorLogin,
  };
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
  outputs?: readonly OutputSource[];
  event?: EventSource | null;
}

/** Receivers are chat tools and ticket systems; a whole transcript does not belong there. */
export const MAX_SUMMARY_CHARS = 16_000;
export const MAX_ERROR_CHARS = 2_000;

export function clip(text: string, max: number): string {
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
    ...(source.outputs?.length ? { outputs: source.outputs.map(reportOutput) } : {}),
    ...(source.event ? { event: reportEvent(source.event) } : {}),
  };
  // Masking works on the serialised form, so it also catches a secret split across fields'
  // escaping (quotes, backslashes) exactly as it will be sent.
  return maskers.reduce((value, masker) => masker.maskValue(value), body);
}
