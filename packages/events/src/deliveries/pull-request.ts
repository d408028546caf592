// `pull_request` deliveries: the actions a trigger can name. A draft's opened / synchronize /
// reopened start nothing: a draft is not ready for review, and `ready_for_review` is the event
// that says it became so.
import { PULL_REQUEST_TRIGGER_ACTIONS } from "@secondshift/vocabulary";
import { body, envelope, need, subject, viaAppId } from "./common.ts";
import { commitSha, labelNames, name, object, timestamp, type Loose } from "./shape.ts";
import type { Delivery, PullRequestHead } from "./types.ts";

function head(pr: Loose): PullRequestHead {
  const headObject = object(pr.head);
  return {
    headSha: need(commitSha(headObject?.sha), "pull_request.head.sha"),
    headRef: need(name(headObject?.ref), "pull_request.head.ref"),
    baseRef: need(name(object(pr.base)?.ref), "pull_request.base.ref"),
    headRepoFullName: name(object(headObject?.repo)?.full_name) ?? null,
  };
}

export function parsePullRequest(payload: Loose): Delivery | string {
  const base = envelope(payload);
  if (!(PULL_REQUEST_TRIGGER_ACTIONS as readonly string[]).includes(base.action))
    return `pull_request action "${base.action}" is not one a trigger can name`;
  const pr = need(object(payload.pull_request), "pull_request");
  if (pr.draft === true && base.action !== "ready_for_review")
    return "a draft pull request starts runs once it is marked ready for review";
  const subjectOf = subject(pr, "pull_request");
  const pullRequest = head(pr);
  return {
    ...base,
    event: "pull_request",
    occurredAt: need(timestamp(pr.updated_at), "pull_request.updated_at"),
    subject: subjectOf,
    viaAppId: viaAppId(pr),
    pullRequest,
    labels: labelNames(pr.labels),
    label: null,
    body: body(pr.body),
    comment: null,
    dedupeKey: `pr:${subjectOf.number}:${base.action}:${pullRequest.headSha}`,
  };
}
