// A signed-in user creates a workspace and becomes its owner, if the operator's policy
// (SECONDSHIFT_WORKSPACE_CREATION, passed in the API options) allows them.
import { createWorkspace } from "@secondshift/domain";
import { z } from "zod";
import { authedProcedure } from "../../trpc.ts";

export const create = authedProcedure
  .input(z.object({ name: z.string().trim().min(1, { error: "Name the workspace." }).max(100) }))
  .output(z.object({ id: z.string(), slug: z.string(), name: z.string() }))
  .mutation(({ ctx, input }) =>
    createWorkspace(
      { db: ctx.db, actor: { userId: ctx.session.userId } },
      { name: input.name, policy: ctx.deps.workspaceCreation },
    ),
  );
