// Run statuses in words, with a badge tone (the word carries the meaning, not the colour). The
// statuses themselves, and which are active or final, are the vocabulary's.
import type { RunStatus } from "@secondshift/vocabulary";
import type { BadgeTone } from "../ui/badge.tsx";

export const STATUS_WORDS: Record<RunStatus, { word: string; tone: BadgeTone }> = {
  QUEUED: { word: "Queued", tone: "neutral" },
  RUNNING: { word: "Running", tone: "info" },
  SUCCEEDED: { word: "Succeeded", tone: "good" },
  FAILED: { word: "Failed", tone: "bad" },
  TIMED_OUT: { word: "Timed out", tone: "bad" },
  CANCELLED: { word: "Cancelled", tone: "warn" },
  BUDGET_EXHAUSTED: { word: "Budget exhausted", tone: "bad" },
  REVOKED: { word: "Access revoked", tone: "bad" },
  SUPERSEDED: { word: "Superseded", tone: "neutral" },
};

export function statusWord(status: RunStatus): { word: string; tone: BadgeTone } {
  return STATUS_WORDS[status];
}
