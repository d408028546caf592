// Owner: model providers. The API key is write-only: encrypted bound to its row and field
// before insert (P06), replaced but never returned (C24: only the gateway decrypts it).
import { randomUUID } from "node:crypto";
import { encryptField, type Keyring } from "@secondshift/crypto";
import type { ProviderKind } from "@secondshift/db";
import { AppError } from "@secondshift/errors";
import type { AuditAction } from "@secondshift/vocabulary";
import { recordAudit } from "../audit/record.ts";
import {
  notFound,
  nowOf,
  requireRole,
  requireService,
  type ActorContext,
  type DbClient,
} from "../context.ts";
import { checkDestination, parseServiceUrl } from "../urls.ts";

export interface CreateModelProviderInput {
  name: string;
  kind: ProviderKind;
  baseUrl: string;
  apiKey: string;
  defaultModel?: string | null;
  /** Models runs may use through the gateway; empty or absent: any. */
  allowedModels?: readonly string[];
  isDefault?: boolean;
}

export interface UpdateModelProviderInput {
  providerId: string;
  name?: string;
  baseUrl?: string;
  defaultModel?: string | null;
  allowedModels?: readonly string[];
  isDefault?: boolean;
}

/** The stored list (sorted, no duplicates); the default model must be on it when there is one. */
function checkedModels(allowed: readonly string[], defaultModel: string | null): string[] {
  const models = [...new Set(allowed)].sort();
  if (models.length > 0 && defaultModel !== null && !models.includes(defaultModel))
    throw new AppError(
      "BAD_REQUEST",
      `The default model "${defaultModel}" is not in the allowed models; add it or choose another default.`,
      { reason: "DEFAULT_MODEL_NOT_ALLOWED" },
    );
  return models;
}

/** Syntax, then the outbound policy (C21): the gateway will call this base URL. */
async function checkedBaseUrl(ctx: ActorContext, value: string): Promise<string> {
  const url = parseServiceUrl(value, "The base URL");
  await checkDestination(ctx, url, "The base URL");
  return url.toString();
}

const sealKey = (keyring: Keyring, workspaceId: string, rowId: string, apiKey: string) =>
  encryptField(keyring, apiKey, {
    workspaceId,
    table: "ModelProvider",
    rowId,
    field: "apiKeyCiphertext",
  });

async function refuseTakenName(db: DbClient, workspaceId: string, name: string, id?: string) {
  const taken = await db.modelProvider.findFirst({
    where: { workspaceId, name, ...(id ? { id: { not: id } } : {}) },
    select: { id: true },
  });
  if (taken)
    throw new AppError("CONFLICT", `A model provider named "${name}" already exists.`, {
      reason: "NAME_TAKEN",
    });
}

/** One default per workspace: making this one the default clears the others. */
async function clearOtherDefaults(tx: DbClient, workspaceId: string, id: string) {
  await tx.modelProvider.updateMany({
    where: { workspaceId, isDefault: true, id: { not: id } },
    data: { isDefault: false },
  });
}

/** `name`: the provider's name as of this change (after a rename, the new one). */
const audit = (ctx: ActorContext, tx: DbClient, action: AuditAction, id: string, name: string) =>
  recordAudit(tx, {
    workspaceId: ctx.workspaceId,
    actorType: "USER",
    actorId: ctx.actor.userId,
    action,
    targetType: "ModelProvider",
    targetId: id,
    targetLabel: name,
  });

