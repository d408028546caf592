// Owner or admin: queue a sync of one repository (C02).
import { syncRepositoryNow } from "@secondshift/domain";
import { z } from "zod";
import { id, nothing } from "../fields.ts";
import { workspaceProcedure } from "../../trpc.ts";

export const syncNow = workspaceProcedure
  .input(z.object({ repositoryId: id }))
  .output(nothing)
  .mutation(({ ctx, input }) => syncRepositoryNow(ctx.workspace, input));
