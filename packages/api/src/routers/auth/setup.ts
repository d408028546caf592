// First-run setup: the first user, a workspace and its owner membership; signs the user in.
import { setup as runSetup } from "@secondshift/accounts";
import { z } from "zod";
import { rateLimitedProcedure } from "../../trpc.ts";
import { sessionClient } from "./session-client.ts";
import { email, newPassword, personName } from "./fields.ts";

export const setupInput = z.object({
  email,
  name: personName,
  password: newPassword,
  workspaceName: z.string().trim().min(1, { error: "Name the workspace." }).max(100),
  setupToken: z.string().max(200).optional(),
});
export const setupOutput = z.object({ userId: z.string(), workspaceId: z.string() });

export const setup = rateLimitedProcedure
  .input(setupInput)
  .output(setupOutput)
  .mutation(async ({ ctx, input }) => {
    const result = await runSetup(
      ctx.deps.accounts,
      { ...input, client: sessionClient(ctx) },
      {
        expectedSetupToken: ctx.deps.setupToken(),
      },
    );
    ctx.cookies.set(result.token);
    return { userId: result.userId, workspaceId: result.workspaceId };
  });