export async function createModelProvider(
  ctx: ActorContext,
  input: CreateModelProviderInput,
): Promise<{ id: string }> {
  await requireRole(ctx, "own");
  const keyring = requireService(ctx, "keyring");
  const { db, workspaceId } = ctx;
  const baseUrl = await checkedBaseUrl(ctx, input.baseUrl);
  const allowedModels = checkedModels(input.allowedModels ?? [], input.defaultModel ?? null);
  await refuseTakenName(db, workspaceId, input.name);
  const id = randomUUID();
  const apiKeyCiphertext = await sealKey(keyring, workspaceId, id, input.apiKey);
  await db.$transaction(async (tx) => {
    const data = {
      id,
      workspaceId,
      name: input.name,
      kind: input.kind,
      baseUrl,
      apiKeyCiphertext,
      apiKeyUpdatedAt: nowOf(ctx),
      defaultModel: input.defaultModel ?? null,
      allowedModels,
      isDefault: input.isDefault ?? false,
    };
    await tx.modelProvider.create({ data });
    if (data.isDefault) await clearOtherDefaults(tx, workspaceId, id);
    await audit(ctx, tx, "provider.created", id, input.name);
  });
  return { id };
}

export async function updateModelProvider(
  ctx: ActorContext,
  input: UpdateModelProviderInput,
): Promise<void> {
  await requireRole(ctx, "own");
  const { db, workspaceId } = ctx;
  const existing = await db.modelProvider.findFirst({
    where: { id: input.providerId, workspaceId },
    select: { id: true, defaultModel: true, allowedModels: true },
  });
  if (!existing) throw notFound("Model provider");
  if (input.name !== undefined) await refuseTakenName(db, workspaceId, input.name, existing.id);
  const baseUrl =
    input.baseUrl === undefined ? undefined : await checkedBaseUrl(ctx, input.baseUrl);
  const allowedModels = checkedModels(
    input.allowedModels ?? existing.allowedModels,
    input.defaultModel === undefined ? existing.defaultModel : input.defaultModel,
  );
  const data = {
    allowedModels,
    ...(input.name === undefined ? {} : { name: input.name }),
    ...(baseUrl === undefined ? {} : { baseUrl }),
    ...(input.defaultModel === undefined ? {} : { defaultModel: input.defaultModel }),
    ...(input.isDefault === undefined ? {} : { isDefault: input.isDefault }),
  };
  await db.$transaction(async (tx) => {
    const updated = await tx.modelProvider.update({
      where: { id: existing.id },
      data,
      select: { name: true },
    });
    if (input.isDefault) await clearOtherDefaults(tx, workspaceId, existing.id);
    await audit(ctx, tx, "provider.updated", existing.id, updated.name);
  });
}

/** Replaces the key; the old one is overwritten, the new one never returned. */
export async function replaceModelProviderKey(
  ctx: ActorContext,
  input: { providerId: string; apiKey: string },
): Promise<void> {
  await requireRole(ctx, "own");
  const keyring = requireService(ctx, "keyring");
  const { db, workspaceId } = ctx;
  const existing = await db.modelProvider.findFirst({
    where: { id: input.providerId, workspaceId },
    select: { id: true, name: true },
  });
  if (!existing) throw notFound("Model provider");
  const apiKeyCiphertext = await sealKey(keyring, workspaceId, existing.id, input.apiKey);
  await db.$transaction(async (tx) => {
    await tx.modelProvider.update({
      where: { id: existing.id },
      data: { apiKeyCiphertext, apiKeyUpdatedAt: nowOf(ctx) },
    });
    await audit(ctx, tx, "provider.key_replaced", existing.id, existing.name);
  });
}

/** Deletes a provider and its key; past runs keep their usage, their provider link is cleared. */
export async function deleteModelProvider(
  ctx: ActorContext,
  input: { providerId: string },
): Promise<void> {
  await requireRole(ctx, "own");
  await ctx.db.$transaction(async (tx) => {
    const where = { id: input.providerId, workspaceId: ctx.workspaceId };
    const provider = await tx.modelProvider.findFirst({ where, select: { name: true } });
    if (!provider) throw notFound("Model provider");
    await tx.modelProvider.deleteMany({ where });
    // The row keeps the name the provider had: after this nothing else does.
    await audit(ctx, tx, "provider.deleted", input.providerId, provider.name);
  });
}
