// The access review's words for a job's triggers (`on:`, issue #25 item 2): one sentence per
// requested trigger, as an owner reads it before approving (and on the job page).
import {
  commentCommand,
  type IssueTriggerAction,
  type PullRequestTriggerAction,
  type RequestedTriggers,
} from "@secondshift/vocabulary";

const PULL_REQUEST_WORDS: Record<PullRequestTriggerAction, string> = {
  opened: "is opened",
  synchronize: "gets new commits",
  reopened: "is reopened",
  ready_for_review: "is marked ready for review",
};

/** "a", "a or b", "a, b or c". */
export function orInWords(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? "";
  return `${items.slice(0, -1).join(", ")} or ${items[items.length - 1]}`;
}

const labelWords = (labels: readonly string[]) =>
  labels.length === 1 ? `the label ${labels[0]}` : `one of the labels ${orInWords(labels)}`;

const BOTS_WORDS = ", other bots (such as Dependabot) included";

function issueWords(actions: readonly IssueTriggerAction[], labels: readonly string[]): string {
  const opened = actions.includes("opened");
  const labeled = actions.includes("labeled") && labels.length > 0;
  if (labels.length === 0) return opened ? "is opened" : "";
  if (opened && labeled) return `is opened with, or later gets, ${labelWords(labels)}`;
  return opened ? `is opened with ${labelWords(labels)}` : `gets ${labelWords(labels)}`;
}

/** One sentence per requested trigger, in the vocabulary's order of kinds. */
export function triggerSentences(triggers: RequestedTriggers, jobKey: string): string[] {
  const sentences: string[] = [];
  const pr = triggers.pull_request;
  if (pr) {
    const phrases = pr.actions.map((action) => PULL_REQUEST_WORDS[action]);
    sentences.push(`When a pull request ${orInWords(phrases)}${pr.bots ? BOTS_WORDS : ""}`);
  }
  const issue = triggers.issue;
  if (issue) {
    sentences.push(
      `When an issue ${issueWords(issue.actions, issue.labels)}${issue.bots ? BOTS_WORDS : ""}`,
    );
  }
  const command = triggers.comment_command;
  if (command) {
    sentences.push(
      `When someone comments ${commentCommand(jobKey)}${command.bots ? BOTS_WORDS : ""}`,
    );
  }
  return sentences;
}
