// Does a delivery match a job's requested triggers (the approved default branch's `on:`)?
// Pull requests by action; issues by action and label (labeled: the added label is one of the
// trigger's; opened with labels listed: the issue has one of them); comment commands by the
// comment's first line being exactly `/secondshift <job-key>`, optionally followed by a space
// and the requester's task. Bots are not decided here: the intake records them as drops, so
// the job page can say why (see bots.ts).
import {
  COMMENT_COMMAND_PREFIX,
  type RequestedTriggers,
  type TriggerKind,
} from "@secondshift/vocabulary";
import type { Delivery } from "./deliveries/types.ts";

export interface TriggerMatch {
  kind: TriggerKind;
  /** Whether the matched trigger takes deliveries sent by (other) bots. */
  bots: boolean;
  /** A comment command's task after the job key, if any (the requester's words). */
  commandText: string | null;
}

/** The job key and task of a comment command, when the comment's first line is one. */
export function readCommand(comment: string): { jobKey: string; task: string | null } | null {
  const firstLine = (comment.split("\n", 1)[0] ?? "").replace(/\r$/, "").trimEnd();
  const prefix = `${COMMENT_COMMAND_PREFIX} `;
  if (!firstLine.startsWith(prefix)) return null;
  const rest = firstLine.slice(prefix.length);
  const space = rest.indexOf(" ");
  const jobKey = space === -1 ? rest : rest.slice(0, space);
  if (jobKey === "") return null;
  const task = space === -1 ? "" : rest.slice(space + 1).trim();
  return { jobKey, task: task === "" ? null : task };
}

function issueMatches(trigger: NonNullable<RequestedTriggers["issue"]>, d: Delivery): boolean {
  if (!(trigger.actions as readonly string[]).includes(d.action)) return false;
  if (d.action === "labeled") return d.label !== null && trigger.labels.includes(d.label);
  return trigger.labels.length === 0 || d.labels.some((l) => trigger.labels.includes(l));
}

export function matchTrigger(
  triggers: RequestedTriggers,
  jobKey: string,
  d: Delivery,
): TriggerMatch | null {
  if (d.event === "pull_request") {
    const trigger = triggers.pull_request;
    return trigger && (trigger.actions as readonly string[]).includes(d.action)
      ? { kind: "pull_request", bots: trigger.bots, commandText: null }
      : null;
  }
  if (d.event === "issues") {
    const trigger = triggers.issue;
    return trigger && issueMatches(trigger, d)
      ? { kind: "issue", bots: trigger.bots, commandText: null }
      : null;
  }
  const trigger = triggers.comment_command;
  const command = d.comment ? readCommand(d.comment.body) : null;
  return trigger && command?.jobKey === jobKey
    ? { kind: "comment_command", bots: trigger.bots, commandText: command.task }
    : null;
}
