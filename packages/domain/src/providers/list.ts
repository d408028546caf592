// Model providers as every member may see them. The key is decrypted only by the gateway
// (C24): the select is explicit and never reads its ciphertext.
import type { ProviderKind } from "@secondshift/db";
import { requireRole, type ActorContext } from "../context.ts";
import { addressProblem } from "../urls.ts";

export interface ModelProviderSummary {
  id: string;
  name: string;
  kind: ProviderKind;
  baseUrl: string;
  defaultModel: string | null;
  /** Empty: any model the provider serves. */
  allowedModels: string[];
  isDefault: boolean;
  /** The last successful check of the stored key (verifyModelProvider), or null. */
  verifiedAt: Date | null;
  /** When the key was set or last replaced; the key itself is never read here. */
  keyUpdatedAt: Date;
  /** What the outbound policy refuses about the base URL today (rows saved before the save check). */
  addressProblem: string | null;
}

export async function listModelProviders(
  ctx: ActorContext,
  _input: Record<string, never>,
): Promise<ModelProviderSummary[]> {
  await requireRole(ctx, "read");
  const rows = await ctx.db.modelProvider.findMany({
    where: { workspaceId: ctx.workspaceId },
    select: {
      id: true,
      name: true,
      kind: true,
      baseUrl: true,
      defaultModel: true,
      allowedModels: true,
      isDefault: true,
      verifiedAt: true,
      apiKeyUpdatedAt: true,
    },
    orderBy: { name: "asc" },
  });
  return rows.map(({ apiKeyUpdatedAt, ...row }) => ({
    ...row,
    keyUpdatedAt: apiKeyUpdatedAt,
    addressProblem: addressProblem(ctx, row.baseUrl, "The base URL"),
  }));
}
