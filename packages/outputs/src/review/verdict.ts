// The threat review's answer, read strictly: only a first line of exactly "VERDICT: OK" passes.
// "VERDICT: WARN", anything else, or nothing at all is a warning (an unclear answer is never
// taken as a clean one). The notes are the model's reasons: masked and cut before they are
// stored or shown.
import { THREAT_REVIEW_NOTES_MAX, type ThreatReview } from "@secondshift/vocabulary";

export const UNCLEAR_VERDICT = "the review did not give a clear verdict";
const MAX_REASONS = 5;

export function parseReviewVerdict(
  answer: string,
  masker: { mask(text: string): string },
): ThreatReview {
  const lines = answer.replace(/\r\n?/g, "\n").trim().split("\n");
  const first = (lines[0] ?? "").trim();
  const reasons = lines
    .slice(1)
    .map((l) => l.trim())
    .filter((l) => l !== "")
    .slice(0, MAX_REASONS)
    .join("\n");
  const notes = (text: string) => masker.mask(text).slice(0, THREAT_REVIEW_NOTES_MAX);
  if (first === "VERDICT: OK") return { verdict: "ok", notes: notes(reasons) };
  if (first === "VERDICT: WARN")
    return { verdict: "warn", notes: notes(reasons || "the review gave no reasons") };
  return { verdict: "warn", notes: UNCLEAR_VERDICT };
}
