// A job's requested triggers (Job.requestedTriggers, written by repository sync from the parsed
// `on:`) read back in one canonical form: kinds in the vocabulary's order, actions in its order,
// labels sorted, fixed key order, so JSON.stringify of it is canonical for the request hash.
// Anything not of the vocabulary's shape is dropped. Requests only (issue #25 item 2): nothing
// receives events or starts a run on one yet.
import {
  ISSUE_TRIGGER_ACTIONS,
  PULL_REQUEST_TRIGGER_ACTIONS,
  type RequestedCommentCommandTrigger,
  type RequestedIssueTrigger,
  type RequestedPullRequestTrigger,
  type RequestedTriggers,
} from "@secondshift/vocabulary";
import { isObject } from "../stored-json.ts";

const inOrder = <T extends string>(order: readonly T[], v: unknown): T[] =>
  Array.isArray(v) ? order.filter((action) => v.includes(action)) : [];
const labels = (v: unknown): string[] =>
  Array.isArray(v) ? [...new Set(v.filter((l): l is string => typeof l === "string"))].sort() : [];

function pullRequest(v: unknown): RequestedPullRequestTrigger | undefined {
  if (!isObject(v)) return undefined;
  const actions = inOrder(PULL_REQUEST_TRIGGER_ACTIONS, v.actions);
  return actions.length > 0 ? { actions, bots: v.bots === true } : undefined;
}

function issue(v: unknown): RequestedIssueTrigger | undefined {
  if (!isObject(v)) return undefined;
  const listed = labels(v.labels);
  // `labeled` without a label waits for nothing: dropped, as the parser refuses it.
  const actions = inOrder(ISSUE_TRIGGER_ACTIONS, v.actions).filter(
    (action) => action !== "labeled" || listed.length > 0,
  );
  return actions.length > 0 ? { actions, labels: listed, bots: v.bots === true } : undefined;
}

function commentCommand(v: unknown): RequestedCommentCommandTrigger | undefined {
  return isObject(v) ? { bots: v.bots === true } : undefined;
}

export function readRequestedTriggers(value: unknown): RequestedTriggers {
  if (!isObject(value)) return {};
  const out: RequestedTriggers = {};
  const p = pullRequest(value.pull_request);
  if (p) out.pull_request = p;
  const i = issue(value.issue);
  if (i) out.issue = i;
  const c = commentCommand(value.comment_command);
  if (c) out.comment_command = c;
  return out;
}
