// Owner: add a model provider. The key is write-only (C24): encrypted bound to the row, never
// returned.
import { createModelProvider } from "@secondshift/domain";
import { z } from "zod";
import { providerKind } from "../fields.ts";
import { workspaceProcedure } from "../../trpc.ts";
import { allowedModels, apiKey, baseUrl, modelName, providerName } from "./fields.ts";

export const create = workspaceProcedure
  .input(
    z.object({
      name: providerName,
      kind: providerKind,
      baseUrl,
      apiKey,
      defaultModel: modelName.nullable().optional(),
      allowedModels: allowedModels.optional(),
      isDefault: z.boolean().optional(),
    }),
  )
  .output(z.object({ id: z.string() }))
  .mutation(({ ctx, input }) =>
    createModelProvider(ctx.workspace, {
      name: input.name,
      kind: input.kind,
      baseUrl: input.baseUrl,
      apiKey: input.apiKey,
      defaultModel: input.defaultModel ?? null,
      allowedModels: input.allowedModels ?? [],
      isDefault: input.isDefault ?? false,
    }),
  );
