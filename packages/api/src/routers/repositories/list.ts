// Every member: repositories with their last sync, commit and config errors.
import { listRepositories } from "@secondshift/domain";
import { repoConfigErrorSchema } from "@secondshift/vocabulary";
import { z } from "zod";
import { workspaceProcedure } from "../../trpc.ts";

export const list = workspaceProcedure
  .output(
    z.array(
      z.object({
        id: z.string(),
        fullName: z.string(),
        defaultBranch: z.string(),
        lastSyncedAt: z.date().nullable(),
        lastSyncedCommit: z.string().nullable(),
        syncError: z.string().nullable(),
        syncPending: z.boolean(),
        configErrors: z.array(repoConfigErrorSchema),
        addressProblem: z.string().nullable(),
      }),
    ),
  )
  .query(({ ctx }) => listRepositories(ctx.workspace, {}));
