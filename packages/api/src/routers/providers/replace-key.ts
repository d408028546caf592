// Owner: replace a provider's key (the old one is overwritten; neither is ever shown).
import { replaceModelProviderKey } from "@secondshift/domain";
import { z } from "zod";
import { id, nothing } from "../fields.ts";
import { workspaceProcedure } from "../../trpc.ts";
import { apiKey } from "./fields.ts";

export const replaceKey = workspaceProcedure
  .input(z.object({ providerId: id, apiKey }))
  .output(nothing)
  .mutation(({ ctx, input }) =>
    replaceModelProviderKey(ctx.workspace, { providerId: input.providerId, apiKey: input.apiKey }),
  );
