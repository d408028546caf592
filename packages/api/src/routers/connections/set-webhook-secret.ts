// Owner: set or rotate a GitHub App connection's webhook secret. The secret and the URL to paste
// into the App's settings are in this response only.
import { setConnectionWebhookSecret } from "@secondshift/domain";
import { z } from "zod";
import { id } from "../fields.ts";
import { workspaceProcedure } from "../../trpc.ts";

export const setWebhookSecret = workspaceProcedure
  .input(z.object({ connectionId: id }))
  .output(z.object({ connectionId: z.string(), webhookUrl: z.string(), webhookSecret: z.string() }))
  .mutation(async ({ ctx, input }) => {
    const set = await setConnectionWebhookSecret(ctx.workspace, {
      connectionId: input.connectionId,
    });
    return {
      connectionId: set.connectionId,
      webhookUrl: new URL(set.webhookPath, ctx.deps.publicUrl).toString(),
      webhookSecret: set.webhookSecret,
    };
  });
