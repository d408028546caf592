// Which paths a run changed: the worker's index of the sandbox's files against the run commit's
// tree (submodule entries of the base are left as they are). Sorted by path.
import type { CommitTreeEntry } from "@secondshift/repo-sync";
import type { IndexedFile } from "./workspace-index.ts";

export interface Change {
  path: string;
  before: CommitTreeEntry | undefined;
  after: IndexedFile | undefined;
}

export function changedPaths(base: CommitTreeEntry[], after: Map<string, IndexedFile>): Change[] {
  const before = new Map(base.filter((e) => e.mode !== "160000").map((e) => [e.path, e]));
  const changes: Change[] = [];
  for (const [path, entry] of after) {
    const was = before.get(path);
    if (!was || was.sha !== entry.sha || was.mode !== entry.mode)
      changes.push({ path, before: was, after: entry });
  }
  for (const [path, was] of before)
    if (!after.has(path)) changes.push({ path, before: was, after: undefined });
  return changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
