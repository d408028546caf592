// The stored proposal read back as the vocabulary's payload; anything else is not applied.
import {
  OUTPUT_CAPS,
  type CommentProposal,
  type IssueProposal,
  type PullRequestFile,
  type PullRequestProposal,
} from "@secondshift/vocabulary";

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

const SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
/** What `pullRequestBranch` makes: `secondshift/` and one segment of safe characters. */
const HEAD_BRANCH = /^secondshift\/[A-Za-z0-9_][A-Za-z0-9._-]{0,200}$/;
const MODES = new Set(["100644", "100755", "120000"]);
const STATUSES = new Set(["added", "modified", "deleted"]);
// eslint-disable-next-line no-control-regex -- control characters are what is refused.
const CONTROL = /[\u0000-\u001f\u007f]/;

/** A branch name git accepts (git check-ref-format's rules), in printable characters. */
function isBranchName(name: unknown): name is string {
  return (
    typeof name === "string" &&
    name !== "" &&
    name.length <= 255 &&
    !CONTROL.test(name) &&
    !/[\s~^:?*[\\]|\.\.|@\{|\/\/|^[-/.]|\/\.|[/.]$|\.lock(?:\/|$)/.test(name) &&
    name !== "@"
  );
}

/** Relative, below the repository's root, never into `.git` (any case), no empty segment. */
function isRepositoryPath(path: unknown): path is string {
  if (typeof path !== "string" || path === "" || path.length > 4096 || CONTROL.test(path))
    return false;
  return path
    .split("/")
    .every(
      (segment) =>
        segment !== "" && segment !== "." && segment !== ".." && segment.toLowerCase() !== ".git",
    );
}

const count = (v: unknown): v is number =>
  typeof v === "number" && Number.isSafeInteger(v) && v >= 0;

function readFile(value: unknown): PullRequestFile | null {
  if (!isObject(value)) return null;
  const { path, status, mode, content, additions, deletions, patch } = value;
  if (!isRepositoryPath(path) || typeof status !== "string" || !STATUSES.has(status)) return null;
  if (!count(additions) || !count(deletions) || typeof patch !== "string") return null;
  const file = { path, status: status as PullRequestFile["status"], additions, deletions, patch };
  if (status === "deleted")
    return mode === null && content === null ? { ...file, mode: null, content: null } : null;
  if (typeof mode !== "string" || !MODES.has(mode) || typeof content !== "string") return null;
  if (Buffer.byteLength(content) > OUTPUT_CAPS.maxPullRequestFileBytes) return null;
  if (mode === "120000" && (content === "" || content.includes("\0"))) return null;
  return { ...file, mode: mode as NonNullable<PullRequestFile["mode"]>, content };
}

function readFiles(value: unknown): PullRequestFile[] | null {
  if (!Array.isArray(value) || value.length === 0) return null;
  if (value.length > OUTPUT_CAPS.maxPullRequestFiles) return null;
  const files: PullRequestFile[] = [];
  const paths = new Set<string>();
  let bytes = 0;
  let lines = 0;
  for (const item of value) {
    const file = readFile(item);
    if (file === null || paths.has(file.path)) return null;
    paths.add(file.path);
    bytes += file.content === null ? 0 : Buffer.byteLength(file.content);
    lines += file.additions + file.deletions;
    files.push(file);
  }
  const withinCaps =
    bytes <= OUTPUT_CAPS.maxPullRequestBytes && lines <= OUTPUT_CAPS.maxPullRequestChangedLines;
  return withinCaps ? files : null;
}

function readLabels(value: unknown): string[] | null {
  if (!Array.isArray(value) || value.length > OUTPUT_CAPS.maxLabels) return null;
  const valid = value.every((l): l is string => typeof l === "string" && l.trim() !== "");
  return valid ? value : null;
}

/**
 * A pull-request proposal, every field checked: the head branch is SecondShift's own
 * (`secondshift/…`) and never the base branch, the base a full commit SHA, each file a path
 * inside the repository whose mode and content agree with its status (deleted: neither).
 */
export function readPullRequest(payload: unknown): PullRequestProposal | null {
  if (!isObject(payload)) return null;
  const { title, body, draft, labels, baseSha, baseBranch, headBranch } = payload;
  if (typeof title !== "string" || title.trim() === "" || typeof body !== "string") return null;
  if (title.length > OUTPUT_CAPS.maxTitleLength || body.length > OUTPUT_CAPS.maxBodyLength)
    return null;
  if (typeof draft !== "boolean" || typeof baseSha !== "string" || !SHA.test(baseSha)) return null;
  if (!isBranchName(baseBranch) || !isBranchName(headBranch) || !HEAD_BRANCH.test(headBranch))
    return null;
  if (headBranch === baseBranch) return null;
  const checkedLabels = readLabels(labels);
  const files = readFiles(payload.files);
  if (checkedLabels === null || files === null) return null;
  return { title, body, draft, labels: checkedLabels, baseSha, baseBranch, headBranch, files };
}
