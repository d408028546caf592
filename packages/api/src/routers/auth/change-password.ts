// Password change: every session ends; this browser gets a fresh one.
import { changePassword as runChangePassword } from "@secondshift/accounts";
import { z } from "zod";
import { authedProcedure } from "../../trpc.ts";
import { newPassword, presentedPassword } from "./fields.ts";
import { sessionClient } from "./session-client.ts";

export const changePasswordInput = z.object({ currentPassword: presentedPassword, newPassword });
export const changePasswordOutput = z.object({ changed: z.literal(true) });

export const changePassword = authedProcedure
  .input(changePasswordInput)
  .output(changePasswordOutput)
  .mutation(async ({ ctx, input }) => {
    const fresh = await runChangePassword(ctx.deps.accounts, {
      userId: ctx.session.userId,
      client: sessionClient(ctx),
      ...input,
    });
    ctx.cookies.set(fresh.token);
    return { changed: true as const };
  });
