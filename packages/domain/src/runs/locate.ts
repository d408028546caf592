// Which workspace a run belongs to, for links that name only the run (`/runs/<id>`, the form
// webhook reports carried before they named the workspace). Not workspace-scoped: the caller has
// only the run id. A run of a workspace the user is not a member of is not found, exactly as a
// run that does not exist, so the answer never tells a stranger that the id is real.
import { AppError } from "@secondshift/errors";
import type { UserContext } from "../workspaces/create.ts";

export async function locateRun(
  ctx: UserContext,
  input: { runId: string },
): Promise<{ workspaceId: string; runId: string }> {
  const run = await ctx.db.run.findFirst({
    where: {
      id: input.runId,
      workspace: { memberships: { some: { userId: ctx.actor.userId } } },
    },
    select: { id: true, workspaceId: true },
  });
  if (!run) {
    throw new AppError("NOT_FOUND", "Run was not found in any of your workspaces.", {
      reason: "RUN_NOT_FOUND",
    });
  }
  return { workspaceId: run.workspaceId, runId: run.id };
}
