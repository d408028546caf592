// Owner: rename a provider, change its base URL, default and allowed models, or make it the
// default.
import { updateModelProvider } from "@secondshift/domain";
import { z } from "zod";
import { id, nothing } from "../fields.ts";
import { workspaceProcedure } from "../../trpc.ts";
import { allowedModels, baseUrl, modelName, providerName } from "./fields.ts";

export const update = workspaceProcedure
  .input(
    z.object({
      providerId: id,
      name: providerName.optional(),
      baseUrl: baseUrl.optional(),
      defaultModel: modelName.nullable().optional(),
      allowedModels: allowedModels.optional(),
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
      allowedModels: input.allowedModels,
      isDefault: input.isDefault,
    }),
  );
