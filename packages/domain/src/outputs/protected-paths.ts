// The owner's own protected paths for a pull-request grant (O04): besides the paths SecondShift
// always holds (.secondshift.yaml, .github/), a pull request touching one of these waits for an
// owner even in "apply automatically". Each is a repository-relative path: "migrations/" (or
// "migrations") holds everything under that folder, "db/schema.sql" that one file.

export const PROTECTED_PATH_LIMITS = { maxPaths: 20, maxLength: 200 } as const;

/** What is wrong with one entry (already trimmed), or null. */
export function protectedPathProblem(path: string): string | null {
  if (path === "") return "is empty";
  if (path.length > PROTECTED_PATH_LIMITS.maxLength)
    return `is longer than ${PROTECTED_PATH_LIMITS.maxLength} characters`;
  if (path.startsWith("/")) return "must be relative to the repository (no leading /)";
  // eslint-disable-next-line no-control-regex -- control characters are what is refused here.
  if (/[\u0000-\u001f\u007f\\]/.test(path)) return "contains a backslash or a control character";
  const segments = path.replace(/\/$/, "").split("/");
  if (segments.some((s) => s === ".." || s === ".")) return 'must not contain "." or ".." segments';
  if (segments.some((s) => s === "")) return "contains an empty segment (//)";
  return null;
}

/** The stored list: valid entries only, without duplicates, in the owner's order. */
export function readProtectedPaths(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  const paths = value.filter(
    (p): p is string => typeof p === "string" && protectedPathProblem(p) === null,
  );
  return [...new Set(paths)].slice(0, PROTECTED_PATH_LIMITS.maxPaths);
}
