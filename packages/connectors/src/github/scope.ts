// [C22] GitHub tools reach only the job's repository. The check runs before any request: a call
// that names another repository (any case-insensitive difference in owner/name), or that
// tries to smuggle a path through owner/repo, is refused with OUT_OF_SCOPE.
import { connectorError, outOfScope } from "../shared/errors.ts";
import type { CallScope } from "../types.ts";

const NAME = /^[A-Za-z0-9_.-]{1,100}$/;

export interface ScopedRepository {
  owner: string;
  name: string;
}

function parseFullName(fullName: string | null): ScopedRepository | null {
  if (!fullName) return null;
  const parts = fullName.split("/");
  if (parts.length !== 2) return null;
  const [owner, name] = parts as [string, string];
  if (
    !NAME.test(owner) ||
    !NAME.test(name) ||
    owner === "." ||
    owner === ".." ||
    name === "." ||
    name === ".."
  )
    return null;
  return { owner, name };
}

/** The repository a call may touch: the scope's, after checking what the arguments name. */
export function resolveRepository(
  args: Record<string, unknown>,
  scope: CallScope,
): ScopedRepository {
  const allowed = parseFullName(scope.repositoryFullName);
  if (!allowed) {
    throw connectorError(
      "OUT_OF_SCOPE",
      "This run has no repository scope, so GitHub tools are not available to it.",
    );
  }
  const owner = args.owner;
  const repo = args.repo;
  for (const [value, what] of [
    [owner, "owner"],
    [repo, "repo"],
  ] as const) {
    if (value === undefined) continue;
    // Compare the raw value: "%2F", "../", "a/b" never equal a valid owner or name.
    if (typeof value !== "string" || !NAME.test(value)) {
      throw outOfScope(
        `GitHub tools may only use the job's repository ${allowed.owner}/${allowed.name}; the ${what} given is not it.`,
      );
    }
  }
  const ownerOk =
    owner === undefined || (owner as string).toLowerCase() === allowed.owner.toLowerCase();
  const repoOk =
    repo === undefined || (repo as string).toLowerCase() === allowed.name.toLowerCase();
  if (!ownerOk || !repoOk) {
    throw outOfScope(
      `GitHub tools may only use the job's repository ${allowed.owner}/${allowed.name}; the call named another one and was refused.`,
    );
  }
  return allowed;
}
