// Owner: add a repository (optionally through a connection of this workspace). The push webhook
// URL and secret are in this response only; the first sync is queued.
import { addRepository } from "@secondshift/domain";
import { z } from "zod";
import { id } from "../fields.ts";
import { workspaceProcedure } from "../../trpc.ts";

export const add = workspaceProcedure
  .input(
    z.object({
      cloneUrl: z.string().max(2000),
      defaultBranch: z.string().trim().min(1).max(250).optional(),
      connectionId: id.nullable().optional(),
    }),
  )
  .output(
    z.object({ id: z.string(), fullName: z.string(), pushUrl: z.string(), pushSecret: z.string() }),
  )
  .mutation(async ({ ctx, input }) => {
    const added = await addRepository(ctx.workspace, {
      cloneUrl: input.cloneUrl,
      defaultBranch: input.defaultBranch,
      connectionId: input.connectionId ?? null,
    });
    const pushUrl = new URL(added.pushPath, ctx.deps.publicUrl).toString();
    return { id: added.id, fullName: added.fullName, pushUrl, pushSecret: added.pushSecret };
  });
