// Every member: the jobs whose grant uses this connection (deleting it revokes those grants).
import { getConnectionImpact } from "@secondshift/domain";
import { z } from "zod";
import { id } from "../fields.ts";
import { workspaceProcedure } from "../../trpc.ts";
import { affectedJob } from "./fields.ts";

export const impact = workspaceProcedure
  .input(z.object({ connectionId: id }))
  .output(z.object({ jobs: z.array(affectedJob) }))
  .query(({ ctx, input }) =>
    getConnectionImpact(ctx.workspace, { connectionId: input.connectionId }),
  );
