// Events a job asks to run on (issue #25 item 2): what a job may request in `.secondshift.yaml`
// (`on:`), in one spelling for the parser, the domain, the worker and the web app.
//
// A trigger is parsed, stored with the job, part of its request hash (adding or widening one
// needs the owner's approval again) and shown in the access review; a matching GitHub delivery
// starts a run of the approved job (trigger-events.ts: what came of each event). Events come
// from GitHub only.

/** Trigger kinds, in the order screens list them. */
export const TRIGGER_KINDS = ["pull_request", "issue", "comment_command"] as const;
export type TriggerKind = (typeof TRIGGER_KINDS)[number];

/** GitHub's `pull_request` actions a job may run on (synchronize: new commits were pushed). */
export const PULL_REQUEST_TRIGGER_ACTIONS = [
  "opened",
  "synchronize",
  "reopened",
  "ready_for_review",
] as const;
export type PullRequestTriggerAction = (typeof PULL_REQUEST_TRIGGER_ACTIONS)[number];

/**
 * GitHub's `issues` actions a job may run on: `opened`, and `labeled` (one of the trigger's
 * labels was added). With labels listed, `opened` matches only an issue opened with one of them.
 */
export const ISSUE_TRIGGER_ACTIONS = ["opened", "labeled"] as const;
export type IssueTriggerAction = (typeof ISSUE_TRIGGER_ACTIONS)[number];

/** A comment command: `/secondshift <job-key>` in an issue or pull request comment. */
export const COMMENT_COMMAND_PREFIX = "/secondshift";

export function commentCommand(jobKey: string): string {
  return `${COMMENT_COMMAND_PREFIX} ${jobKey}`;
}

/** Caps a trigger request lives within. */
export const TRIGGER_CAPS = {
  maxIssueLabels: 10,
} as const;

export interface RequestedPullRequestTrigger {
  /** In PULL_REQUEST_TRIGGER_ACTIONS' order, no duplicates, at least one. */
  actions: PullRequestTriggerAction[];
  /** Whether pull requests opened by other bots (e.g. Dependabot) count; default false. */
  bots: boolean;
}

export interface RequestedIssueTrigger {
  /** In ISSUE_TRIGGER_ACTIONS' order, no duplicates, at least one. */
  actions: IssueTriggerAction[];
  /** Sorted, no duplicates; required for `labeled`, a filter for `opened`. */
  labels: string[];
  /** Whether issues (or labels) from other bots count; default false. */
  bots: boolean;
}

export interface RequestedCommentCommandTrigger {
  /** Whether a command written by another bot counts; default false. */
  bots: boolean;
}

/**
 * A job's `on:` as the parser normalises it: a kind that is absent is not requested, keys in
 * TRIGGER_KINDS' order. Empty for a job that runs on its schedule or on demand only.
 */
export interface RequestedTriggers {
  pull_request?: RequestedPullRequestTrigger;
  issue?: RequestedIssueTrigger;
  comment_command?: RequestedCommentCommandTrigger;
}

export function hasTriggers(triggers: RequestedTriggers): boolean {
  return TRIGGER_KINDS.some((kind) => triggers[kind] !== undefined);
}

/**
 * Why a repository's triggers never fire: events are GitHub webhooks, so only a repository
 * fetched through a GitHub connection (App or token) can have them.
 */
export const EVENTS_NOT_GITHUB_REASON =
  "Events come from GitHub; this repository is fetched over plain git, so its triggers never fire.";

/**
 * Said with the triggers in the access review: who may set them off is the owner's separate,
 * per-job choice on the job page, never the repository's.
 */
export const OUTSIDER_EVENTS_NOTE =
  "Events from people without write access to the repository start nothing unless an owner or admin allows them for this job on the job page (their runs' outputs are then always held for approval).";
