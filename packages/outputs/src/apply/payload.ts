// The stored proposal read back as the vocabulary's payload; anything else is not applied.
import type { CommentProposal, IssueProposal } from "@secondshift/vocabulary";

type Loose = Record<string, unknown>;
const isObject = (v: unknown): v is Loose =>
  typeof v === "object" && v !== null && !Array.isArray(v);

export function readComment(payload: unknown): CommentProposal | null {
  if (!isObject(payload)) return null;
  const { number, body } = payload;
  if (typeof number !== "number" || !Number.isSafeInteger(number) || number < 1) return null;
  return typeof body === "string" && body !== "" ? { number, body } : null;
}

export function readIssue(payload: unknown): IssueProposal | null {
  if (!isObject(payload)) return null;
  const { title, body, labels } = payload;
  if (typeof title !== "string" || title === "" || typeof body !== "string") return null;
  if (!Array.isArray(labels) || !labels.every((l): l is string => typeof l === "string"))
    return null;
  return { title, body, labels };
}
