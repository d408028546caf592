// Workspace paths as the caller (the agent loop, on behalf of the model) gives them. The first
// check is lexical here; the second runs inside the container (realpath), where symlinks resolve.
import { posix } from "node:path";
import { AppError } from "@secondshift/errors";
import { WORKSPACE_DIR } from "./types.ts";

export function outsideWorkspace(path: string): AppError {
  return new AppError(
    "FORBIDDEN",
    `The path "${path}" leads outside the workspace; only paths inside ${WORKSPACE_DIR} can be used.`,
    { reason: "SANDBOX_PATH_OUTSIDE_WORKSPACE" },
  );
}

/** Absolute, normalised path inside /workspace, or an AppError for anything that leaves it. */
export function toWorkspacePath(path: string): string {
  if (path.includes("\0")) throw outsideWorkspace(path.replaceAll("\0", "\\0"));
  const joined = posix.isAbsolute(path)
    ? posix.normalize(path)
    : posix.normalize(posix.join(WORKSPACE_DIR, path));
  const trimmed = joined.length > 1 ? joined.replace(/\/+$/, "") : joined;
  if (trimmed !== WORKSPACE_DIR && !trimmed.startsWith(`${WORKSPACE_DIR}/`))
    throw outsideWorkspace(path);
  return trimmed;
}

/** Shell fragment (sourced by every helper exec): resolves $1 inside the container and exits 3
 *  when the real path (symlinks followed) is outside the workspace. */
export const RESOLVE_SH = `
inside() { case "$1/" in ${WORKSPACE_DIR}/*) return 0;; *) return 1;; esac; }
resolve() { r=$(realpath -m -- "$1") || exit 3; inside "$r" || { echo "outside workspace" >&2; exit 3; }; printf %s "$r"; }
`;
