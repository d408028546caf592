// The signed-in user's own live sessions (ids and times only — never a token or hash).
import { listSessions } from "@secondshift/accounts";
import { z } from "zod";
import { authedProcedure } from "../../trpc.ts";

export const sessionsListOutput = z.array(
  z.object({ id: z.string(), createdAt: z.date(), expiresAt: z.date(), current: z.boolean() }),
);

export const sessionsList = authedProcedure
  .output(sessionsListOutput)
  .query(({ ctx }) => listSessions(ctx.deps.accounts, ctx.session));
