// Owner: check the stored key with one cheap call to the provider (list models), through
// netguard. Answers ok with the models the key can see, or a clear reason; never the key.
import { verifyModelProvider } from "@secondshift/domain";
import { z } from "zod";
import { id } from "../fields.ts";
import { workspaceProcedure } from "../../trpc.ts";

export const verify = workspaceProcedure
  .input(z.object({ providerId: id }))
  .output(
    z.discriminatedUnion("ok", [
      z.object({ ok: z.literal(true), verifiedAt: z.date(), models: z.array(z.string()) }),
      z.object({
        ok: z.literal(false),
        reason: z.enum([
          "KEY_REFUSED",
          "UNREACHABLE",
          "ADDRESS_REFUSED",
          "NOT_A_PROVIDER",
          "PROVIDER_ERROR",
        ]),
        message: z.string(),
      }),
    ]),
  )
  .mutation(({ ctx, input }) =>
    verifyModelProvider(ctx.workspace, { providerId: input.providerId }),
  );
