// `issues` deliveries: opened, and labeled (with the label that was added).
import { ISSUE_TRIGGER_ACTIONS } from "@secondshift/vocabulary";
import { body, envelope, need, subject, viaAppId } from "./common.ts";
import { labelNames, name, object, timestamp, type Loose } from "./shape.ts";
import type { Delivery } from "./types.ts";

export function parseIssues(payload: Loose): Delivery | string {
  const base = envelope(payload);
  if (!(ISSUE_TRIGGER_ACTIONS as readonly string[]).includes(base.action))
    return `issues action "${base.action}" is not one a trigger can name`;
  const issue = need(object(payload.issue), "issue");
  // An issues delivery about a pull request does not happen on GitHub; refuse the shape.
  if (issue.pull_request !== undefined) return "an issues delivery names a pull request";
  const label =
    base.action === "labeled" ? need(name(object(payload.label)?.name), "label.name") : null;
  const subjectOf = subject(issue, "issue");
  return {
    ...base,
    event: "issues",
    occurredAt: need(timestamp(issue.updated_at), "issue.updated_at"),
    subject: subjectOf,
    viaAppId: viaAppId(issue),
    pullRequest: null,
    labels: labelNames(issue.labels),
    label,
    body: body(issue.body),
    comment: null,
    dedupeKey: `issue:${subjectOf.number}:${base.action}:${label ?? ""}`,
  };
}
