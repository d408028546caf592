// Every member: who is in the workspace, with which role.
import { listMembers } from "@secondshift/domain";
import { z } from "zod";
import { role } from "../fields.ts";
import { workspaceProcedure } from "../../trpc.ts";

export const list = workspaceProcedure
  .output(
    z.array(
      z.object({
        userId: z.string(),
        name: z.string(),
        email: z.string(),
        role,
        since: z.date(),
      }),
    ),
  )
  .query(({ ctx }) => listMembers(ctx.workspace, {}));
