export { buildReportBody, MAX_ERROR_CHARS, MAX_SUMMARY_CHARS } from "./report-body.ts";
export type { OutputSource, ReportBody, ReportOutput, ReportSource } from "./report-body.ts";
export {
  buildOutputEventBody,
  OUTPUT_APPLIED_EVENT,
  OUTPUT_FAILED_EVENT,
  outputEventOf,
} from "./output-event-body.ts";
export type { OutputEvent, OutputEventBody, OutputEventSource } from "./output-event-body.ts";
export {
  computeSignature,
  DEFAULT_TOLERANCE_SECONDS,
  DELIVERY_HEADER,
  digestsEqual,
  EVENT_HEADER,
  GITHUB_SIGNATURE_HEADER,
  gitHubSignatureHeader,
  SIGNATURE_HEADER,
  signatureHeader,
  verifyGitHubSignature,
  verifySignature,
} from "./signature.ts";
export type { SignatureFailure, VerifyOptions, VerifyResult } from "./signature.ts";
export { createReplayGuard } from "./replay-guard.ts";
export type { ReplayGuard } from "./replay-guard.ts";
export { MAX_ATTEMPTS, nextRetryDelayMs, RETRY_DELAYS_MS } from "./retry-schedule.ts";
export { enqueueOutputEvents, enqueueReports, enqueueTestDelivery } from "./enqueue.ts";
export type { EnqueueResult } from "./enqueue.ts";
export {
  DEFAULT_ATTEMPT_TIMEOUT_MS,
  deliverDue,
  processDelivery,
  REPORT_EVENT,
  TEST_EVENT,
} from "./deliver.ts";
export type { DeliveryDeps, DeliverySummary } from "./deliver.ts";
export { createDeliveryProcessor } from "./processor.ts";
export type { DeliveryProcessor } from "./processor.ts";
export { resetFailedDelivery } from "./redeliver.ts";
export type { ResetResult } from "./redeliver.ts";
export { createWebhookMetrics } from "./metrics.ts";
export type { WebhookMetrics } from "./metrics.ts";
