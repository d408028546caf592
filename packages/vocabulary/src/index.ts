// The shared vocabulary of the platform: the words the domain, API, worker and web app must
// spell the same way. Browser-safe (no Node built-in, no Prisma: browser-safe.test.ts), so the
// web app's pages import it at run time.
export { AGENT_OUTCOMES } from "./agent-outcomes.ts";
export type { AgentOutcome } from "./agent-outcomes.ts";
export { AUDIT_ACTIONS, AUDIT_TARGET_TYPES, TOOL_CALL_ACTION } from "./audit.ts";
export type { AuditAction, AuditTargetType } from "./audit.ts";
export { readConfigErrors, repoConfigErrorSchema } from "./config-errors.ts";
export type { RepoConfigError } from "./config-errors.ts";
export { can, PERMISSIONS, ROLES } from "./roles.ts";
export type { Permission, Role } from "./roles.ts";
export {
  ACTIVE_STATUSES,
  FINAL_STATUSES,
  isActive,
  isFinal,
  isRunStatus,
  RUN_STATUSES,
} from "./run-status.ts";
export type { ActiveStatus, FinalStatus, RunStatus } from "./run-status.ts";
export {
  AGENT_EVENT_TYPES,
  EXECUTOR_EVENT_TYPES,
  isFinalStatusEvent,
  readTranscriptEvent,
  STATUS_EVENT_TYPE,
  TRANSCRIPT_PAYLOADS,
} from "./transcript.ts";
export type {
  AgentEventType,
  ExecutorEventType,
  OtherEvent,
  ReadTranscriptEvent,
  TranscriptEvent,
  TranscriptEventOf,
  TranscriptEventType,
  TranscriptPayload,
} from "./transcript.ts";
export { TRANSITION_NAMES, TRANSITIONS } from "./transitions.ts";
export type { Transition, TransitionName } from "./transitions.ts";
export { MAX_BATCH_CALLS, mustCallAlone } from "./api-batching.ts";
export { legacyRunPath, runPagePath } from "./page-paths.ts";
export { readUntrustedBlock, UNTRUSTED_DATA_TAG } from "./untrusted-data.ts";
export { GIT_CONNECTION_KINDS, servesGit } from "./git-connections.ts";
export {
  APPLICABLE_OUTPUT_STATES,
  COMMENT_TARGETS,
  DECIDABLE_OUTPUT_STATES,
  FINAL_OUTPUT_STATES,
  isFinalOutputState,
  OUTPUT_CAPS,
  OUTPUT_KINDS,
  OUTPUT_MODES,
  OUTPUT_PERMISSIONS,
  OUTPUT_STATES,
  outputMarker,
  PLATFORM_TOOLS,
  pullRequestBranch,
  THREAT_REVIEW_NOTES_MAX,
} from "./outputs.ts";
export type {
  CommentProposal,
  CommentTarget,
  GrantedOutput,
  GrantedOutputs,
  IssueProposal,
  OutputKind,
  OutputMode,
  OutputState,
  PlatformToolName,
  PullRequestFile,
  PullRequestProposal,
  RequestedCommentOutput,
  RequestedIssueOutput,
  RequestedOutputs,
  RequestedPullRequestOutput,
  ThreatReview,
} from "./outputs.ts";
export {
  COMMENT_COMMAND_PREFIX,
  commentCommand,
  EVENTS_NOT_GITHUB_REASON,
  hasTriggers,
  ISSUE_TRIGGER_ACTIONS,
  OUTSIDER_EVENTS_NOTE,
  PULL_REQUEST_TRIGGER_ACTIONS,
  TRIGGER_CAPS,
  TRIGGER_KINDS,
} from "./triggers.ts";
export type {
  IssueTriggerAction,
  PullRequestTriggerAction,
  RequestedCommentCommandTrigger,
  RequestedIssueTrigger,
  RequestedPullRequestTrigger,
  RequestedTriggers,
  TriggerKind,
} from "./triggers.ts";
export {
  EVENT_TEXT_TOOL,
  hasWriteAccess,
  isTriggerEventDropReason,
  OUTSIDER_HOLD_REASON,
  RUN_TRIGGER_LABELS,
  RUN_TRIGGERS,
  SUPERSEDED_HOLD_REASON,
  TRIGGER_EVENT_DROP_REASONS,
  TRIGGER_EVENT_OUTCOMES,
  WRITE_PERMISSIONS,
} from "./trigger-events.ts";
export type { TriggerEventDropReason, TriggerEventOutcome } from "./trigger-events.ts";
