// Every member: model providers; the key is never read here (C24).
import { listModelProviders } from "@secondshift/domain";
import { z } from "zod";
import { providerKind } from "../fields.ts";
import { workspaceProcedure } from "../../trpc.ts";

export const providerSummary = z.object({
  id: z.string(),
  name: z.string(),
  kind: providerKind,
  baseUrl: z.string(),
  defaultModel: z.string().nullable(),
  allowedModels: z.array(z.string()),
  isDefault: z.boolean(),
  verifiedAt: z.date().nullable(),
  keyUpdatedAt: z.date(),
  addressProblem: z.string().nullable(),
});

export const list = workspaceProcedure
  .output(z.array(providerSummary))
  .query(({ ctx }) => listModelProviders(ctx.workspace, {}));
