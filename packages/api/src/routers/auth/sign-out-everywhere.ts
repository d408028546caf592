// Ends every session of the signed-in user, on every device, this one included.
import { signOutEverywhere as runSignOutEverywhere } from "@secondshift/accounts";
import { z } from "zod";
import { authedProcedure } from "../../trpc.ts";

export const signOutEverywhereOutput = z.object({ ended: z.number().int() });

export const signOutEverywhere = authedProcedure
  .output(signOutEverywhereOutput)
  .mutation(async ({ ctx }) => {
    const ended = await runSignOutEverywhere(ctx.deps.accounts, ctx.session.userId);
    ctx.cookies.clear();
    return { ended };
  });
