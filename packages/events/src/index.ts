// @secondshift/events: GitHub events (pull requests, issues, comment commands) → runs of the
// jobs whose approved triggers they match (issue #25; promises E01, E03, E04).
export { handleGitHubDelivery } from "./webhook/handle.ts";
export type { DeliveryTarget } from "./webhook/handle.ts";
export type { EventWebhookDeps, HookInput, WebhookResponse } from "./webhook/deps.ts";
export { handleAppDelivery } from "./webhook/app-hook.ts";
export { handleRepositoryDelivery } from "./webhook/repository-hook.ts";
export { parseDelivery } from "./deliveries/parse.ts";
export { EVENT_NAMES } from "./deliveries/types.ts";
export type { Delivery, EventName, ParseResult } from "./deliveries/types.ts";
export { matchTrigger, readCommand } from "./match.ts";
export type { TriggerMatch } from "./match.ts";
export { appIdentity, isOwnApp } from "./bots.ts";
export type { AppIdentity } from "./bots.ts";
export { DEFAULT_MAX_EVENT_AGE_SECONDS, staleness } from "./freshness.ts";
export { intakeDelivery, summaryMessage } from "./intake.ts";
export type { EnqueueRun, IntakeInput, IntakeSummary, JobOutcome } from "./intake.ts";
export { SYSTEM_EVENTS } from "./intake/rows.ts";
