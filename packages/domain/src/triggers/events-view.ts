// A TriggerEvent as members read it (job page, run page): what came, from whom, what came of it.
// Never the untrusted bodies (issue / pull request text, the comment, the command's words): those
// are for the run's platform tool only (E02). Titles and logins are shown as React text.
import {
  isTriggerEventDropReason,
  type TriggerEventDropReason,
  type TriggerEventOutcome,
  TRIGGER_EVENT_OUTCOMES,
} from "@secondshift/vocabulary";

export interface TriggerEventView {
  id: string;
  receivedAt: Date;
  /** vocabulary TriggerKind: pull_request, issue, comment_command. */
  kind: string;
  /** GitHub's action (opened, synchronize, labeled, created, ...). */
  action: string;
  subjectType: string;
  subjectNumber: number;
  subjectTitle: string;
  subjectUrl: string;
  actorLogin: string;
  actorIsBot: boolean;
  /** The actor's repository permission once the worker checked it; null until then. */
  actorPermission: string | null;
  headSha: string | null;
  outcome: TriggerEventOutcome;
  /** Set when dropped (vocabulary TRIGGER_EVENT_DROP_REASONS); null otherwise or unknown. */
  dropReason: TriggerEventDropReason | null;
  runId: string | null;
}

export const triggerEventSelect = {
  id: true,
  receivedAt: true,
  kind: true,
  action: true,
  subjectType: true,
  subjectNumber: true,
  subjectTitle: true,
  subjectUrl: true,
  actorLogin: true,
  actorIsBot: true,
  actorPermission: true,
  headSha: true,
  outcome: true,
  dropReason: true,
  runId: true,
} as const;

type Row = Omit<TriggerEventView, "outcome" | "dropReason"> & {
  outcome: string;
  dropReason: string | null;
};

const outcomeOf = (value: string): TriggerEventOutcome =>
  (TRIGGER_EVENT_OUTCOMES as readonly string[]).includes(value)
    ? (value as TriggerEventOutcome)
    : "dropped";

export function triggerEventView(row: Row): TriggerEventView {
  return {
    ...row,
    outcome: outcomeOf(row.outcome),
    dropReason: isTriggerEventDropReason(row.dropReason) ? row.dropReason : null,
  };
}
