// Pages that need a signed-in user: the user (and their workspaces), or a redirect to sign-in.
import "server-only";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { safeNextPath, signInPath } from "../components/auth/next-path.ts";
import { PAGE_PATH_HEADER } from "../security-headers.ts";
import { caller, trpcCode } from "./server.tsx";

/**
 * `returnTo`: the page sign-in sends the user back to (a path on this site); by default the page
 * being rendered, as the proxy recorded it.
 */
export async function requireUser(returnTo?: string) {
  const api = await caller();
  try {
    return await api.auth.me();
  } catch (error) {
    if (trpcCode(error) !== "UNAUTHORIZED") throw error;
    const back = safeNextPath(returnTo ?? (await headers()).get(PAGE_PATH_HEADER));
    redirect(back && back !== "/" ? signInPath(back) : "/sign-in");
  }
}

/** The signed-in user, or null (pages for signed-out visitors). */
export async function currentUser() {
  const api = await caller();
  try {
    return await api.auth.me();
  } catch (error) {
    if (trpcCode(error) === "UNAUTHORIZED") return null;
    throw error;
  }
}

/** The signed-in user and their role in the workspace (the layout already checked membership). */
export async function requireMembership(workspaceId: string) {
  const user = await requireUser();
  const membership = user.workspaces.find((w) => w.id === workspaceId);
  if (!membership) redirect("/");
  return { user, role: membership.role };
}
