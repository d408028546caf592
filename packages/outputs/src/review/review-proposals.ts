// The optional threat review (issue #24 phase c): at finalize, while the run token is valid,
// one model call per proposal through the gateway (counted against the run's budget there)
// with the fixed prompt and no tools. A warning, an unclear answer or a review that could not
// run holds the proposal for an owner, whatever the mode; a clean one changes nothing.
import type { ThreatReview } from "@secondshift/vocabulary";
import { REVIEW_MAX_OUTPUT_TOKENS, reviewMessage, THREAT_REVIEW_SYSTEM_PROMPT } from "./prompt.ts";
import { parseReviewVerdict } from "./verdict.ts";

/** One request to the model (no tools); resolves to its text, rejects with a readable error. */
export type ReviewModelCall = (request: {
  system: string;
  user: string;
  maxOutputTokens: number;
}) => Promise<string>;

export interface ReviewedProposal {
  id: string;
  /** Null when the review could not run. */
  review: ThreatReview | null;
  /** The hold reason when the proposal must wait for an owner; null when the review is clean. */
  hold: string | null;
}

const REASON_NOTES_MAX = 300;

/** The hold reason of a verdict (null for a clean one). */
export function reviewHold(review: ThreatReview): string | null {
  if (review.verdict === "ok") return null;
  const said = review.notes.replace(/\s*\n\s*/g, "; ");
  const cut = said.length > REASON_NOTES_MAX ? `${said.slice(0, REASON_NOTES_MAX)}…` : said;
  return `Held: the threat review warns: ${cut}`;
}

/** Reviews each output in turn (refused ones are the caller's to leave out). */
export async function reviewProposals(
  deps: { call: ReviewModelCall; masker: { mask(text: string): string } },
  outputs: ReadonlyArray<{ id: string; kind: string; payload: unknown }>,
): Promise<ReviewedProposal[]> {
  const reviewed: ReviewedProposal[] = [];
  for (const output of outputs) {
    try {
      const answer = await deps.call({
        system: THREAT_REVIEW_SYSTEM_PROMPT,
        user: reviewMessage(output, deps.masker),
        maxOutputTokens: REVIEW_MAX_OUTPUT_TOKENS,
      });
      const review = parseReviewVerdict(answer, deps.masker);
      reviewed.push({ id: output.id, review, hold: reviewHold(review) });
    } catch (error) {
      const message = deps.masker.mask(error instanceof Error ? error.message : String(error));
      reviewed.push({
        id: output.id,
        review: null,
        hold: `Held: the threat review could not run: ${message.slice(0, REASON_NOTES_MAX)}`,
      });
    }
  }
  return reviewed;
}
