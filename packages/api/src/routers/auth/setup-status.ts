// Whether first-run setup is still open, so the UI knows to show /setup instead of sign-in,
// and whether it asks for the one-time setup token the web service printed (never the token).
import { needsSetup } from "@secondshift/accounts";
import { z } from "zod";
import { publicProcedure } from "../../trpc.ts";

export const setupStatusOutput = z.object({ needsSetup: z.boolean(), tokenRequired: z.boolean() });

export const setupStatus = publicProcedure.output(setupStatusOutput).query(async ({ ctx }) => ({
  needsSetup: await needsSetup(ctx.db),
  tokenRequired: ctx.deps.setupToken() !== null,
}));
