// A job's requested outputs (Job.requestedOutputs, written by repository sync from the parsed
// file) and a grant's outputs (Grant.outputs, written by approveJob) read back in one canonical
// form: fixed key order, so JSON.stringify of it is canonical for the request hash. Anything
// not of the vocabulary's shape is dropped: a stored value never grants more than it says.
import {
  COMMENT_TARGETS,
  OUTPUT_KINDS,
  OUTPUT_MODES,
  type GrantedOutputs,
  type OutputMode,
  type RequestedCommentOutput,
  type RequestedIssueOutput,
  type RequestedOutputs,
  type RequestedPullRequestOutput,
} from "@secondshift/vocabulary";
import { readProtectedPaths } from "./protected-paths.ts";
import { isObject, type Loose } from "../stored-json.ts";

const count = (v: unknown): number | null =>
  typeof v === "number" && Number.isInteger(v) && v >= 1 ? v : null;
const labels = (v: unknown): string[] =>
  Array.isArray(v) ? [...new Set(v.filter((l): l is string => typeof l === "string"))].sort() : [];

function comment(v: unknown): RequestedCommentOutput | undefined {
  if (!isObject(v)) return undefined;
  const max = count(v.max);
  const target = COMMENT_TARGETS.find((t) => t === v.target);
  return max && target ? { max, target } : undefined;
}

function issue(v: unknown): RequestedIssueOutput | undefined {
  if (!isObject(v)) return undefined;
  const max = count(v.max);
  const titlePrefix = typeof v.titlePrefix === "string" ? v.titlePrefix : "";
  return max ? { max, titlePrefix, labels: labels(v.labels) } : undefined;
}

function pullRequest(v: unknown): RequestedPullRequestOutput | undefined {
  if (!isObject(v)) return undefined;
  const maxFiles = count(v.maxFiles);
  const maxChangedLines = count(v.maxChangedLines);
  if (!maxFiles || !maxChangedLines) return undefined;
  return { draft: v.draft !== false, labels: labels(v.labels), maxFiles, maxChangedLines };
}

function mode(v: unknown): OutputMode | undefined {
  return isObject(v) ? OUTPUT_MODES.find((m) => m === v.mode) : undefined;
}

export function readRequestedOutputs(value: unknown): RequestedOutputs {
  if (!isObject(value)) return {};
  const out: RequestedOutputs = {};
  const c = comment(value.comment);
  if (c) out.comment = c;
  const i = issue(value.issue);
  if (i) out.issue = i;
  const p = pullRequest(value.pull_request);
  if (p) out.pull_request = p;
  // Last and only when true with some kind requested: a request without it hashes as before.
  if (value.threatReview === true && hasOutputs(out)) out.threatReview = true;
  return out;
}

/** A kind without a valid mode is not granted. */
export function readGrantedOutputs(value: unknown): GrantedOutputs {
  if (!isObject(value)) return {};
  const requested = readRequestedOutputs(value);
  const out: GrantedOutputs = {};
  const m = (kind: keyof RequestedOutputs) => mode(value[kind]);
  const commentMode = m("comment");
  if (requested.comment && commentMode) out.comment = { ...requested.comment, mode: commentMode };
  const issueMode = m("issue");
  if (requested.issue && issueMode) out.issue = { ...requested.issue, mode: issueMode };
  const prMode = m("pull_request");
  if (requested.pull_request && prMode) {
    out.pull_request = { ...requested.pull_request, mode: prMode };
    const paths = readProtectedPaths((value.pull_request as Loose).protectedPaths);
    if (paths.length > 0) out.pull_request.protectedPaths = paths;
  }
  if (requested.threatReview && hasOutputs(out)) out.threatReview = true;
  return out;
}

/** Whether any output kind is requested (or granted); `threatReview` alone is no request. */
export function hasOutputs(outputs: RequestedOutputs): boolean {
  return OUTPUT_KINDS.some((kind) => outputs[kind] !== undefined);
}
