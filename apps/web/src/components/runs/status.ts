// Run statuses in words, with a badge tone (the word carries the meaning, not the colour).
import type { BadgeTone } from "../ui/badge.tsx";

export const RUN_STATUSES = [
  "QUEUED",
  "RUNNING",
  "SUCCEEDED",
  "FAILED",
  "TIMED_OUT",
  "CANCELLED",
  "BUDGET_EXHAUSTED",
  "REVOKED",
] as const;

export type RunStatusName = (typeof RUN_STATUSES)[number];

export const STATUS_WORDS: Record<RunStatusName, { word: string; tone: BadgeTone }> = {
  QUEUED: { word: "Queued", tone: "neutral" },
  RUNNING: { word: "Running", tone: "info" },
  SUCCEEDED: { word: "Succeeded", tone: "good" },
  FAILED: { word: "Failed", tone: "bad" },
  TIMED_OUT: { word: "Timed out", tone: "bad" },
  CANCELLED: { word: "Cancelled", tone: "warn" },
  BUDGET_EXHAUSTED: { word: "Budget exhausted", tone: "bad" },
  REVOKED: { word: "Access revoked", tone: "bad" },
};

export function isActiveStatus(status: string): boolean {
  return status === "QUEUED" || status === "RUNNING";
}

export function statusWord(status: string): { word: string; tone: BadgeTone } {
  return STATUS_WORDS[status as RunStatusName] ?? { word: status, tone: "neutral" };
}
