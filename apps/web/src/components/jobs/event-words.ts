// A GitHub event in words, as the job page and the run page say it: what it was, on which
// pull request or issue, who sent it (and their permission once the worker checked it).
import { TRIGGER_EVENT_DROP_REASONS, type TriggerEventDropReason } from "@secondshift/vocabulary";

const KIND_WORDS: Record<string, string> = {
  pull_request: "Pull request",
  issue: "Issue",
  comment_command: "Comment command",
};

/** "Pull request opened", "Issue labeled", "Comment command created". */
export function eventKindWords(kind: string, action: string): string {
  return `${KIND_WORDS[kind] ?? kind} ${action.replaceAll("_", " ")}`;
}

/** "octocat (write)", "octocat (not checked yet)", "dependabot[bot] (bot)". */
export function actorWords(event: {
  actorLogin: string;
  actorIsBot: boolean;
  actorPermission: string | null;
}): string {
  const permission = event.actorPermission ?? "permission not checked yet";
  return `${event.actorLogin} (${event.actorIsBot ? "bot, " : ""}${permission})`;
}

/** The drop reason's sentence; a reason this version does not know reads as plain "Dropped". */
export function dropWords(reason: TriggerEventDropReason | null): string {
  return reason ? TRIGGER_EVENT_DROP_REASONS[reason] : "Dropped.";
}
