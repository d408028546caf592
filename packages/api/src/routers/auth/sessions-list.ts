// The signed-in user's own live sessions: times, the browser and address they signed in from
// (never a token or hash).
import { listSessions } from "@secondshift/accounts";
import { z } from "zod";
import { authedProcedure } from "../../trpc.ts";

export const sessionsListOutput = z.array(
  z.object({
    id: z.string(),
    createdAt: z.date(),
    expiresAt: z.date(),
    current: z.boolean(),
    userAgent: z.string().nullable(),
    clientAddress: z.string().nullable(),
  }),
);

export const sessionsList = authedProcedure
  .output(sessionsListOutput)
  .query(({ ctx }) => listSessions(ctx.deps.accounts, ctx.session));
