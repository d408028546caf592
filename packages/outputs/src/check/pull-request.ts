// The finalize checks of a proposed pull request (O02 limits, O04 protected paths), on the
// payload attachPullRequestChanges stored: what the worker collected, never what the model
// said. A refusal names the rule; a protected path — SecondShift's own or one the owner listed
// in the grant — holds the pull request for an owner even when the owner chose "apply
// automatically". GitHub Actions workflows are refused unless the operator allows them
// (OUTPUTS_ALLOW_WORKFLOW_CHANGES); even then they are held (.github/ is always protected).
import { OUTPUT_CAPS, type GrantedOutputs, type PullRequestFile } from "@secondshift/vocabulary";

type Loose = Record<string, unknown>;
type Grant = NonNullable<GrantedOutputs["pull_request"]>;

/** The operator's settings the finalize checks take (the worker parses them at its entry). */
export interface OutputCheckConfig {
  /** OUTPUTS_ALLOW_WORKFLOW_CHANGES: a pull request may change `.github/workflows/` (held). */
  allowWorkflowChanges?: boolean;
}

export const WORKFLOWS = ".github/workflows/";

/** Whether a path is a GitHub Actions workflow (apply then needs the workflows permission). */
export const isWorkflowPath = (path: string): boolean => path.startsWith(WORKFLOWS);
/** Paths never applied without an owner's approval (O04). */
const PROTECTED = [
  (p: string) => p === ".secondshift.yaml" || p === ".secondshift.yml",
  (p: string) => p.startsWith(".github/"),
];

const filesOf = (payload: Loose): PullRequestFile[] | null =>
  Array.isArray(payload.files) ? (payload.files as PullRequestFile[]) : null;

export function pullRequestProblem(
  payload: Loose,
  grant: Grant,
  config: OutputCheckConfig = {},
): string | null {
  if (typeof payload.problem === "string") return `Refused: ${payload.problem}.`;
  const files = filesOf(payload);
  if (files === null)
    return "Refused: the run's changes were not collected (the run ended before its files could be compared with its commit).";
  if (typeof payload.title !== "string" || payload.title.length > OUTPUT_CAPS.maxTitleLength)
    return `Refused: the pull request title must be text of at most ${OUTPUT_CAPS.maxTitleLength} characters.`;
  if (typeof payload.body !== "string" || payload.body.length > OUTPUT_CAPS.maxBodyLength)
    return `Refused: the pull request body must be text of at most ${OUTPUT_CAPS.maxBodyLength} characters.`;
  if (typeof payload.headBranch !== "string" || !payload.headBranch.startsWith("secondshift/"))
    return "Refused: the pull request's branch is not one SecondShift creates.";
  if (payload.headBranch === payload.baseBranch)
    return "Refused: a pull request is never written to its base branch.";
  if (files.length === 0)
    return "Refused: the run changed no files, so there is nothing to propose.";
  if (files.length > grant.maxFiles)
    return `Refused: the pull request changes ${files.length} files; the owner allows at most ${grant.maxFiles}.`;
  const lines = files.reduce((sum, f) => sum + f.additions + f.deletions, 0);
  if (lines > grant.maxChangedLines)
    return `Refused: the pull request changes ${lines} lines; the owner allows at most ${grant.maxChangedLines}.`;
  const workflow = files.find((f) => isWorkflowPath(f.path));
  if (workflow && !config.allowWorkflowChanges)
    return `Refused: "${workflow.path}" is a GitHub Actions workflow; this installation does not let runs change workflows (the operator's OUTPUTS_ALLOW_WORKFLOW_CHANGES), so workflows are changed by people only.`;
  return null;
}

/** An owner's entry: "migrations/" or "migrations" covers the folder, "db/schema.sql" the file. */
export function ownerPathCovers(entry: string, path: string): boolean {
  const folder = entry.endsWith("/") ? entry : `${entry}/`;
  return path === entry || path.startsWith(folder);
}

/**
 * Why a pull request must wait for an owner whatever the mode, or null: SecondShift's own
 * protected paths first, then the ones the owner listed in the grant (`ownerPaths`).
 */
export function protectedPathHold(
  payload: Loose,
  ownerPaths: readonly string[] = [],
): string | null {
  const files = filesOf(payload) ?? [];
  const hit = files.find((f) => PROTECTED.some((rule) => rule(f.path)));
  if (hit)
    return `Held: the pull request changes "${hit.path}", which is never applied without an owner's approval.`;
  for (const file of files) {
    const entry = ownerPaths.find((e) => ownerPathCovers(e, file.path));
    if (entry !== undefined)
      return `Held: the pull request changes "${file.path}", which the owner listed as needing approval.`;
  }
  return null;
}

/** The texts of a pull request the secret scan reads: title, body and every new content. */
export function pullRequestTexts(payload: Loose): Record<string, string> {
  const texts: Record<string, string> = {};
  for (const file of filesOf(payload) ?? [])
    if (typeof file.content === "string") texts[`file "${file.path}"`] = file.content;
  return texts;
}
