// The signed-in user and their workspaces.
import { getMe } from "@secondshift/accounts";
import { z } from "zod";
import { authedProcedure } from "../../trpc.ts";
import { role } from "./fields.ts";

export const meOutput = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  workspaces: z.array(z.object({ id: z.string(), slug: z.string(), name: z.string(), role })),
});

export const me = authedProcedure
  .output(meOutput)
  .query(({ ctx }) => getMe(ctx.deps.accounts, ctx.session.userId));
