// Sign-out: ends this session on the server (a copied cookie stops working) and clears it.
import { signOut as runSignOut } from "@secondshift/accounts";
import { z } from "zod";
import { publicProcedure } from "../../trpc.ts";

export const signOutOutput = z.object({ signedOut: z.literal(true) });

export const signOut = publicProcedure.output(signOutOutput).mutation(async ({ ctx }) => {
  await runSignOut(ctx.deps.accounts, ctx.sessionToken);
  ctx.cookies.clear();
  return { signedOut: true as const };
});
