// `issue_comment` deliveries, `created` only (an edited comment is not a new command). GitHub
// sends comments on pull requests as issue comments too; `issue.pull_request` says which.
// A pull request's head is not in this payload: the worker resolves the commit.
import { body, envelope, need, subject } from "./common.ts";
import { labelNames, name, numericId, object, text, timestamp, type Loose } from "./shape.ts";
import type { Delivery, DeliveredComment } from "./types.ts";

function comment(v: Loose): DeliveredComment {
  return {
    id: need(numericId(v.id), "comment.id"),
    body: need(text(v.body), "comment.body"),
    url: need(name(v.html_url), "comment.html_url"),
  };
}

export function parseIssueComment(payload: Loose): Delivery | string {
  const base = envelope(payload);
  if (base.action !== "created") return `issue_comment action "${base.action}" is not a command`;
  const issue = need(object(payload.issue), "issue");
  const commentObject = need(object(payload.comment), "comment");
  const onPullRequest = object(issue.pull_request) !== undefined;
  const commented = comment(commentObject);
  return {
    ...base,
    event: "issue_comment",
    occurredAt: need(timestamp(commentObject.created_at), "comment.created_at"),
    subject: subject(issue, onPullRequest ? "pull_request" : "issue"),
    viaAppId: numericId(object(commentObject.performed_via_github_app)?.id) ?? null,
    pullRequest: null,
    labels: labelNames(issue.labels),
    label: null,
    body: body(issue.body),
    comment: commented,
    dedupeKey: `comment:${commented.id}`,
  };
}
