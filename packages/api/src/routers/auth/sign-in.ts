// Sign-in: a fresh session cookie every time; a session the browser already had is ended.
import { signIn as runSignIn, signOut } from "@secondshift/accounts";
import { z } from "zod";
import { rateLimitedProcedure } from "../../trpc.ts";
import { email, presentedPassword } from "./fields.ts";

export const signInInput = z.object({ email, password: presentedPassword });
export const signInOutput = z.object({ userId: z.string() });

export const signIn = rateLimitedProcedure
  .input(signInInput)
  .output(signInOutput)
  .mutation(async ({ ctx, input }) => {
    const signed = await runSignIn(ctx.deps.accounts, {
      ...input,
      clientAddress: ctx.request.clientAddress,
      userAgent: ctx.request.userAgent,
    });
    await signOut(ctx.deps.accounts, ctx.sessionToken);
    ctx.cookies.set(signed.token);
    return { userId: signed.userId };
  });
