// The access review in plain words, for an owner who is not a developer.
import { KIND_WORDS } from "../connections/words.ts";
import { pathsInWords } from "./output-access-words.ts";

export type GroupKind = keyof typeof KIND_WORDS;

/** "create_issue" → "create issue": tool names read as words. */
export function toolWords(name: string): string {
  return name.replace(/[_-]+/g, " ").trim();
}

/** What the group asks for, named for a person: `GitHub`, `MCP server "docs"`. */
export function groupTitle(group: { kind: GroupKind; label: string | null }): string {
  const kind = KIND_WORDS[group.kind];
  return group.label ? `${kind} "${group.label}"` : kind;
}

export function listInWords(items: readonly string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

/** "This job may change data in GitHub: create issue and merge pull request." */
export function accessSentences(
  where: string,
  tools: ReadonlyArray<{ name: string; mayChangeData: boolean }>,
): string[] {
  const changing = tools.filter((t) => t.mayChangeData).map((t) => toolWords(t.name));
  const reading = tools.filter((t) => !t.mayChangeData).map((t) => toolWords(t.name));
  const out: string[] = [];
  if (changing.length > 0)
    out.push(`This job may change data in ${where}: ${listInWords(changing)}.`);
  if (reading.length > 0) out.push(`It may read from ${where}: ${listInWords(reading)}.`);
  if (out.length === 0) out.push(`This job would get no tool in ${where}.`);
  return out;
}

export interface GroupChange {
  kind: GroupKind;
  label: string | null;
  change: "added" | "removed" | "changed" | "unchanged";
  previousConnection: { label: string } | null;
  connection: { label: string } | null;
  bindingChanged: boolean;
  added: ReadonlyArray<{ name: string; mayChangeData: boolean }>;
  removed: ReadonlyArray<{ name: string; mayChangeData: boolean }>;
  unchanged: readonly string[];
}

const marked = (tools: ReadonlyArray<{ name: string; mayChangeData: boolean }>) =>
  listInWords(
    tools.map((t) => `${toolWords(t.name)}${t.mayChangeData ? " (may change data)" : ""}`),
  );

/**
 * One group's difference from the last approval (what that approval granted), a sentence per
 * kind of change:
 * `New since the last approval: MCP server "docs" — create issue (may change data).`
 */
export function changeSentences(change: GroupChange, sameRequest = false): string[] {
  const title = groupTitle(change);
  const out: string[] = [];
  // Same request: what was not granted then is what the owner left out, not something new.
  const addedHeading = sameRequest
    ? "Requested but not granted then"
    : "New since the last approval";
  if (change.added.length > 0) out.push(`${addedHeading}: ${title} — ${marked(change.added)}.`);
  if (change.removed.length > 0)
    out.push(`No longer requested: ${title} — ${marked(change.removed)}.`);
  // A group the last approval left unbound granted nothing, but it is gone all the same.
  else if (change.change === "removed") out.push(`No longer requested: ${title}.`);
  if (change.bindingChanged && change.previousConnection && change.connection)
    out.push(
      `Connection changed: ${title} was approved on "${change.previousConnection.label}" and is now bound to "${change.connection.label}".`,
    );
  if (change.unchanged.length > 0)
    out.push(`Unchanged: ${title} — ${listInWords(change.unchanged.map(toolWords))}.`);
  return out;
}

/** What an approval grants of the job's requested outputs, one sentence per kind. */
export function outputSentences(choice: {
  comment?: { mode: "hold" | "auto"; max: number };
  issue?: { mode: "hold" | "auto"; max: number };
  pull_request?: {
    mode: "hold" | "auto";
    maxFiles: number;
    maxChangedLines: number;
    protectedPaths?: string[];
  };
}): string[] {
  const how = (mode: "hold" | "auto") =>
    mode === "auto" ? "applied automatically" : "held for your approval";
  const sentences: string[] = [];
  const { comment, issue, pull_request: pr } = choice;
  if (pr)
    sentences.push(
      `Pull requests: one per run, at most ${pr.maxFiles} files and ${pr.maxChangedLines} changed lines, ${how(pr.mode)}.`,
    );
  if (pr?.protectedPaths?.length)
    sentences.push(
      `A pull request changing ${pathsInWords(pr.protectedPaths)} always waits for your approval.`,
    );
  if (comment) sentences.push(`Comments: at most ${comment.max} per run, ${how(comment.mode)}.`);
  if (issue) sentences.push(`New issues: at most ${issue.max} per run, ${how(issue.mode)}.`);
  return sentences;
}
