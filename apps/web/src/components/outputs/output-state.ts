// An output's state in words for the owner: what happened, and what happens next.
import type { OutputKind, OutputState } from "@secondshift/vocabulary";
import type { BadgeTone } from "../ui/badge.tsx";

const words: Record<OutputState, { word: string; tone: BadgeTone; next: string }> = {
  PROPOSED: { word: "Proposed", tone: "neutral", next: "Checked when the run ends." },
  HELD: { word: "Held", tone: "warn", next: "Waiting for an owner to approve or reject it." },
  READY: { word: "Ready", tone: "info", next: "Passed the checks; being applied." },
  APPROVED: { word: "Approved", tone: "info", next: "Approved; being applied." },
  APPLYING: { word: "Applying", tone: "info", next: "Being written to GitHub." },
  APPLIED: { word: "Applied", tone: "good", next: "" },
  REFUSED: { word: "Refused", tone: "bad", next: "A check refused it; nothing was written." },
  REJECTED: {
    word: "Rejected",
    tone: "neutral",
    next: "An owner rejected it; nothing was written.",
  },
  EXPIRED: {
    word: "Expired",
    tone: "neutral",
    next: "Nobody decided in time; nothing was written.",
  },
  FAILED: { word: "Failed", tone: "bad", next: "GitHub refused it." },
};

export const outputStateWord = (state: OutputState) => words[state];

/** States in which something is still moving without an owner (the list polls). */
export const MOVING_STATES: readonly OutputState[] = ["PROPOSED", "READY", "APPROVED", "APPLYING"];

const kinds: Record<OutputKind, string> = {
  comment: "Comment",
  issue: "New issue",
  pull_request: "Pull request",
};

export const outputKindWord = (kind: OutputKind) => kinds[kind];

/** "Comment on #12", "New issue: [deps] Update x", 'Pull request "Bump lodash"'. */
export function outputHeadline(o: {
  kind: OutputKind;
  number: number | null;
  title: string | null;
}) {
  if (o.kind === "comment") return `Comment on #${o.number ?? "?"}`;
  if (o.kind === "pull_request") return `Pull request "${o.title ?? ""}"`;
  return `${outputKindWord(o.kind)}: ${o.title ?? ""}`;
}
