// The granted limits again, at the trust boundary (O02): the proposal tool checked them when it
// stored the row, but the row is read back here and only this check decides what may leave.
import { OUTPUT_CAPS, type GrantedOutputs, type OutputKind } from "@secondshift/vocabulary";
import { pullRequestProblem, pullRequestTexts, type OutputCheckConfig } from "./pull-request.ts";

type Loose = Record<string, unknown>;
const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"}`;
const isText = (v: unknown, max: number): v is string => typeof v === "string" && v.length <= max;

function commentProblem(payload: Loose): string | null {
  if (!Number.isInteger(payload.number) || (payload.number as number) < 1)
    return "Refused: the comment names no valid issue or pull request number.";
  if (!isText(payload.body, OUTPUT_CAPS.maxBodyLength))
    return `Refused: the comment body is not text of at most ${OUTPUT_CAPS.maxBodyLength} characters.`;
  return null;
}

function issueProblem(payload: Loose, grant: NonNullable<GrantedOutputs["issue"]>): string | null {
  const { title, body, labels } = payload;
  if (!isText(title, OUTPUT_CAPS.maxTitleLength) || !title.startsWith(grant.titlePrefix))
    return `Refused: the issue title must start with the granted prefix and be at most ${OUTPUT_CAPS.maxTitleLength} characters.`;
  if (!isText(body, OUTPUT_CAPS.maxBodyLength))
    return `Refused: the issue body is not text of at most ${OUTPUT_CAPS.maxBodyLength} characters.`;
  const granted = new Set(grant.labels);
  if (
    !Array.isArray(labels) ||
    labels.length > OUTPUT_CAPS.maxLabels ||
    !labels.every((l) => typeof l === "string" && granted.has(l))
  )
    return "Refused: the issue carries labels the owner did not grant.";
  return null;
}

/**
 * What is wrong with one proposal given the grant, or null. `index` is its place among the
 * run's proposals of the same kind (0, 1, ...), in seq order.
 */
export function limitProblem(
  output: { kind: string; payload: unknown },
  index: number,
  outputs: GrantedOutputs,
  config: OutputCheckConfig = {},
): string | null {
  const kind = output.kind as OutputKind;
  const payload = (output.payload ?? {}) as Loose;
  if (kind === "comment" && outputs.comment) {
    if (index >= outputs.comment.max)
      return `Refused: this run may propose at most ${plural(outputs.comment.max, "comment")}.`;
    return commentProblem(payload);
  }
  if (kind === "issue" && outputs.issue) {
    if (index >= outputs.issue.max)
      return `Refused: this run may propose at most ${plural(outputs.issue.max, "issue")}.`;
    return issueProblem(payload, outputs.issue);
  }
  if (kind === "pull_request" && outputs.pull_request) {
    if (index >= 1) return "Refused: a run may propose at most 1 pull request.";
    return pullRequestProblem(payload, outputs.pull_request, config);
  }
  return `Refused: the owner did not grant ${kind} outputs to this job.`;
}

/** The texts of a proposal the secret scan reads. */
export function proposalTexts(output: { kind: string; payload: unknown }): Record<string, string> {
  const payload = (output.payload ?? {}) as Loose;
  const texts: Record<string, string> = {};
  if (typeof payload.title === "string") texts.title = payload.title;
  if (typeof payload.body === "string") texts.body = payload.body;
  return output.kind === "pull_request" ? { ...texts, ...pullRequestTexts(payload) } : texts;
}
