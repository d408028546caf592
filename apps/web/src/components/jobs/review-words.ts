// The access review in plain words, for an owner who is not a developer.
import { KIND_WORDS } from "../connections/words.ts";

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
