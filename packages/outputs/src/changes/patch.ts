// The owner's view of one changed file: a unified diff (jsdiff) and its added and removed line
// counts, the counts the changed-lines limit adds up. A diff that takes too long (a huge file
// rewritten) is not shown; it then counts every old line removed and every new line added.
import { formatPatch, structuredPatch } from "diff";

export interface FilePatch {
  patch: string;
  additions: number;
  deletions: number;
}

const DIFF_TIMEOUT_MS = 2_000;

const lineCount = (text: string): number =>
  text === "" ? 0 : text.split("\n").length - (text.endsWith("\n") ? 1 : 0);

export function filePatch(path: string, before: string | null, after: string | null): FilePatch {
  const oldText = before ?? "";
  const newText = after ?? "";
  const structured = structuredPatch(
    before === null ? "/dev/null" : `a/${path}`,
    after === null ? "/dev/null" : `b/${path}`,
    oldText,
    newText,
    undefined,
    undefined,
    { context: 3, timeout: DIFF_TIMEOUT_MS },
  );
  if (structured === undefined)
    return {
      patch: `(${path}: too large a change to show here)`,
      additions: lineCount(newText),
      deletions: lineCount(oldText),
    };
  let additions = 0;
  let deletions = 0;
  for (const hunk of structured.hunks)
    for (const line of hunk.lines) {
      if (line.startsWith("+")) additions += 1;
      else if (line.startsWith("-")) deletions += 1;
    }
  return { patch: formatPatch(structured), additions, deletions };
}
