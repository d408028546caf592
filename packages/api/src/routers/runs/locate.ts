// Any signed-in user: the workspace of a run they may see, for links that name only the run.
import { locateRun } from "@secondshift/domain";
import { z } from "zod";
import { id } from "../fields.ts";
import { authedProcedure } from "../../trpc.ts";

export const locate = authedProcedure
  .input(z.object({ runId: id }))
  .output(z.object({ workspaceId: z.string(), runId: z.string() }))
  .query(({ ctx, input }) =>
    locateRun({ db: ctx.db, actor: { userId: ctx.session.userId } }, input),
  );
