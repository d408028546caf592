// Owner: rename a provider, change its base URL, default model or make it the default.
import { updateModelProvider } from "@secondshift/access";
import { z } from "zod";
import { id, nothing } from "../fields.ts";
import { workspaceProcedure } from "../../trpc.ts";
import { baseUrl, modelName, providerName } from "./fields.ts";

export const update = workspaceProcedure
  .input(
    z.object({
      providerId: id,
      name: providerName.optional(),
      baseUrl: baseUrl.optional(),
      defaultModel: modelName.nullable().optional(),
      isDefault: z.boolean().optional(),
    }),
  )
  .output(nothing)
  .mutation(({ ctx, input }) =>
    updateModelProvider(ctx.workspace, {
      providerId: input.providerId,
      name: input.name,
      baseUrl: input.baseUrl,
      defaultModel: input.defaultModel,
      isDefault: input.isDefault,
    }),
  );
