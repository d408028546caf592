// The access review's words about a granted output kind's access (issue #24 items 1 and 3):
// what the repository's GitHub App installation lacks for it (read from GitHub by the review,
// when it could be), and the owner's protected paths for a pull request, one per line.

export interface PermissionFacts {
  available: boolean;
  permissionsChecked: boolean;
  permissionsReason: string | null;
}

export interface PermissionNote {
  tone: "warn" | "ok" | "plain";
  text: string;
}

/** One kind's permission line: what it lacks (warning), that it has them, or what it needs. */
export function permissionNote(
  facts: PermissionFacts,
  needed: readonly string[],
  missing: readonly string[] | undefined,
): PermissionNote {
  if (facts.permissionsChecked && missing && missing.length > 0)
    return {
      tone: "warn",
      text: `The GitHub App lacks: ${missing.join(", ")} — ask the GitHub organisation owner to grant it.`,
    };
  if (facts.permissionsChecked && missing)
    return { tone: "ok", text: "The GitHub App has the permissions needed." };
  const needs = `The GitHub App needs ${needed.join(", ")}.`;
  // Without a GitHub App the section's own notice says why; otherwise why it was not checked.
  return {
    tone: "plain",
    text:
      facts.available && facts.permissionsReason ? `${needs} ${facts.permissionsReason}` : needs,
  };
}

/** The textarea's lines as the approval sends them: trimmed, no empty lines, no duplicates. */
export function parseProtectedPaths(text: string): string[] {
  return [...new Set(text.split("\n").map((line) => line.trim()))].filter((line) => line !== "");
}

/** "migrations/ and db/schema.sql" for the sentences that name them. */
export function pathsInWords(paths: readonly string[]): string {
  const quoted = paths.map((p) => `"${p}"`);
  return quoted.length <= 1
    ? (quoted[0] ?? "")
    : `${quoted.slice(0, -1).join(", ")} and ${quoted[quoted.length - 1]}`;
}
