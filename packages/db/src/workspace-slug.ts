// The one way a Workspace's `slug` is made, for both places that create workspaces: first-run
// setup (@secondshift/accounts) and createWorkspace (@secondshift/domain). Here because both
// already depend on this package and on no common one above it.
import { randomBytes } from "node:crypto";

const MAX_BASE_LENGTH = 40;

/**
 * "Acme Corp" → "acme-corp-3f9a1c": the name in lowercase ASCII letters, digits and hyphens (at
 * most 40 characters; "workspace" when nothing is left), then a random suffix so that two
 * workspaces of the same name never collide on the unique column.
 */
export function workspaceSlug(name: string): string {
  const base = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, MAX_BASE_LENGTH);
  return `${base || "workspace"}-${randomBytes(3).toString("hex")}`;
}
