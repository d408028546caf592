// X-GitHub-Event and the JSON body → a Delivery, or "ignored" with a reason. Never throws: a
// payload of the wrong shape is ignored and says which field, so GitHub's delivery log shows it.
import { ShapeError } from "./common.ts";
import { parseIssueComment } from "./issue-comment.ts";
import { parseIssues } from "./issues.ts";
import { parsePullRequest } from "./pull-request.ts";
import { isObject, type Loose } from "./shape.ts";
import type { Delivery, EventName, ParseResult } from "./types.ts";

const PARSERS: Record<EventName, (payload: Loose) => Delivery | string> = {
  pull_request: parsePullRequest,
  issues: parseIssues,
  issue_comment: parseIssueComment,
};

export function parseDelivery(event: EventName, payload: unknown): ParseResult {
  if (!isObject(payload)) return { ok: false, reason: "the body is not a JSON object" };
  try {
    const parsed = PARSERS[event](payload);
    return typeof parsed === "string"
      ? { ok: false, reason: parsed }
      : { ok: true, delivery: parsed };
  } catch (error) {
    if (error instanceof ShapeError) return { ok: false, reason: error.message };
    throw error;
  }
}

/** The body as JSON, or undefined when it is not JSON. */
export function readJson(rawBody: Buffer): unknown {
  try {
    return JSON.parse(rawBody.toString("utf8")) as unknown;
  } catch {
    return undefined;
  }
}
