// Every member: the jobs whose grant uses this connection (deleting it revokes those grants).
import { getConnectionImpact } from "@secondshift/access";
import { z } from "zod";
import { id } from "../fields.ts";
import { workspaceProcedure } from "../../trpc.ts";

export const impact = workspaceProcedure
  .input(z.object({ connectionId: id }))
  .output(
    z.object({
      jobs: z.array(
        z.object({
          jobId: z.string(),
          key: z.string(),
          name: z.string(),
          repositoryId: z.string(),
          grantId: z.string(),
        }),
      ),
    }),
  )
  .query(({ ctx, input }) =>
    getConnectionImpact(ctx.workspace, { connectionId: input.connectionId }),
  );
